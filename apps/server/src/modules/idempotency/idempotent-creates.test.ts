import type { Comment, CommentList, Memory, MemoryPage } from "@memory-box/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../db/database";
import { createMember, type TestMember } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";

// Creates that may be sent again (issue #29 item 5, ADR 0043): a retry whose first answer was lost
// gets that answer, never a second memory or comment; another member's same key is their own.

describe.each(testEngines())("Idempotency-Key on creates on %s", (engine) => {
  let testApp: TestApp;
  let ann: TestMember;
  let ben: TestMember;
  let keyNumber = 0;
  const newKey = () => `key-${engine}-${Date.now()}-${(keyNumber += 1)}`;

  beforeAll(async () => {
    testApp = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
    ben = await createMember(testApp, "ben@memory-box.test", "Ben");
  });
  afterAll(() => testApp.close());

  const post = (member: TestMember, url: string, payload: object, key?: string) =>
    testApp.app.inject({
      method: "POST",
      url,
      payload,
      headers: { ...member.headers, ...(key === undefined ? {} : { "idempotency-key": key }) },
    });
  const createMemory = (member: TestMember, title: string, key?: string) => post(member, "/api/v1/memories", { title }, key);
  const titled = async (title: string) => {
    const response = await testApp.app.inject({ method: "GET", url: `/api/v1/memories?limit=100`, headers: ann.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<MemoryPage>().items.filter((memory) => memory.title === title);
  };
  const commentsOn = async (memoryId: string) => {
    const response = await testApp.app.inject({
      method: "GET",
      url: `/api/v1/memories/${memoryId}/comments`,
      headers: ann.headers,
    });
    return response.json<CommentList>().comments;
  };
  const withDatabase = async <T>(work: (db: ReturnType<typeof openDatabase>["db"]) => Promise<T>): Promise<T> => {
    const database = openDatabase(testApp.config.database);
    try {
      return await work(database.db);
    } finally {
      await database.destroy();
    }
  };

  it("answers a memory's retry with the first answer: same status, body, id and ETag, and one memory", async () => {
    const key = newKey();
    const first = await createMemory(ann, "Picnic by the lake", key);
    expect(first.statusCode, first.body).toBe(201);
    const retry = await createMemory(ann, "Picnic by the lake", key);
    expect(retry.statusCode).toBe(201);
    expect(retry.body).toBe(first.body);
    expect(retry.json<Memory>().id).toBe(first.json<Memory>().id);
    expect(retry.headers.etag).toBe(first.headers.etag);
    expect(retry.headers["content-type"]).toBe(first.headers["content-type"]);
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    expect(await titled("Picnic by the lake")).toHaveLength(1);
  });

  it("answers a comment's retry with the first answer, and keeps one comment", async () => {
    const memory = (await createMemory(ann, "Comment target")).json<Memory>();
    const key = newKey();
    const url = `/api/v1/memories/${memory.id}/comments`;
    const first = await post(ann, url, { body: "Lovely day" }, key);
    expect(first.statusCode, first.body).toBe(201);
    const retry = await post(ann, url, { body: "Lovely day" }, key);
    expect(retry.statusCode).toBe(201);
    expect(retry.body).toBe(first.body);
    expect(retry.json<Comment>().id).toBe(first.json<Comment>().id);
    expect(await commentsOn(memory.id)).toHaveLength(1);
  });

  it("refuses the same key with another body, or on another route, with 422 idempotency_key_reused", async () => {
    const key = newKey();
    const first = await createMemory(ann, "First use of a key", key);
    expect(first.statusCode).toBe(201);
    const otherBody = await createMemory(ann, "Second use of a key", key);
    expect(otherBody.statusCode).toBe(422);
    expect(otherBody.json()).toMatchObject({ code: "idempotency_key_reused" });
    const otherRoute = await post(ann, `/api/v1/memories/${first.json<Memory>().id}/comments`, { body: "Hi" }, key);
    expect(otherRoute.statusCode).toBe(422);
    expect(otherRoute.json()).toMatchObject({ code: "idempotency_key_reused" });
    expect(await titled("Second use of a key")).toHaveLength(0);
    expect(await commentsOn(first.json<Memory>().id)).toHaveLength(0);
  });

  it("never gives another member my answer: their replay of my key is their own new create", async () => {
    const key = newKey();
    const mine = await createMemory(ann, "Ann's secret plan", key);
    expect(mine.statusCode).toBe(201);
    const theirs = await createMemory(ben, "Ann's secret plan", key);
    expect(theirs.statusCode, theirs.body).toBe(201);
    expect(theirs.headers["idempotent-replayed"]).toBeUndefined();
    expect(theirs.json<Memory>().id).not.toBe(mine.json<Memory>().id);
    expect(theirs.json<Memory>().updated_by).toBe(ben.userId);
    // From now on the key stands for Ben's own request, for Ben; Ann's retry still gets Ann's answer.
    expect((await createMemory(ben, "Ann's secret plan", key)).json<Memory>().id).toBe(theirs.json<Memory>().id);
    const ownRetry = await createMemory(ann, "Ann's secret plan", key);
    expect(ownRetry.json<Memory>().id).toBe(mine.json<Memory>().id);
    expect(await titled("Ann's secret plan")).toHaveLength(2);
  });

  it("refuses a malformed key with 400 idempotency_key_invalid, creating nothing", async () => {
    for (const key of ["", "has space", "x".repeat(256), "tab\tinside", "naïve"]) {
      const response = await testApp.app.inject({
        method: "POST",
        url: "/api/v1/memories",
        payload: { title: "Malformed key" },
        headers: { ...ann.headers, "idempotency-key": Buffer.from(key, "utf8").toString("latin1") },
      });
      expect(response.statusCode, key).toBe(400);
      expect(response.json(), key).toMatchObject({ code: "idempotency_key_invalid" });
    }
    expect((await createMemory(ann, "Malformed key", "x".repeat(255))).statusCode).toBe(201);
    expect(await titled("Malformed key")).toHaveLength(1);
  });

  it("frees the key of a create that was refused, so a retry runs again", async () => {
    const key = newKey();
    const refused = await post(ann, `/api/v1/memories/6f1b2c3d-0000-4000-8000-000000000000/comments`, { body: "Hi" }, key);
    expect(refused.statusCode).toBe(404);
    const memory = (await createMemory(ann, "Target after a refusal")).json<Memory>();
    const created = await post(ann, `/api/v1/memories/${memory.id}/comments`, { body: "Hi" }, key);
    expect(created.statusCode, created.body).toBe(201);
  });

  it("answers 409 idempotency_key_in_use while the first request is under way, and takes over an abandoned one", async () => {
    const key = newKey();
    const now = new Date();
    await withDatabase((db) =>
      db
        .insertInto("idempotency_keys")
        .values({
          user_id: ann.userId,
          key,
          fingerprint: "another request's fingerprint",
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + 86_400_000).toISOString(),
        })
        .execute(),
    );
    // A key held by another request (another fingerprint), even one under way, is refused as reused.
    expect((await createMemory(ann, "In flight", key)).json()).toMatchObject({ code: "idempotency_key_reused" });

    // The same request twice at once: one runs, the other is told to wait, and one memory is made.
    const together = newKey();
    const answers = await Promise.all([createMemory(ann, "Two tabs", together), createMemory(ann, "Two tabs", together)]);
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect([
      [201, 201],
      [201, 409],
    ]).toContainEqual(statuses);
    for (const answer of answers.filter((answer) => answer.statusCode === 409))
      expect(answer.json()).toMatchObject({ code: "idempotency_key_in_use" });
    expect(await titled("Two tabs")).toHaveLength(1);

    // A request still under way (its row has no answer yet) holds the key; one abandoned long ago does not.
    const pending = newKey();
    const first = await createMemory(ann, "Pending", pending);
    await withDatabase((db) =>
      db
        .updateTable("idempotency_keys")
        .set({ response_status: null, response_headers: null, response_body: null })
        .where("user_id", "=", ann.userId)
        .where("key", "=", pending)
        .execute(),
    );
    const inUse = await createMemory(ann, "Pending", pending);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json()).toMatchObject({ code: "idempotency_key_in_use" });
    await withDatabase((db) =>
      db
        .updateTable("idempotency_keys")
        .set({ created_at: new Date(Date.now() - 3 * 60_000).toISOString() })
        .where("user_id", "=", ann.userId)
        .where("key", "=", pending)
        .execute(),
    );
    const takenOver = await createMemory(ann, "Pending", pending);
    expect(takenOver.statusCode).toBe(201);
    expect(takenOver.json<Memory>().id).not.toBe(first.json<Memory>().id);
  });

  it("keeps keys a day: an expired key is pruned and free again", async () => {
    const key = newKey();
    expect((await createMemory(ann, "Yesterday's key", key)).statusCode).toBe(201);
    await withDatabase((db) =>
      db
        .updateTable("idempotency_keys")
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where("user_id", "=", ann.userId)
        .where("key", "=", key)
        .execute(),
    );
    // Any keyed create (here another member's) drops expired keys on the way.
    expect((await createMemory(ben, "Pruning", newKey())).statusCode).toBe(201);
    const left = await withDatabase((db) =>
      db.selectFrom("idempotency_keys").select("key").where("user_id", "=", ann.userId).where("key", "=", key).execute(),
    );
    expect(left).toHaveLength(0);
    const reused = await createMemory(ann, "Today's use of it", key);
    expect(reused.statusCode).toBe(201);
    const kept = await withDatabase((db) =>
      db
        .selectFrom("idempotency_keys")
        .select(["expires_at", "created_at"])
        .where("user_id", "=", ann.userId)
        .where("key", "=", key)
        .executeTakeFirstOrThrow(),
    );
    expect(Date.parse(kept.expires_at) - Date.parse(kept.created_at)).toBe(24 * 60 * 60 * 1000);
  });

  it("leaves creates without a key as they were: each makes its own", async () => {
    expect((await createMemory(ann, "No key")).statusCode).toBe(201);
    expect((await createMemory(ann, "No key")).statusCode).toBe(201);
    expect(await titled("No key")).toHaveLength(2);
  });
});
