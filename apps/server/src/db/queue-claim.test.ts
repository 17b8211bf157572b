import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testEngines, type TestDatabase } from "../../test/test-database";
import { MediaJobsRepository } from "../modules/media-jobs";
import { type DatabaseHandle, openDatabase } from "./database";

// Issue #37: the queues' pollers (mail, push, media jobs) claim every few seconds, work or not. A
// claim is a write; on SQLite a write takes the write lock, or waits for it on the event loop
// while an operator's import holds it, and three pollers' waits could hold a request past 100 ms.

const now = "2026-11-29T12:00:00.000Z";
const leaseUntil = "2026-11-29T12:01:00.000Z";

describe.each(testEngines())("a queue's claim on %s", (engine) => {
  let testDatabase: TestDatabase;
  let database: DatabaseHandle;
  let statements: string[] = [];

  beforeAll(async () => {
    testDatabase = await createTestDatabase(engine, { migrated: true });
    database = openDatabase(testDatabase.config, { onQuery: (text) => statements.push(text.trim().toLowerCase()) });
  });
  afterAll(async () => {
    await database?.destroy();
    await testDatabase?.drop();
  });

  it("with nothing due only reads; with a job due takes it, once", async () => {
    const jobs = new MediaJobsRepository(database.db);
    statements = [];
    expect(await jobs.claim(["video.web_copy"], "runner-a", now, leaseUntil)).toBeUndefined();
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^select/);

    const job = await jobs.enqueue("video.web_copy", "photo-1", now);
    const taken = await jobs.claim(["video.web_copy"], "runner-a", now, leaseUntil);
    expect(taken).toMatchObject({ id: job.id, state: "running", lease_owner: "runner-a", attempts: 1 });
    expect(await jobs.claim(["video.web_copy"], "runner-b", now, leaseUntil)).toBeUndefined();
  });
});

describe.runIf(testEngines().includes("sqlite"))("a queue's claim beside another SQLite write", () => {
  let testDatabase: TestDatabase;
  let database: DatabaseHandle;
  let other: SQLite.Database;

  beforeAll(async () => {
    testDatabase = await createTestDatabase("sqlite", { migrated: true });
    // A tool's connection: its writes wait 5 s for another process's write lock.
    database = openDatabase(testDatabase.config);
    if (testDatabase.config.engine !== "sqlite") throw new Error("an SQLite database");
    other = new SQLite(testDatabase.config.file);
  });
  afterAll(async () => {
    if (other?.inTransaction) other.exec("rollback");
    other?.close();
    await database?.destroy();
    await testDatabase?.drop();
  });

  const lockWait = async () =>
    Number((await sql<{ timeout: number }>`pragma busy_timeout`.execute(database.db)).rows[0]?.timeout);

  it("does not wait for the lock: nothing due is no write, a due job fails at once and is taken once the lock is free", async () => {
    const jobs = new MediaJobsRepository(database.db);
    other.exec("begin immediate");
    try {
      let started = performance.now();
      expect(await jobs.claim(["video.web_copy"], "runner-a", now, leaseUntil)).toBeUndefined();
      expect(performance.now() - started).toBeLessThan(1_000);

      // Queued before the lock was taken elsewhere, as a job an upload added.
      other.exec("rollback");
      const job = await jobs.enqueue("video.web_copy", "photo-2", now);
      other.exec("begin immediate");
      started = performance.now();
      await expect(jobs.claim(["video.web_copy"], "runner-a", now, leaseUntil)).rejects.toMatchObject({ code: "SQLITE_BUSY" });
      // The connection's own lock wait is 5 s: the claim did not take it, and left it as it was.
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(await lockWait()).toBe(5_000);
      other.exec("commit");
      expect(await jobs.claim(["video.web_copy"], "runner-a", now, leaseUntil)).toMatchObject({ id: job.id, state: "running" });
    } finally {
      if (other.inTransaction) other.exec("rollback");
    }
  });
});
