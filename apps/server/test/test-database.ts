import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { DatabaseConfig } from "../src/config";
import { type DatabaseHandle, type Engine, openDatabase } from "../src/db/database";
import { migrateToLatest } from "../src/db/migrate";

/**
 * The engines every database suite runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL
 * names a server (CI sets it). Use with `describe.each(testEngines)`.
 */
export const testEngines: Engine[] = process.env.TEST_DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];

export interface TestDatabase {
  config: DatabaseConfig;
  /** Removes the database (file or PostgreSQL database). */
  drop(): Promise<void>;
}

/**
 * A brand-new, empty database for one test file: a temporary SQLite file, or a freshly created
 * PostgreSQL database on the TEST_DATABASE_URL server. Nothing is shared between files, so
 * files run in parallel without stepping on each other.
 */
export async function createTestDatabase(engine: Engine): Promise<TestDatabase> {
  if (engine === "sqlite") {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-db-"));
    return {
      config: { engine, file: path.join(dir, "test.sqlite") },
      drop: () => fs.rm(dir, { recursive: true, force: true }),
    };
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `memory_box_test_${randomBytes(6).toString("hex")}`;
  await withAdminClient(serverUrl, (client) => client.query(`create database ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    config: { engine, url: url.toString() },
    drop: async () => {
      await withAdminClient(serverUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}

/** A fresh database with every migration applied, opened. `close()` closes and drops it. */
export async function openMigratedTestDatabase(
  engine: Engine,
): Promise<DatabaseHandle & { config: DatabaseConfig; close(): Promise<void> }> {
  const testDatabase = await createTestDatabase(engine);
  const handle = openDatabase(testDatabase.config);
  await migrateToLatest(handle.db);
  return {
    ...handle,
    config: testDatabase.config,
    close: async () => {
      await handle.destroy();
      await testDatabase.drop();
    },
  };
}

async function withAdminClient<T>(serverUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
