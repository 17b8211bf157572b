import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type pg from "pg";
import type { DatabaseConfig } from "../src/config";
import { type DatabaseHandle, type Engine, loadPostgresDriver, openDatabase } from "../src/db/database";
import { migrateToLatest } from "../src/db/migrate";

// Which engines a suite runs on is the run's matrix (test-matrix.ts); re-exported for the suites.
export { availableEngines, testEngines } from "./test-matrix";

export interface TestDatabase {
  config: DatabaseConfig;
  /** Removes the database (file or PostgreSQL database). */
  drop(): Promise<void>;
}

/**
 * A new database for one test file: a temporary SQLite file, or a new PostgreSQL database on the
 * TEST_DATABASE_URL server. Nothing is shared between files, so files run in parallel without
 * stepping on each other. Empty by default; `migrated: true` gives one with every migration
 * applied, copied from a template migrated once per set of migrations (see `migratedTemplate`),
 * which costs a file copy or a CREATE DATABASE instead of running every migration again.
 */
export async function createTestDatabase(
  engine: Engine,
  options: { migrated?: boolean; durableCommits?: boolean } = {},
): Promise<TestDatabase> {
  if (engine === "sqlite") {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-db-"));
    const file = path.join(dir, "test.sqlite");
    if (options.migrated) await fs.copyFile(await sqliteTemplate(), file);
    return {
      config: { engine, file },
      drop: () => fs.rm(dir, { recursive: true, force: true }),
    };
  }
  const serverUrl = testServerUrl();
  const name = `memory_box_test_${randomBytes(6).toString("hex")}`;
  const template = options.migrated ? ` template ${await postgresTemplate(serverUrl)}` : "";
  await withAdminClient(serverUrl, async (client) => {
    await client.query(`create database ${name}${template}`);
    // A test database need not survive a crash of the server: commits do not wait for the disk
    // (a millisecond or more each on CI's disk, thousands of them in a run), unless durability is
    // what the test is about.
    if (!options.durableCommits) await client.query(`alter database ${name} set synchronous_commit = off`);
  });
  return {
    config: { engine, url: databaseUrl(serverUrl, name) },
    drop: async () => {
      await withAdminClient(serverUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}

/** A new database with every migration applied, opened. `close()` closes and drops it. */
export async function openMigratedTestDatabase(
  engine: Engine,
  options: { durableCommits?: boolean } = {},
): Promise<DatabaseHandle & { config: DatabaseConfig; close(): Promise<void> }> {
  const testDatabase = await createTestDatabase(engine, { ...options, migrated: true });
  const handle = openDatabase(testDatabase.config);
  return {
    ...handle,
    config: testDatabase.config,
    close: async () => {
      await handle.destroy();
      await testDatabase.drop();
    },
  };
}

/**
 * The migrations' fingerprint: a template is named after it, so a changed or added migration
 * makes a new template and a stale one is never copied.
 */
const migrationsHash = (async () => {
  const dir = path.resolve(import.meta.dirname, "../src/db/migrations");
  const hash = createHash("sha256");
  for (const name of (await fs.readdir(dir)).sort()) {
    hash
      .update(name)
      .update("\0")
      .update(await fs.readFile(path.join(dir, name)))
      .update("\0");
  }
  return hash.digest("hex").slice(0, 16);
})();

let sqliteTemplateFile: Promise<string> | undefined;

/**
 * A migrated SQLite file in the temporary folder, shared by every test run of these migrations.
 * Built under a name of its own and renamed into place, so a file found there is always whole.
 */
function sqliteTemplate(): Promise<string> {
  sqliteTemplateFile ??= (async () => {
    const file = path.join(os.tmpdir(), `memory-box-template-${await migrationsHash}.sqlite`);
    if (await exists(file)) return file;
    const building = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
    const handle = openDatabase({ engine: "sqlite", file: building });
    try {
      await migrateToLatest(handle.db);
    } finally {
      // Closing the last connection checkpoints the write-ahead log into the file and removes it.
      await handle.destroy();
    }
    await fs.rename(building, file);
    return file;
  })();
  return sqliteTemplateFile;
}

let postgresTemplateName: Promise<string> | undefined;

/**
 * A migrated PostgreSQL database marked as a template, shared by every test run of these
 * migrations on the server. Test files in parallel workers may all ask for it at once: an advisory
 * lock lets one build it while the others wait, and it counts as built only once marked
 * `is_template` (a half-built one, left by a run that was killed, is dropped and built again). Its
 * own connections are closed before it is marked, as CREATE DATABASE … TEMPLATE requires.
 */
function postgresTemplate(serverUrl: string): Promise<string> {
  postgresTemplateName ??= (async () => {
    const name = `memory_box_template_${await migrationsHash}`;
    const isBuilt = async (client: pg.Client) =>
      (await client.query("select 1 from pg_database where datname = $1 and datistemplate", [name])).rowCount === 1;
    await withAdminClient(serverUrl, async (client) => {
      if (await isBuilt(client)) return;
      // One key for every template: builds are rare, and never slow enough to be worth running side by side.
      await client.query("select pg_advisory_lock(hashtext('memory_box_test_template'))");
      try {
        if (await isBuilt(client)) return;
        await client.query(`drop database if exists ${name} with (force)`);
        await client.query(`create database ${name}`);
        const handle = openDatabase({ engine: "postgres", url: databaseUrl(serverUrl, name) });
        try {
          await migrateToLatest(handle.db);
        } finally {
          await handle.destroy();
        }
        await client.query(`alter database ${name} is_template true`);
      } finally {
        await client.query("select pg_advisory_unlock(hashtext('memory_box_test_template'))");
      }
    });
    return name;
  })();
  return postgresTemplateName;
}

function testServerUrl(): string {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error("TEST_DATABASE_URL is not set");
  return serverUrl;
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

/** The driver is loaded on first use, as the server does: suites on SQLite alone never pay for it. */
async function withAdminClient<T>(serverUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const { Client } = await loadPostgresDriver();
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
