import SQLite from "better-sqlite3";
import type { Memory } from "@memory-box/contract";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../db/database";
import { commitCuttingProxy, type CommitCut, type CommitCuttingProxy } from "../../../test/commit-cutting-proxy";
import { createMember, type TestMember } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { createTestDatabase, type TestDatabase, testEngines } from "../../../test/test-database";

// ADR 0043, amended 2026-11-28: a keyed create records its answer in its own transaction. A create
// that committed has its answer, whatever happens to the request after the commit, so the retry
// gets it (and nothing is made twice); a create that did not commit leaves its key free.
//
// The fault right after the commit: on PostgreSQL, the connection is cut by a proxy that reads the
// protocol, once PostgreSQL answered the COMMIT and before the server hears it (a plain outage
// proxy cuts at a time, not at a message, so it cannot hit that window). SQLite has no connection
// to cut: there, right after the create's COMMIT (seen through the query log), another connection
// takes the database's write lock, as a backup or a second process may, so that no write after the
// commit can succeed (the answer used to be such a write).
describe.each(testEngines())("a keyed create's answer commits with it on %s", (engine) => {
  let database: TestDatabase;
  let proxy: CommitCuttingProxy | undefined;
  let testApp: TestApp;
  let ann: TestMember;
  let memoryId: string;
  /** SQLite: the statement whose transaction's COMMIT takes the write lock, and what to call then. */
  let lockAfterCommit: { after: string; seen: boolean; locked: () => void } | undefined;
  let locker: SQLite.Database | undefined;
  let serial = 0;
  const unique = (what: string) => `${what}-${engine}-${Date.now()}-${(serial += 1)}`;

  beforeAll(async () => {
    database = await createTestDatabase(engine, { migrated: true });
    if (database.config.engine === "postgres") proxy = await commitCuttingProxy(database.config.url);
    testApp = await createTestApp(engine, {
      sharedDatabase: proxy ? { engine: "postgres", url: proxy.url } : database.config,
      env: { AUTH_RATE_LIMITS: "false" },
      onQuery: (text) => {
        if (!lockAfterCommit) return;
        if (text.startsWith(lockAfterCommit.after)) lockAfterCommit.seen = true;
        else if (lockAfterCommit.seen && text === "commit") {
          const { locked } = lockAfterCommit;
          lockAfterCommit = undefined;
          locker!.exec("begin immediate");
          locked();
        }
      },
    });
    if (database.config.engine === "sqlite") locker = new SQLite(database.config.file);
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
    const target = await post("/api/v1/memories", { title: "Comments go here" });
    memoryId = target.json<Memory>().id;
  });
  afterAll(async () => {
    await testApp?.close();
    locker?.close();
    await proxy?.close();
    await database?.drop();
  });

  const post = (url: string, payload: object, key?: string) =>
    testApp.app.inject({
      method: "POST",
      url,
      payload,
      headers: { ...ann.headers, ...(key === undefined ? {} : { "idempotency-key": key }) },
    });

  /** The database itself, not through the server (nor its proxy). */
  const withDatabase = async <T>(work: (db: ReturnType<typeof openDatabase>["db"]) => Promise<T>): Promise<T> => {
    const direct = openDatabase(database.config);
    try {
      return await work(direct.db);
    } finally {
      await direct.destroy();
    }
  };

  /** How many rows of `table` carry `marker` in `column`, read from the database itself. */
  const rowsWith = (table: "memories" | "comments", column: "title" | "body") => (marker: string) =>
    withDatabase(async (db) => {
      const { n } = await db
        .selectFrom(table)
        .select(sql<number>`count(*)`.as("n"))
        .where(sql.ref(column), "=", marker)
        .executeTakeFirstOrThrow();
      return Number(n);
    });

  // Each idempotent create: its route, a request carrying `marker`, and how many rows carry it.
  const creates = [
    {
      route: "a memory",
      url: () => "/api/v1/memories",
      payload: (marker: string) => ({ title: marker }),
      insert: 'insert into "memories"',
      made: rowsWith("memories", "title"),
    },
    {
      route: "a comment",
      url: () => `/api/v1/memories/${memoryId}/comments`,
      payload: (marker: string) => ({ body: marker }),
      insert: 'insert into "comments"',
      made: rowsWith("comments", "body"),
    },
    {
      route: "a batch",
      url: () => "/api/v1/memories/batch",
      payload: (marker: string) => ({
        items: [
          { title: marker, memory_date: "2026-11-01" },
          { title: marker, memory_date: "2026-11-02" },
        ],
      }),
      insert: 'insert into "memories"',
      made: rowsWith("memories", "title"),
    },
  ];

  /**
   * Cuts the create carrying `marker` at its COMMIT (PostgreSQL), or locks the database right after
   * it (SQLite, `after` only); resolves with what PostgreSQL answered the COMMIT, once done.
   */
  const faultAtCommit = (marker: string, insert: string, when: CommitCut): Promise<string> => {
    if (proxy) return proxy.cutAtCommit(marker, when);
    return new Promise((resolve) => {
      lockAfterCommit = { after: insert, seen: false, locked: () => resolve("COMMIT") };
    });
  };

  it.each(creates)(
    "gives the retry of $route whose commit was not heard the first answer, once",
    async ({ url, payload, insert, made }) => {
      const key = unique("key");
      const marker = unique("cut after commit");
      const fault = faultAtCommit(marker, insert, "after");
      const first = await post(url(), payload(marker), key);
      expect(await fault).toBe("COMMIT");
      if (engine === "postgres") {
        // The server never heard PostgreSQL's answer: out of reach, although the create committed.
        expect(first.statusCode, first.body).toBe(503);
        expect(first.json()).toMatchObject({ code: "service_unavailable" });
      } else {
        // Nothing was left to write after the commit: the answer went out with the lock held.
        expect(first.statusCode, first.body).toBe(201);
        locker!.exec("rollback");
      }
      const created = await made(marker);
      expect(created).toBeGreaterThan(0);

      const retry = await post(url(), payload(marker), key);
      expect(retry.statusCode, retry.body).toBe(201);
      expect(retry.headers["idempotent-replayed"]).toBe("true");
      expect(retry.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(retry.body).toContain(marker);
      if (engine === "sqlite") expect(retry.body).toBe(first.body);
      const again = await post(url(), payload(marker), key);
      expect(again.statusCode).toBe(201);
      expect(again.body).toBe(retry.body);
      expect(await made(marker)).toBe(created);
    },
  );

  it.each(creates)(
    "frees the key of $route whose transaction failed, so the retry runs again",
    async ({ url, payload, made }) => {
      const key = unique("key");
      const marker = unique("failed create");
      // The database refuses the transaction at its last write, the answer's: on PostgreSQL with a
      // serialization failure (as a deadlock would), on SQLite with a trigger's abort.
      await withDatabase(async (db) => {
        if (engine === "postgres") {
          await sql`create or replace function refuse_answer() returns trigger language plpgsql as $$
          begin raise exception 'could not serialize access' using errcode = '40001'; end $$`.execute(db);
          await sql`create trigger refuse_answer before update on idempotency_keys for each row
          when (new.response_status is not null) execute function refuse_answer()`.execute(db);
        } else {
          await sql`create trigger refuse_answer before update of response_status on idempotency_keys
          when new.response_status is not null begin select raise(abort, 'the answer is refused'); end`.execute(db);
        }
      });
      let first;
      try {
        first = await post(url(), payload(marker), key);
      } finally {
        await withDatabase((db) =>
          sql`drop trigger refuse_answer${sql.raw(engine === "postgres" ? " on idempotency_keys" : "")}`.execute(db),
        );
      }
      if (engine === "postgres") {
        // A deadlock or serialization failure: 503 with a short Retry-After, the key free.
        expect(first.statusCode, first.body).toBe(503);
        expect(first.headers["retry-after"]).toBe("1");
      } else {
        expect(first.statusCode, first.body).toBe(500);
      }
      expect(await made(marker)).toBe(0);
      const keys = await withDatabase((db) =>
        db.selectFrom("idempotency_keys").select("key").where("user_id", "=", ann.userId).where("key", "=", key).execute(),
      );
      expect(keys).toHaveLength(0);

      const retry = await post(url(), payload(marker), key);
      expect(retry.statusCode, retry.body).toBe(201);
      expect(retry.headers["idempotent-replayed"]).toBeUndefined();
      const created = await made(marker);
      expect(created).toBeGreaterThan(0);
      expect((await post(url(), payload(marker), key)).body).toBe(retry.body);
      expect(await made(marker)).toBe(created);
    },
  );

  it.skipIf(engine !== "postgres")(
    "frees the key of a create whose connection was cut before its commit reached PostgreSQL",
    async () => {
      const key = unique("key");
      const marker = unique("cut before commit");
      const fault = faultAtCommit(marker, 'insert into "memories"', "before");
      const first = await post("/api/v1/memories", { title: marker }, key);
      expect(await fault).toBe("not sent");
      expect(first.statusCode, first.body).toBe(503);
      expect(await creates[0]!.made(marker)).toBe(0);
      const retry = await post("/api/v1/memories", { title: marker }, key);
      expect(retry.statusCode, retry.body).toBe(201);
      expect(retry.headers["idempotent-replayed"]).toBeUndefined();
      expect(await creates[0]!.made(marker)).toBe(1);
    },
  );
});
