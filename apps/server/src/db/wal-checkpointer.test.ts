import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WalCheckpointer } from "./wal-checkpointer";

describe("WalCheckpointer", () => {
  let dir: string;
  let file: string;
  let connection: SQLite.Database;

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-checkpoints-"));
    file = path.join(dir, "journal.sqlite");
    connection = new SQLite(file);
    connection.pragma("journal_mode = WAL");
    // As the server's connection runs beside the worker: commits never checkpoint.
    connection.pragma("wal_autocheckpoint = 0");
    connection.exec("create table notes (id integer primary key, text text not null)");
  });
  afterEach(async () => {
    if (connection.open) connection.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  /** About 2 MB of rows: they sit in the write-ahead log until a checkpoint copies them. */
  const write = () => {
    const insert = connection.prepare("insert into notes (text) values (?)");
    connection.transaction(() => {
      for (let index = 0; index < 500; index += 1) insert.run("x".repeat(4000));
    })();
  };
  const databaseFileBytes = async () => (await fs.stat(file)).size;

  it("copies the log into the database file from its own thread while the server's connection writes", async () => {
    write();
    expect(await databaseFileBytes()).toBeLessThan(100_000);
    const checkpointer = new WalCheckpointer(file, (error) => expect.fail(error.message), 20);
    try {
      await expect.poll(databaseFileBytes, { timeout: 5000, interval: 20 }).toBeGreaterThan(1_500_000);
      expect(connection.prepare("select count(*) as count from notes").get()).toEqual({ count: 500 });
    } finally {
      await checkpointer.stop();
    }
  });

  it("makes a last checkpoint when it stops", async () => {
    const checkpointer = new WalCheckpointer(file, (error) => expect.fail(error.message), 60_000);
    write();
    await checkpointer.stop();
    expect(await databaseFileBytes()).toBeGreaterThan(1_500_000);
  });

  it("reports a worker that cannot run, once", async () => {
    const failures: Error[] = [];
    const checkpointer = new WalCheckpointer(path.join(dir, "missing.sqlite"), (error) => failures.push(error), 20);
    await expect.poll(() => failures.length, { timeout: 5000 }).toBeGreaterThan(0);
    await checkpointer.stop();
    expect(failures).toHaveLength(1);
  });
});
