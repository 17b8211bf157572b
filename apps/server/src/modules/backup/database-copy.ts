import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import SQLite from "better-sqlite3";
import type { DatabaseConfig } from "../../config";
import { loadPostgresDriver } from "../../db/database";
import { AppError } from "../../errors";

const run = promisify(execFile);

/** The file name of a snapshot's database copy, by engine. */
export function databaseFileName(config: DatabaseConfig): string {
  return config.engine === "sqlite" ? "database.sqlite" : "database.pgdump";
}

/**
 * A consistent copy of the database while the server may be writing to it: SQLite through its
 * online backup API (pages copied under the database's own locking, so the copy is one moment of
 * it), PostgreSQL through `pg_dump` (one snapshot transaction, custom format for `pg_restore`).
 */
export async function copyDatabase(config: DatabaseConfig, target: string): Promise<void> {
  if (config.engine === "sqlite") {
    const source = new SQLite(config.file, { readonly: true, fileMustExist: true });
    try {
      await source.backup(target);
    } finally {
      source.close();
    }
    return;
  }
  await postgresTool("pg_dump", ["--format=custom", "--no-owner", "--no-privileges", `--file=${target}`, config.url]);
}

/**
 * Puts a copy back as the configured database, which must hold nothing yet (a restore never
 * overwrites a living instance): SQLite's file is written in place, PostgreSQL's database (created
 * empty by the operator) is filled by `pg_restore`.
 */
export async function restoreDatabase(config: DatabaseConfig, copy: string): Promise<void> {
  await assertDatabaseEmpty(config);
  if (config.engine === "sqlite") {
    await fs.rm(config.file, { force: true });
    await fs.rm(`${config.file}-wal`, { force: true });
    await fs.rm(`${config.file}-shm`, { force: true });
    await fs.mkdir(path.dirname(config.file), { recursive: true });
    // Copied under another name and renamed: a failure leaves no half a database under the real one.
    const partial = `${config.file}.partial`;
    try {
      await fs.copyFile(copy, partial);
      await fs.rename(partial, config.file);
    } finally {
      await fs.rm(partial, { force: true });
    }
    return;
  }
  // One transaction: a failure leaves the database as empty as it was.
  await postgresTool("pg_restore", [
    "--no-owner",
    "--no-privileges",
    "--exit-on-error",
    "--single-transaction",
    `--dbname=${config.url}`,
    copy,
  ]);
}

/** Refuses a database that already holds tables: a restore never overwrites a living instance. */
export async function assertDatabaseEmpty(config: DatabaseConfig): Promise<void> {
  const holdsData = config.engine === "sqlite" ? await sqliteHasTables(config.file) : await postgresHasTables(config.url);
  if (holdsData) throw notEmpty(config.engine === "sqlite" ? config.file : "the PostgreSQL database");
}

async function sqliteHasTables(file: string): Promise<boolean> {
  try {
    await fs.access(file);
  } catch {
    return false;
  }
  const db = new SQLite(file, { readonly: true });
  try {
    const row = db.prepare("select count(*) as n from sqlite_master where type = 'table'").get() as { n: number };
    return row.n > 0;
  } finally {
    db.close();
  }
}

async function postgresHasTables(url: string): Promise<boolean> {
  const pg = await loadPostgresDriver();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ n: string }>(
      "select count(*) as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')",
    );
    return Number(result.rows[0]?.n) > 0;
  } finally {
    await client.end();
  }
}

function notEmpty(what: string): AppError {
  return new AppError("validation_failed", {
    message: `A backup is restored only into an empty instance, and ${what} already holds data. Point DATA_DIR (or DATABASE_URL) at a new, empty place.`,
  });
}

/** Runs a PostgreSQL client tool; says what to install when it is missing. */
async function postgresTool(tool: "pg_dump" | "pg_restore", args: string[]): Promise<void> {
  try {
    await run(tool, args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    if (failure.code === "ENOENT") {
      throw new AppError("validation_failed", {
        message: `${tool} was not found: backups of a PostgreSQL database need the PostgreSQL client tools of the server's version (Debian: apt-get install postgresql-client).`,
      });
    }
    // The URL may carry a password: only the tool's own words are passed on.
    throw new Error(`${tool} failed: ${(failure.stderr ?? "").trim().slice(0, 2000)}`);
  }
}
