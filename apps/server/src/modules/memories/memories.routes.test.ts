import type { Memory, MemoryPage } from "@memory-box/contract";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";

describe.each(testEngines())("memories API on %s", (engine) => {
  let testApp: TestApp;
  let ann: TestMember;
  let ben: TestMember;
  let queries = 0;

  beforeAll(async () => {
    testApp = await createTestApp(engine, {
      env: { AUTH_RATE_LIMITS: "false" },
      onQuery: () => (queries += 1),
    });
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
    ben = await createMember(testApp, "ben@memory-box.test");
  });
  afterAll(() => testApp.close());

  const request = (
    member: TestMember | null,
    method: "GET" | "POST" | "PUT" | "DELETE",
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    testApp.app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
      headers: { ...(member ? member.headers : {}), ...headers },
    });
  const create = async (member: TestMember, body: Record<string, unknown>) => {
    const response = await request(member, "POST", "/api/v1/memories", body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Memory>();
  };
  const list = async (query = "") => {
    const response = await request(ann, "GET", `/api/v1/memories${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<MemoryPage>();
  };

  describe("who may call", () => {
    const routes: ["GET" | "POST" | "PUT" | "DELETE", string][] = [
      ["GET", "/api/v1/memories"],
      ["POST", "/api/v1/memories"],
      ["GET", "/api/v1/memories/6f1b2c3d-0000-4000-8000-000000000000"],
      ["PUT", "/api/v1/memories/6f1b2c3d-0000-4000-8000-000000000000"],
      ["DELETE", "/api/v1/memories/6f1b2c3d-0000-4000-8000-000000000000"],
      ["GET", "/api/v1/tags"],
    ];
    it.each(routes)("%s %s needs a signed-in member", async (method, url) => {
      const anonymous = await request(null, method, url, method === "POST" || method === "PUT" ? { title: "x" } : undefined);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toMatchObject({ code: "not_authenticated" });
      const forged = await request(null, method, url, undefined, { authorization: "Bearer not.a.jwt" });
      expect(forged.statusCode).toBe(401);
      expect(forged.json()).toMatchObject({ code: "bad_jwt" });
    });

    it("refuses a token whose session has ended, on the very next request", async () => {
      const member = await createMember(testApp, "carol@memory-box.test");
      expect((await request(member, "GET", "/api/v1/memories")).statusCode).toBe(200);
      const logout = await testApp.app.inject({ method: "POST", url: "/auth/v1/logout?scope=local", headers: member.headers });
      expect(logout.statusCode).toBe(204);
      const after = await request(member, "GET", "/api/v1/memories");
      expect(after.statusCode).toBe(401);
      expect(after.json()).toMatchObject({ code: "session_not_found" });
    });

    it("refuses an ended session among requests that share one member check, and answers the others", async () => {
      const member = await createMember(testApp, "dora@memory-box.test");
      const logout = await testApp.app.inject({ method: "POST", url: "/auth/v1/logout?scope=local", headers: member.headers });
      expect(logout.statusCode).toBe(204);
      await Promise.all([list("?limit=3"), request(ben, "GET", "/api/v1/memories?limit=3")]);
      queries = 0;
      const [annAnswer, endedAnswer, benAnswer] = await Promise.all(
        [ann, member, ben].map((caller) => request(caller, "GET", "/api/v1/memories?limit=3")),
      );
      expect([annAnswer?.statusCode, endedAnswer?.statusCode, benAnswer?.statusCode]).toEqual([200, 401, 200]);
      expect(endedAnswer?.json()).toMatchObject({ code: "session_not_found" });
      // One member check for the three sessions, then the ended one's own lookup of its account.
      expect(queries).toBe(2);
    });
  });

  describe("validation", () => {
    it("stores what the spec says: trimmed title, empty description and date as null, tags cleaned", async () => {
      const memory = await create(ann, {
        title: "  Picnic  ",
        content: "   ",
        memory_date: "",
        tags: [" sun ", "", "Sun", "park"],
      });
      expect(memory).toMatchObject({
        title: "Picnic",
        content: null,
        memory_date: null,
        tags: ["sun", "park"],
        photo_urls: null,
        photos: [],
        user_id: ann.userId,
        profiles: { display_name: "Ann" },
        version: 1,
      });
      const noTags = await create(ann, { title: "Quiet day", tags: [" ", ""] });
      expect(noTags.tags).toBeNull();
    });

    it.each([
      [{ title: "" }, "body.title"],
      [{ title: "   " }, "body.title"],
      [{ title: "x".repeat(201) }, "body.title"],
      // Issue #34 item 3: the sizes the issue found accepted.
      [{ title: "x".repeat(6_400) }, "body.title"],
      [{ title: "ok", content: "x".repeat(200_000) }, "body.content"],
      [{ title: "ok", content: "x".repeat(20_001) }, "body.content"],
      [{ title: 42 }, "body.title"],
      [{ title: "ok", memory_date: "2024-02-30" }, "body.memory_date"],
      [{ title: "ok", memory_date: "yesterday" }, "body.memory_date"],
      // Issue #34 item 2: years 1000 to next year only.
      [{ title: "ok", memory_date: "0001-01-01" }, "body.memory_date"],
      [{ title: "ok", memory_date: "0999-12-31" }, "body.memory_date"],
      [{ title: "ok", memory_date: `${new Date().getFullYear() + 2}-01-01` }, "body.memory_date"],
      [{ title: "ok", memory_date: "9999-12-31" }, "body.memory_date"],
      [{ title: "ok", tags: "a,b" }, "body.tags"],
      [{ title: "ok", user_id: "someone-else" }, "body"],
      [{ title: "ok", photo_ids: ["not-a-uuid"] }, "body.photo_ids.0"],
    ])("rejects %j with 400 naming %s, and writes nothing", async (body, path) => {
      const before = (await list()).total;
      const response = await request(ann, "POST", "/api/v1/memories", body);
      expect(response.statusCode).toBe(400);
      const error = response.json<{ code: string; details: { path: string }[] }>();
      expect(error.code).toBe("validation_failed");
      expect(error.details.map((detail) => detail.path).join(" ")).toContain(path);
      expect((await list()).total).toBe(before);
    });

    it("takes the first and last days a memory may have, says the rule in the member's language, and refuses an edit out of range", async () => {
      const last = `${new Date().getFullYear() + 1}-12-31`;
      expect((await create(ann, { title: "The oldest", memory_date: "1000-01-01" })).memory_date).toBe("1000-01-01");
      const planned = await create(ann, { title: "Planned", memory_date: last });
      expect(planned.memory_date).toBe(last);

      const refused = await request(ann, "POST", "/api/v1/memories", { title: "x", memory_date: "0001-01-01" });
      expect(refused.json<{ details: { message: string }[] }>().details[0]?.message).toBe(
        "must be a date from the year 1000 to the end of next year",
      );
      const german = await request(
        ann,
        "POST",
        "/api/v1/memories",
        { title: "x", memory_date: "0001-01-01" },
        { "accept-language": "de" },
      );
      expect(german.json<{ details: { message: string }[] }>().details[0]?.message).toBe(
        "muss ein Datum zwischen dem Jahr 1000 und dem Ende des nächsten Jahres sein",
      );
      const edit = await request(ann, "PUT", `/api/v1/memories/${planned.id}`, { title: "Planned", memory_date: "2999-01-01" });
      expect(edit.statusCode).toBe(400);
    });

    it("answers unknown and malformed ids with 404 and 400", async () => {
      expect((await request(ann, "GET", "/api/v1/memories/6f1b2c3d-0000-4000-8000-000000000000")).json()).toMatchObject({
        code: "memory_not_found",
      });
      expect((await request(ann, "GET", "/api/v1/memories/42")).statusCode).toBe(400);
      expect(
        (await request(ann, "PUT", "/api/v1/memories/6f1b2c3d-0000-4000-8000-000000000000", { title: "x" })).statusCode,
      ).toBe(404);
      expect((await request(ann, "DELETE", "/api/v1/memories/6f1b2c3d-0000-4000-8000-000000000000")).statusCode).toBe(404);
    });

    it("refuses a photo id that was never uploaded", async () => {
      const response = await request(ann, "POST", "/api/v1/memories", {
        title: "x",
        photo_ids: ["6f1b2c3d-0000-4000-8000-000000000000"],
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: "unknown_photo" });
    });
  });

  describe("the shared collection", () => {
    let shared: Memory;
    beforeAll(async () => {
      shared = await create(ann, {
        title: "Lisbon trip",
        content: "Trams and custard tarts",
        memory_date: "2023-06-01",
        tags: ["travel"],
      });
    });

    it("lets every member edit, keeps the author and records the editor", async () => {
      const response = await request(ben, "PUT", `/api/v1/memories/${shared.id}`, {
        title: "Lisbon trip!",
        content: "Trams",
        memory_date: "2023-06-02",
        tags: ["travel", "portugal"],
      });
      expect(response.statusCode, response.body).toBe(200);
      const edited = response.json<Memory>();
      expect(edited).toMatchObject({
        title: "Lisbon trip!",
        user_id: ann.userId,
        updated_by: ben.userId,
        version: 2,
        tags: ["travel", "portugal"],
      });
      expect(response.headers.etag).toBe('"v2"');
      // Named, so a member whose save was refused (409) can be told who changed the memory.
      expect(edited.profiles).toEqual({ display_name: "Ann" });
      expect(edited.updated_by_profile).toEqual({ display_name: "ben" });
      const listed = (await list()).items.find((memory) => memory.id === shared.id);
      expect(listed?.updated_by_profile).toEqual({ display_name: "ben" });
      shared = edited;
    });

    it("refuses to overwrite an edit made in another tab", async () => {
      const stale = await request(
        ann,
        "PUT",
        `/api/v1/memories/${shared.id}`,
        { title: "From an old tab" },
        { "if-match": '"v1"' },
      );
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toMatchObject({ code: "memory_changed" });
      const fresh = await request(
        ann,
        "PUT",
        `/api/v1/memories/${shared.id}`,
        { title: "Lisbon, again", tags: ["travel"] },
        { "if-match": `"v${shared.version}"` },
      );
      expect(fresh.statusCode).toBe(200);
      expect((await request(ann, "GET", `/api/v1/memories/${shared.id}`)).json()).toMatchObject({
        title: "Lisbon, again",
        version: shared.version + 1,
      });
    });

    it("lets another member delete", async () => {
      const doomed = await create(ann, { title: "To be deleted" });
      expect((await request(ben, "DELETE", `/api/v1/memories/${doomed.id}`)).statusCode).toBe(204);
      expect((await request(ann, "GET", `/api/v1/memories/${doomed.id}`)).statusCode).toBe(404);
    });
  });

  describe("listing, search and tags", () => {
    const titles: string[] = [];
    beforeAll(async () => {
      // Created in this order; listing is by date (undated last), then newest created first.
      for (const [title, memory_date, tags, content] of [
        ["Zoo day", "2024-05-01", ["Family"], "Giraffes!"],
        ["First snow", "2022-12-10", ["winter", "family"], "100% cold_hands"],
        ["Undated note", null, ["misc"], null],
        ["Beach", "2024-05-01", ["summer"], "Sand everywhere"],
        ["Another undated", null, [], "Hello 'quotes' and \"double\""],
      ] as const) {
        await create(ben, { title: `Listing ${title}`, memory_date, tags: [...tags], content });
        titles.push(`Listing ${title}`);
      }
    });

    it("orders by date newest first with undated last, then newest created", async () => {
      const page = await list("?q=listing&limit=100");
      expect(page.items.map((memory) => memory.title)).toEqual([
        "Listing Beach",
        "Listing Zoo day",
        "Listing First snow",
        "Listing Another undated",
        "Listing Undated note",
      ]);
      expect(page.matched).toBe(5);
      expect(page.total).toBeGreaterThanOrEqual(5);
    });

    it("walks every page with the cursor, without repeats", async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: MemoryPage = await list(`?q=listing&limit=2${cursor ? `&cursor=${cursor}` : ""}`);
        expect(page.items.length).toBeLessThanOrEqual(2);
        seen.push(...page.items.map((memory) => memory.title));
        cursor = page.next_cursor;
      } while (cursor);
      expect(seen).toHaveLength(5);
      expect(new Set(seen).size).toBe(5);
    });

    it("rejects a forged cursor", async () => {
      const response = await request(
        ann,
        "GET",
        `/api/v1/memories?cursor=${Buffer.from("'; drop table memories; --").toString("base64url")}`,
      );
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: "invalid_cursor" });
    });

    it.each([
      ["giraffe", ["Listing Zoo day"]],
      ["GIRAFFE", ["Listing Zoo day"]],
      ["sand", ["Listing Beach"]],
      ["winter", ["Listing First snow"]],
      ["100%", ["Listing First snow"]],
      ["d_h", ["Listing First snow"]],
      ['"double"', ["Listing Another undated"]],
      ["'quotes'", ["Listing Another undated"]],
      ["zo", ["Listing Zoo day"]],
      ["nothing like this", []],
    ])("finds %j in title, description or tags", async (q, expected) => {
      const page = await list(`?q=${encodeURIComponent(q)}`);
      expect(page.items.map((memory) => memory.title).filter((title) => title.startsWith("Listing"))).toEqual(expected);
    });

    it("filters by tag ignoring case, and counts matches against the total", async () => {
      const page = await list("?tag=FAMILY");
      expect(page.items.map((memory) => memory.title)).toEqual(["Listing Zoo day", "Listing First snow"]);
      expect(page.matched).toBe(2);
      expect(page.total).toBe((await list()).total);
      expect((await list("?tag=family&q=snow")).items.map((memory) => memory.title)).toEqual(["Listing First snow"]);
    });

    it("lists every tag with its count, most used first", async () => {
      const response = await request(ann, "GET", "/api/v1/tags");
      const { tags } = response.json<{ tags: { tag: string; count: number }[] }>();
      expect(tags[0]?.count).toBeGreaterThanOrEqual(tags.at(-1)?.count ?? 0);
      expect(tags.find((entry) => entry.tag.toLowerCase() === "family")?.count).toBe(2);
    });

    it("runs the same number of queries whatever the page size", async () => {
      const measure = async (limit: number) => {
        queries = 0;
        await list(`?limit=${limit}`);
        return queries;
      };
      expect(await measure(1)).toBe(await measure(100));
    });

    it("answers a page asked for again, with nothing changed, from one query: the member check, which reads the collection's generation too", async () => {
      const first = await list("?limit=7");
      queries = 0;
      expect(await list("?limit=7")).toEqual(first);
      expect(queries).toBe(1);
    });

    it("gzips a page for clients that accept it, and only for them", async () => {
      const plain = await request(ann, "GET", "/api/v1/memories?limit=100");
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.headers.vary).toContain("accept-encoding");
      expect(plain.rawPayload.length).toBeGreaterThan(1024);
      const zipped = await request(ann, "GET", "/api/v1/memories?limit=100", undefined, {
        "accept-encoding": "gzip, deflate, br, zstd",
      });
      expect(zipped.headers["content-encoding"]).toBe("gzip");
      expect(zipped.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      expect(JSON.parse(gunzipSync(zipped.rawPayload).toString("utf8"))).toEqual(plain.json());
      const refused = await request(ann, "GET", "/api/v1/memories?limit=100", undefined, {
        "accept-encoding": "gzip;q=0, identity",
      });
      expect(refused.headers["content-encoding"]).toBeUndefined();
      expect(refused.json()).toEqual(plain.json());
    });

    it.each(["?limit=0", "?limit=101", "?limit=x", "?sort=title"])("rejects the query %s", async (query) => {
      expect((await request(ann, "GET", `/api/v1/memories${query}`)).statusCode).toBe(400);
    });
  });
});
