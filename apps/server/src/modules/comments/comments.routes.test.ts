import type { Comment, CommentList, Memory, MemoryPage, ReactionList } from "@memory-box/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../db/database";
import { createMember, type TestMember } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";

// Comments and reactions (issue #16 item 3, ADR 0030), seen by their members and by everyone else.

type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
const unknownId = "6f1b2c3d-0000-4000-8000-000000000000";
const heart = encodeURIComponent("❤️");
const party = encodeURIComponent("🎉");

describe.each(testEngines())("comments and reactions API on %s", (engine) => {
  let testApp: TestApp;
  let ann: TestMember;
  let ben: TestMember;
  let queries = 0;
  let statements: string[] = [];

  beforeAll(async () => {
    testApp = await createTestApp(engine, {
      env: { AUTH_RATE_LIMITS: "false" },
      onQuery: (sql) => {
        queries += 1;
        statements.push(sql);
      },
    });
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
    ben = await createMember(testApp, "ben@memory-box.test", "Ben");
  });
  afterAll(() => testApp.close());

  const request = (member: TestMember | null, method: Method, url: string, payload?: unknown) =>
    testApp.app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
      headers: member ? member.headers : {},
    });
  const createMemory = async (title: string) => {
    const response = await request(ann, "POST", "/api/v1/memories", { title });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Memory>().id;
  };
  const comment = async (member: TestMember, memoryId: string, body: string) => {
    const response = await request(member, "POST", `/api/v1/memories/${memoryId}/comments`, { body });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Comment>();
  };
  const comments = async (memoryId: string) => {
    const response = await request(ben, "GET", `/api/v1/memories/${memoryId}/comments`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<CommentList>().comments;
  };
  const react = async (member: TestMember, method: "PUT" | "DELETE", memoryId: string, emoji: string) => {
    const response = await request(member, method, `/api/v1/memories/${memoryId}/reactions/${emoji}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ReactionList>().reactions;
  };
  const listed = async (memoryId: string) => {
    const response = await request(ann, "GET", "/api/v1/memories?limit=100");
    expect(response.statusCode, response.body).toBe(200);
    return response.json<MemoryPage>().items.find((item) => item.id === memoryId);
  };

  it.each<[Method, string, unknown?]>([
    ["GET", `/api/v1/memories/${unknownId}/comments`],
    ["POST", `/api/v1/memories/${unknownId}/comments`, { body: "Hello" }],
    ["PATCH", `/api/v1/memories/${unknownId}/comments/${unknownId}`, { body: "Hello" }],
    ["DELETE", `/api/v1/memories/${unknownId}/comments/${unknownId}`],
    ["GET", `/api/v1/memories/${unknownId}/reactions`],
    ["PUT", `/api/v1/memories/${unknownId}/reactions/${heart}`],
    ["DELETE", `/api/v1/memories/${unknownId}/reactions/${heart}`],
  ])("%s %s needs a signed-in member", async (method, url, payload) => {
    const anonymous = await request(null, method, url, payload);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: "not_authenticated" });
  });

  it("lists every member's comments oldest first, with their names, trimmed", async () => {
    const memoryId = await createMemory("Picnic");
    expect(await comments(memoryId)).toEqual([]);
    const first = await comment(ann, memoryId, "  What a day!\n");
    const second = await comment(ben, memoryId, "The ants though");

    expect(first).toMatchObject({ memory_id: memoryId, user_id: ann.userId, author: { display_name: "Ann" } });
    expect(first.body).toBe("What a day!");
    expect(first.updated_at).toBe(first.created_at);
    expect((await comments(memoryId)).map((each) => [each.id, each.body, each.author?.display_name])).toEqual([
      [first.id, "What a day!", "Ann"],
      [second.id, "The ants though", "Ben"],
    ]);
  });

  it("lets only the author edit or delete a comment (403 not_comment_author for anyone else)", async () => {
    const memoryId = await createMemory("Concert");
    const mine = await comment(ann, memoryId, "Loud!");
    const url = `/api/v1/memories/${memoryId}/comments/${mine.id}`;

    const edit = await request(ben, "PATCH", url, { body: "Ben was here" });
    expect(edit.statusCode).toBe(403);
    expect(edit.json()).toMatchObject({ code: "not_comment_author" });
    const removal = await request(ben, "DELETE", url);
    expect(removal.statusCode).toBe(403);
    expect(removal.json()).toMatchObject({ code: "not_comment_author" });
    expect((await comments(memoryId)).map((each) => each.body)).toEqual(["Loud!"]);

    const edited = await request(ann, "PATCH", url, { body: " Very loud! " });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<Comment>()).toMatchObject({ id: mine.id, body: "Very loud!", created_at: mine.created_at });
    expect(edited.json<Comment>().updated_at >= mine.created_at).toBe(true);

    expect((await request(ann, "DELETE", url)).statusCode).toBe(204);
    expect(await comments(memoryId)).toEqual([]);
    const again = await request(ann, "DELETE", url);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ code: "comment_not_found" });
  });

  it("answers a comment written or edited from the write itself, with its author's name", async () => {
    const memoryId = await createMemory("Returning");
    statements = [];
    const written = await comment(ben, memoryId, "First!");
    // The member check, then the insert answering the row: nothing is read back.
    expect(statements).toHaveLength(2);
    expect(statements[1]).toMatch(/^insert into "comments".* returning /);
    expect(written).toMatchObject({ body: "First!", user_id: ben.userId, author: { display_name: "Ben" } });

    statements = [];
    const edited = await request(ben, "PATCH", `/api/v1/memories/${memoryId}/comments/${written.id}`, { body: "Second!" });
    expect(edited.statusCode, edited.body).toBe(200);
    // The member check, the comment read for its author, then the update answering the row.
    expect(statements).toHaveLength(3);
    expect(statements[2]).toMatch(/^update "comments".* returning /);
    expect(edited.json<Comment>()).toMatchObject({
      id: written.id,
      body: "Second!",
      created_at: written.created_at,
      author: { display_name: "Ben" },
    });
    expect(await comments(memoryId)).toEqual([edited.json<Comment>()]);
  });

  it("answers 404 for an unknown memory or comment, and a comment asked for under another memory", async () => {
    const memoryId = await createMemory("Beach");
    const other = await createMemory("Mountains");
    const theirs = await comment(ann, memoryId, "Sandy");

    for (const [method, url, payload] of [
      ["GET", `/api/v1/memories/${unknownId}/comments`],
      ["POST", `/api/v1/memories/${unknownId}/comments`, { body: "Hello" }],
      ["PATCH", `/api/v1/memories/${unknownId}/comments/${theirs.id}`, { body: "Hello" }],
      ["GET", `/api/v1/memories/${unknownId}/reactions`],
      ["PUT", `/api/v1/memories/${unknownId}/reactions/${heart}`],
    ] as [Method, string, unknown?][]) {
      const response = await request(ann, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toMatchObject({ code: "memory_not_found" });
    }
    for (const url of [`/api/v1/memories/${memoryId}/comments/${unknownId}`, `/api/v1/memories/${other}/comments/${theirs.id}`]) {
      const response = await request(ann, "PATCH", url, { body: "Moved" });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: "comment_not_found" });
    }
    expect((await request(ann, "GET", "/api/v1/memories/not-a-uuid/comments")).statusCode).toBe(400);
    expect((await request(ann, "PATCH", `/api/v1/memories/${memoryId}/comments/nope`, { body: "x" })).statusCode).toBe(400);
  });

  it.each([
    [{ body: "" }, "body.body"],
    [{ body: " \n\t " }, "body.body"],
    [{ body: "x".repeat(2001) }, "body.body"],
    [{ body: "x".repeat(1_000_000) }, "body.body"],
    [{ body: 42 }, "body.body"],
    [{}, "body.body"],
    [{ body: "ok", user_id: "someone-else" }, "body"],
  ])("refuses the comment %# with 400 validation_failed naming %s, and stores nothing", async (payload, path) => {
    const memoryId = await createMemory("Validation");
    const response = await request(ann, "POST", `/api/v1/memories/${memoryId}/comments`, payload);
    expect(response.statusCode).toBe(400);
    const error = response.json<{ code: string; details: { path: string }[] }>();
    expect(error.code).toBe("validation_failed");
    expect(error.details.map((detail) => detail.path).join(" ")).toContain(path);
    expect(await comments(memoryId)).toEqual([]);
  });

  it("takes a comment of exactly 2000 characters, and refuses an edit to an empty one", async () => {
    const memoryId = await createMemory("Long story");
    const long = await comment(ann, memoryId, "y".repeat(2000));
    expect(long.body).toHaveLength(2000);
    const emptied = await request(ann, "PATCH", `/api/v1/memories/${memoryId}/comments/${long.id}`, { body: "  " });
    expect(emptied.statusCode).toBe(400);
    expect(emptied.json()).toMatchObject({ code: "validation_failed" });
    expect((await comments(memoryId))[0]!.body).toHaveLength(2000);
  });

  it("keeps one reaction per member and emoji: PUT and DELETE are idempotent, counts say whose", async () => {
    const memoryId = await createMemory("Birthday");
    const annGave = { user_id: ann.userId, display_name: "Ann" };
    const benGave = { user_id: ben.userId, display_name: "Ben" };
    expect(await react(ann, "PUT", memoryId, heart)).toEqual([{ emoji: "❤️", count: 1, mine: true, by: [annGave] }]);
    expect(await react(ann, "PUT", memoryId, heart)).toEqual([{ emoji: "❤️", count: 1, mine: true, by: [annGave] }]);
    await react(ben, "PUT", memoryId, heart);
    const benSees = await react(ben, "PUT", memoryId, party);
    expect(benSees.map(({ by, ...count }) => ({ ...count, by: new Set(by.map((giver) => giver.display_name)) }))).toEqual([
      { emoji: "❤️", count: 2, mine: true, by: new Set(["Ann", "Ben"]) },
      { emoji: "🎉", count: 1, mine: true, by: new Set(["Ben"]) },
    ]);
    const annSees = await request(ann, "GET", `/api/v1/memories/${memoryId}/reactions`);
    expect(annSees.json<ReactionList>().reactions.map(({ by: _by, ...count }) => count)).toEqual([
      { emoji: "❤️", count: 2, mine: true },
      { emoji: "🎉", count: 1, mine: false },
    ]);

    expect(await react(ann, "DELETE", memoryId, heart)).toEqual([
      { emoji: "❤️", count: 1, mine: false, by: [benGave] },
      { emoji: "🎉", count: 1, mine: false, by: [benGave] },
    ]);
    expect(await react(ann, "DELETE", memoryId, heart)).toHaveLength(2);
  });

  it.each(["x", "%E2%9D%A4%EF%B8%8F%E2%9D%A4%EF%B8%8F", encodeURIComponent("🦄"), encodeURIComponent("<script>"), "%20"])(
    "refuses the reaction %s with 400 validation_failed naming the emoji",
    async (emoji) => {
      const memoryId = await createMemory("Emoji");
      const response = await request(ann, "PUT", `/api/v1/memories/${memoryId}/reactions/${emoji}`);
      expect(response.statusCode).toBe(400);
      const error = response.json<{ code: string; details: { path: string }[] }>();
      expect(error.code).toBe("validation_failed");
      expect(error.details.map((detail) => detail.path).join(" ")).toContain("params.emoji");
      expect((await request(ann, "GET", `/api/v1/memories/${memoryId}/reactions`)).json()).toEqual({ reactions: [] });
    },
  );

  it("shows the counts on list pages and the memory at once, without moving its version", async () => {
    const memoryId = await createMemory("Counted");
    expect(await listed(memoryId)).toMatchObject({ comment_count: 0, reactions: [] });
    await comment(ben, memoryId, "One");
    await comment(ann, memoryId, "Two");
    await react(ben, "PUT", memoryId, party);
    await react(ann, "PUT", memoryId, party);
    await react(ann, "PUT", memoryId, heart);
    // The cached page moved on with each change (ADR 0030).
    const expected = {
      comment_count: 2,
      reactions: [
        { emoji: "❤️", count: 1 },
        { emoji: "🎉", count: 2 },
      ],
      version: 1,
    };
    expect(await listed(memoryId)).toMatchObject(expected);
    const detail = await request(ann, "GET", `/api/v1/memories/${memoryId}`);
    expect(detail.json<Memory>()).toMatchObject(expected);
    expect(detail.headers.etag).toBe('"v1"');
    // The version's ETag guards edits only: asked for again with it, the memory comes whole, with
    // the counts as they are now (never a 304 that would keep the old ones).
    await comment(ben, memoryId, "Three");
    const revalidated = await testApp.app.inject({
      method: "GET",
      url: `/api/v1/memories/${memoryId}`,
      headers: { ...ann.headers, "if-none-match": '"v1"' },
    });
    expect(revalidated.statusCode).toBe(200);
    expect(revalidated.json<Memory>()).toMatchObject({ comment_count: 3, version: 1 });

    const [first] = await comments(memoryId);
    await request(ben, "DELETE", `/api/v1/memories/${memoryId}/comments/${first!.id}`);
    await react(ann, "DELETE", memoryId, party);
    expect(await listed(memoryId)).toMatchObject({
      comment_count: 2,
      reactions: [
        { emoji: "❤️", count: 1 },
        { emoji: "🎉", count: 1 },
      ],
    });
  });

  it("reads a page's counts in the page's own query, however many memories it has", async () => {
    const ids = [await createMemory("Q1"), await createMemory("Q2"), await createMemory("Q3")];
    for (const id of ids) {
      await comment(ann, id, "Counted");
      await react(ben, "PUT", id, heart);
    }
    const queriesFor = async (limit: number) => {
      // A write first, so the page is built, not answered from the cache.
      await comment(ann, ids[0]!, "Moves the pages' counter");
      const before = queries;
      const response = await request(ann, "GET", `/api/v1/memories?limit=${limit}`);
      expect(response.statusCode).toBe(200);
      return queries - before;
    };
    expect(await queriesFor(3)).toBe(await queriesFor(1));
  });

  it("lists the routes and their shapes in the OpenAPI document", async () => {
    const document = (await testApp.app.inject({ method: "GET", url: "/api/openapi.json" })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    expect(Object.keys(document.paths["/api/v1/memories/{id}/comments"] ?? {})).toEqual(expect.arrayContaining(["get", "post"]));
    expect(Object.keys(document.paths["/api/v1/memories/{id}/comments/{commentId}"] ?? {})).toEqual(
      expect.arrayContaining(["patch", "delete"]),
    );
    expect(Object.keys(document.paths["/api/v1/memories/{id}/reactions/{emoji}"] ?? {})).toEqual(
      expect.arrayContaining(["put", "delete"]),
    );
    expect(JSON.stringify(document.paths["/api/v1/memories/{id}"])).toContain("comment_count");
  });

  it("deletes a memory's comments and reactions with it", async () => {
    const memoryId = await createMemory("Gone soon");
    await comment(ann, memoryId, "Bye");
    await react(ben, "PUT", memoryId, heart);
    expect((await request(ben, "DELETE", `/api/v1/memories/${memoryId}`)).statusCode).toBe(204);

    expect((await request(ann, "GET", `/api/v1/memories/${memoryId}/comments`)).statusCode).toBe(404);
    const database = openDatabase(testApp.config.database);
    try {
      const left = await Promise.all(
        (["comments", "reactions"] as const).map((table) =>
          database.db.selectFrom(table).select("memory_id").where("memory_id", "=", memoryId).execute(),
        ),
      );
      expect(left).toEqual([[], []]);
    } finally {
      await database.destroy();
    }
  });
});
