import type { MemoryPage, MemoryTimeline, Memory } from "@memory-box/contract";
import { MemoryLimits } from "@memory-box/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";

/** Issue #34: the list filtered by several tags at once (`?tag=a&tag=b`): memories carrying all of them. */
describe.each(testEngines())("filtering by several tags on %s", (engine) => {
  let testApp: TestApp;
  let ann: TestMember;
  const titles = (page: MemoryPage) => page.items.map((memory) => memory.title);

  beforeAll(async () => {
    testApp = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
    const create = async (title: string, memory_date: string, tags: string[]) => {
      const response = await testApp.app.inject({
        method: "POST",
        url: "/api/v1/memories",
        headers: ann.headers,
        payload: { title, memory_date, tags },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<Memory>();
    };
    await create("Beach in Lisbon", "2024-07-01", ["Travel", "Beach", "Family"]);
    await create("Porto weekend", "2024-06-01", ["travel", "Food"]);
    await create("Family beach day", "2023-08-15", ["beach", "family"]);
    await create("Sintra hike", "2022-05-01", ["travel", "beach"]);
  });
  afterAll(async () => {
    await testApp.close();
  });

  const get = (query: string, headers: Record<string, string> = ann.headers) =>
    testApp.app.inject({ method: "GET", url: `/api/v1/memories${query}`, headers });

  it("lists only the memories carrying every chosen tag, ignoring case and order, with the matched count", async () => {
    const both = await get("?tag=travel&tag=BEACH");
    expect(both.statusCode).toBe(200);
    const page = both.json<MemoryPage>();
    expect(titles(page)).toEqual(["Beach in Lisbon", "Sintra hike"]);
    expect(page.matched).toBe(2);
    expect(page.total).toBe(4);
    // The same filter in another order or case is the same list.
    expect(titles((await get("?tag=Beach&tag=Travel")).json<MemoryPage>())).toEqual(["Beach in Lisbon", "Sintra hike"]);
    const three = (await get("?tag=travel&tag=beach&tag=family")).json<MemoryPage>();
    expect(titles(three)).toEqual(["Beach in Lisbon"]);
    const none = (await get("?tag=food&tag=beach")).json<MemoryPage>();
    expect(none.items).toEqual([]);
    expect(none.matched).toBe(0);
  });

  it("pages through several tags by cursor and combines them with a search", async () => {
    const first = (await get("?tag=beach&tag=travel&limit=1")).json<MemoryPage>();
    expect(titles(first)).toEqual(["Beach in Lisbon"]);
    const second = (
      await get(`?tag=beach&tag=travel&limit=1&cursor=${encodeURIComponent(first.next_cursor!)}`)
    ).json<MemoryPage>();
    expect(titles(second)).toEqual(["Sintra hike"]);
    expect(second.next_cursor).toBeNull();
    expect(titles((await get("?tag=beach&tag=travel&q=sintra")).json<MemoryPage>())).toEqual(["Sintra hike"]);
  });

  it("counts the months of several tags for the timeline", async () => {
    const response = await testApp.app.inject({
      method: "GET",
      url: "/api/v1/memories/timeline?tag=beach&tag=family",
      headers: ann.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<MemoryTimeline>().months).toEqual([
      { month: "2024-07", count: 1 },
      { month: "2023-08", count: 1 },
    ]);
  });

  it("sees a change at once: a tag added to a memory brings it into the filtered list", async () => {
    const porto = (await get("?tag=food")).json<MemoryPage>().items[0]!;
    expect(titles((await get("?tag=food&tag=beach")).json<MemoryPage>())).toEqual([]);
    const edited = await testApp.app.inject({
      method: "PUT",
      url: `/api/v1/memories/${porto.id}`,
      headers: ann.headers,
      payload: { title: porto.title, memory_date: porto.memory_date, tags: ["travel", "food", "beach"] },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(titles((await get("?tag=food&tag=beach")).json<MemoryPage>())).toEqual(["Porto weekend"]);
  });

  it("refuses too many tags, too long a tag, and a tag that is not text, naming the field", async () => {
    const many = Array.from({ length: MemoryLimits.maxTags + 1 }, (_, index) => `tag=t${index}`).join("&");
    for (const query of [`?${many}`, `?tag=${"x".repeat(MemoryLimits.tagMaxLength * 2 + 1)}`, `?tag[a]=b`]) {
      const response = await get(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({ code: "validation_failed" });
      expect(response.body, query).toContain("tag");
    }
  });

  it("answers a signed-out visitor and a forged token with 401", async () => {
    expect((await get("?tag=travel&tag=beach", {})).statusCode).toBe(401);
    expect((await get("?tag=travel&tag=beach", { authorization: "Bearer forged.token.here" })).statusCode).toBe(401);
  });
});
