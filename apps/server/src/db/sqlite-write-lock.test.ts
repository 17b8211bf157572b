import SQLite from "better-sqlite3";
import type { MemoryPage } from "@memory-box/contract";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember } from "../../test/members";
import { turnsDuring } from "../../test/event-loop-turns";
import { memoryRow } from "../../test/memory-rows";
import { createTestApp, type TestApp } from "../../test/test-app";
import { inOwnSqliteTransaction } from "./database";

// Issue #37: an operator's import into SQLite holds the write lock for its whole save (minutes for
// a lifetime's archive) while the server runs. SQLite's driver waits for a lock on the event loop,
// so the server's writes wait only a moment for it (ADR 0085): reads go on answering, a write
// is refused at once with 503 and Retry-After, nothing of it kept, and succeeds once the lock is free.

describe("the server beside another SQLite write", () => {
  let testApp: TestApp;
  let ann: TestMember;
  let other: SQLite.Database;
  let file: string;

  beforeAll(async () => {
    testApp = await createTestApp("sqlite");
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
    const { database } = testApp.config;
    if (database.engine !== "sqlite") throw new Error("an SQLite test app");
    file = database.file;
    other = new SQLite(file);
  });
  afterAll(async () => {
    if (other?.inTransaction) other.exec("rollback");
    other?.close();
    await testApp?.close();
  });

  const list = async () => {
    const response = await testApp.app.inject({ method: "GET", url: "/api/v1/memories", headers: ann.headers });
    expect(response.statusCode).toBe(200);
    return response.json<MemoryPage>().total;
  };
  const write = () =>
    testApp.app.inject({ method: "POST", url: "/api/v1/memories", headers: ann.headers, payload: { title: "While importing" } });

  it("keeps reading, refuses a write at once with 503, and writes again when the lock is free", async () => {
    const before = await list();
    other.exec("begin immediate");
    try {
      const started = performance.now();
      const refused = await write();
      const waited = performance.now() - started;
      expect(refused.statusCode).toBe(503);
      expect(refused.headers["retry-after"]).toBe("1");
      expect(refused.json<{ code: string }>().code).toBe("service_unavailable");
      // The default wait would hold every request for 5 s; the server's is a moment.
      expect(waited).toBeLessThan(1_000);
      expect(await list()).toBe(before);
    } finally {
      other.exec("commit");
    }
    const written = await write();
    expect(written.statusCode).toBe(201);
    expect(await list()).toBe(before + 1);
  });

  // An import through Settings saves on a connection of its own (ADR 0086).
  it("reads beside a save on a connection of its own, and refuses writes with 503 until it commits", async () => {
    const before = await list();
    let open!: () => void;
    let commit!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    const committing = new Promise<void>((resolve) => (commit = resolve));
    const saving = inOwnSqliteTransaction(file, async (trx) => {
      await trx
        .insertInto("memories")
        .values(memoryRow({ title: "Imported" }))
        .execute();
      open();
      await committing;
    });
    await opened;
    expect(await list()).toBe(before);
    expect((await write()).statusCode).toBe(503);
    commit();
    await saving;
    expect(await list()).toBe(before + 1);
  });

  it("waits for another write's lock without stopping the event loop, and gives up leaving nothing", async () => {
    const before = await list();
    let ticks = 0;
    const ticking = setInterval(() => (ticks += 1), 5);
    try {
      other.exec("begin immediate");
      setTimeout(() => other.exec("commit"), 150);
      await inOwnSqliteTransaction(file, (trx) =>
        trx
          .insertInto("memories")
          .values(memoryRow({ title: "After" }))
          .execute(),
      );
      // A wait on the event loop's thread would have held it (and every request) for the whole 150 ms.
      expect(ticks).toBeGreaterThan(5);
      expect(await list()).toBe(before + 1);

      other.exec("begin immediate");
      const refused = inOwnSqliteTransaction(
        file,
        (trx) =>
          trx
            .insertInto("memories")
            .values(memoryRow({ title: "Never" }))
            .execute(),
        100,
      );
      await expect(refused).rejects.toMatchObject({ code: "SQLITE_BUSY" });
      other.exec("commit");
      expect(await list()).toBe(before + 1);
    } finally {
      clearInterval(ticking);
    }
  });

  it("runs a save's statements and its commit off the event loop", async () => {
    const { turns, ms } = await inOwnSqliteTransaction(file, (trx) =>
      // One statement that keeps SQLite busy for a while (a count to three million).
      turnsDuring(() =>
        sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 3000000) select count(*) as c from n`.execute(
          trx,
        ),
      ),
    );
    // On the event loop's thread the statement would have held it: not one turn while it ran.
    expect(ms).toBeGreaterThan(50);
    expect(turns).toBeGreaterThan(ms / 20);
  });

  it("gives a driver's error with its code, and a constraint refused leaves nothing", async () => {
    const before = await list();
    const duplicate = memoryRow({ title: "Twice" });
    const saving = inOwnSqliteTransaction(file, async (trx) => {
      await trx
        .insertInto("memories")
        .values(memoryRow({ title: "First of two" }))
        .execute();
      await trx.insertInto("memories").values(duplicate).execute();
      await trx.insertInto("memories").values(duplicate).execute();
    });
    await expect(saving).rejects.toMatchObject({ code: "SQLITE_CONSTRAINT_PRIMARYKEY" });
    expect(await list()).toBe(before);
  });
});
