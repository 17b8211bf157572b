import SQLite from "better-sqlite3";
import type { MemoryPage } from "@memory-box/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember } from "../../test/members";
import { createTestApp, type TestApp } from "../../test/test-app";

// Issue #37: an operator's import into SQLite holds the write lock for its whole save (minutes for
// a lifetime's archive) while the server runs. SQLite's driver waits for a lock on the event loop,
// so the server's writes wait only a moment for it (ADR 0085): reads go on answering, a write
// is refused at once with 503 and Retry-After, nothing of it kept, and succeeds once the lock is free.

describe("the server beside another process's SQLite write", () => {
  let testApp: TestApp;
  let ann: TestMember;
  let other: SQLite.Database;

  beforeAll(async () => {
    testApp = await createTestApp("sqlite");
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
    const { database } = testApp.config;
    if (database.engine !== "sqlite") throw new Error("an SQLite test app");
    other = new SQLite(database.file);
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
});
