import type { Memory, MemoryPage, TagList } from "@memory-box/contract";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMember, type TestMember } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";

/**
 * Issue #34: owners rename a tag on every memory, or merge it into another by giving it that
 * tag's name; members and strangers cannot.
 */
describe.each(testEngines())("renaming and merging tags on %s", (engine) => {
  let testApp: TestApp;
  let owner: TestMember;
  let member: TestMember;

  beforeAll(async () => {
    testApp = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
    // The first member of an instance is its owner.
    owner = await createMember(testApp, "owner@memory-box.test", "Olivia");
    member = await createMember(testApp, "member@memory-box.test", "Max");
  });
  afterAll(async () => {
    await testApp.close();
  });

  const create = async (title: string, tags: string[]) => {
    const response = await testApp.app.inject({
      method: "POST",
      url: "/api/v1/memories",
      headers: member.headers,
      payload: { title, tags },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Memory>();
  };
  const read = async (id: string) =>
    (await testApp.app.inject({ method: "GET", url: `/api/v1/memories/${id}`, headers: owner.headers })).json<Memory>();
  const rename = (name: string, payload: unknown, headers: Record<string, string> = owner.headers) =>
    testApp.app.inject({
      method: "PUT",
      url: `/api/v1/tags/${encodeURIComponent(name)}`,
      headers,
      payload: payload as object,
    });
  const tagList = async () =>
    (await testApp.app.inject({ method: "GET", url: "/api/v1/tags", headers: owner.headers })).json<TagList>().tags;

  let seq = 0;
  const unique = (word: string) => `${word}${engine}${++seq}`;

  beforeEach(() => {
    seq += 10;
  });

  it("renames a tag on every memory carrying it (case ignored), each saved as an edit", async () => {
    const [old, fresh] = [unique("holidy"), unique("holiday")];
    const a = await create("A", [old.toUpperCase(), "sea"]);
    const b = await create("B", ["sun", old]);

    const response = await rename(old, { name: ` ${fresh} ` });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ name: fresh, memories: 2 });

    const [afterA, afterB] = [await read(a.id), await read(b.id)];
    expect(afterA.tags).toEqual([fresh, "sea"]);
    expect(afterB.tags).toEqual(["sun", fresh]);
    expect(afterA.version).toBe(a.version + 1);
    expect(afterA.updated_by).toBe(owner.userId);
    const tags = await tagList();
    expect(tags.find(({ tag }) => tag === fresh)?.count).toBe(2);
    expect(tags.some(({ tag }) => tag.toLowerCase() === old)).toBe(false);
    // The tag filter and the search find them by the new name at once.
    const filtered = await testApp.app.inject({ method: "GET", url: `/api/v1/memories?tag=${fresh}`, headers: owner.headers });
    expect(filtered.json<MemoryPage>().matched).toBe(2);
    const searched = await testApp.app.inject({ method: "GET", url: `/api/v1/memories?q=${fresh}`, headers: owner.headers });
    expect(
      searched
        .json<MemoryPage>()
        .items.map((memory) => memory.title)
        .sort(),
    ).toEqual(["A", "B"]);
  });

  it("merges into an existing tag: a memory carrying both keeps one, where the first stood", async () => {
    const [kids, children] = [unique("kids"), unique("Children")];
    const both = await create("Both", [kids, "park", children]);
    const onlyKids = await create("Only kids", [kids]);
    const onlyChildren = await create("Only children", [children]);

    const response = await rename(kids.toUpperCase(), { name: children.toLowerCase() });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ name: children.toLowerCase(), memories: 2 });

    expect((await read(both.id)).tags).toEqual([children.toLowerCase(), "park"]);
    expect((await read(onlyKids.id)).tags).toEqual([children.toLowerCase()]);
    // A memory without the renamed tag is untouched.
    const untouched = await read(onlyChildren.id);
    expect(untouched.tags).toEqual([children]);
    expect(untouched.version).toBe(onlyChildren.version);
    const filtered = await testApp.app.inject({ method: "GET", url: `/api/v1/memories?tag=${children}`, headers: owner.headers });
    expect(filtered.json<MemoryPage>().matched).toBe(3);
  });

  it("refuses a member with 403 owner_only, and changes nothing", async () => {
    const tag = unique("mine");
    const memory = await create("Mine", [tag]);
    const response = await rename(tag, { name: "theirs" }, member.headers);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: "owner_only" });
    expect((await read(memory.id)).tags).toEqual([tag]);
  });

  it("refuses the signed out and a forged token with 401", async () => {
    expect((await rename("sea", { name: "ocean" }, {})).statusCode).toBe(401);
    expect((await rename("sea", { name: "ocean" }, { authorization: "Bearer not.a.token" })).statusCode).toBe(401);
  });

  it("answers 404 for a tag no memory carries", async () => {
    const response = await rename(unique("nowhere"), { name: "somewhere" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: "not_found" });
  });

  it("refuses a bad new name with 400 naming the field: empty, too long, a comma, not text, extra fields", async () => {
    const tag = unique("keep");
    await create("Keep", [tag]);
    for (const payload of [
      { name: "  " },
      { name: "x".repeat(51) },
      { name: "a, b" },
      { name: 42 },
      { name: ["a"] },
      {},
      { name: "ok", extra: true },
    ]) {
      const response = await rename(tag, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({ code: "validation_failed" });
      expect(response.body, JSON.stringify(payload)).toMatch(/name|extra|body/);
    }
    // A path past Fastify's parameter length (100) is refused before the route: 414.
    expect((await rename("y".repeat(101), { name: "fine" })).statusCode).toBe(414);
    expect((await tagList()).some(({ tag: name }) => name === tag)).toBe(true);
  });
});
