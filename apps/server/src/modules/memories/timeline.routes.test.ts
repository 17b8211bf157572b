import type { MemoryPage, MemoryTimeline } from "@memory-box/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";

// The timeline beside the list (issue #16 item 2): how many memories each month holds for the
// list's search and tag filter, and the list started at a month (`from`), then paged on as ever.

describe.each(testEngines())("the timeline on %s", (engine) => {
  let testApp: TestApp;
  let ann: TestMember;

  const get = async <T>(url: string) => {
    const response = await testApp.app.inject({ method: "GET", url, headers: ann.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  };
  const create = async (title: string, memory_date: string | null, tags: string[] = []) => {
    const response = await testApp.app.inject({
      method: "POST",
      url: "/api/v1/memories",
      headers: ann.headers,
      payload: { title, memory_date, tags },
    });
    expect(response.statusCode).toBe(201);
  };
  const titles = (page: MemoryPage) => page.items.map((memory) => memory.title);

  beforeAll(async () => {
    testApp = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
    await create("Lake swim", "2024-06-30", ["Summer"]);
    await create("Lake picnic", "2024-06-01", ["Summer"]);
    await create("Mountain hike", "2024-05-03", ["Summer"]);
    await create("New year's eve", "2023-12-31", ["Winter"]);
    await create("Lake in winter", "2023-01-15", ["Winter"]);
    await create("A lake, some day", null);
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it("counts the memories of each month, newest first, and the undated ones", async () => {
    expect(await get<MemoryTimeline>("/api/v1/memories/timeline")).toEqual({
      months: [
        { month: "2024-06", count: 2 },
        { month: "2024-05", count: 1 },
        { month: "2023-12", count: 1 },
        { month: "2023-01", count: 1 },
      ],
      undated: 1,
    });
  });

  it("counts only what the search and the tag filter match", async () => {
    expect(await get<MemoryTimeline>("/api/v1/memories/timeline?q=LAKE")).toEqual({
      months: [
        { month: "2024-06", count: 2 },
        { month: "2023-01", count: 1 },
      ],
      undated: 1,
    });
    expect(await get<MemoryTimeline>("/api/v1/memories/timeline?tag=winter")).toEqual({
      months: [
        { month: "2023-12", count: 1 },
        { month: "2023-01", count: 1 },
      ],
      undated: 0,
    });
    expect(await get<MemoryTimeline>("/api/v1/memories/timeline?q=lake&tag=Winter")).toEqual({
      months: [{ month: "2023-01", count: 1 }],
      undated: 0,
    });
  });

  it("starts the list at a month's newest memory, and its cursor pages on to the undated ones", async () => {
    const first = await get<MemoryPage>("/api/v1/memories?from=2024-05&limit=2");
    expect(titles(first)).toEqual(["Mountain hike", "New year's eve"]);
    expect(first).toMatchObject({ matched: 6, total: 6 });
    const next = await get<MemoryPage>(`/api/v1/memories?cursor=${first.next_cursor}&limit=2`);
    expect(titles(next)).toEqual(["Lake in winter", "A lake, some day"]);
    expect(next.next_cursor).toBeNull();
    expect(titles(await get<MemoryPage>("/api/v1/memories?from=undated"))).toEqual(["A lake, some day"]);
    // A month with none starts at the next older memory.
    expect(titles(await get<MemoryPage>("/api/v1/memories?from=2024-02&limit=1"))).toEqual(["New year's eve"]);
  });

  it("starts a search's and a tag's list at a month too", async () => {
    expect(titles(await get<MemoryPage>("/api/v1/memories?q=lake&from=2024-05"))).toEqual(["Lake in winter", "A lake, some day"]);
    expect(titles(await get<MemoryPage>("/api/v1/memories?tag=Summer&from=2024-06&limit=1"))).toEqual(["Lake swim"]);
  });

  it("follows changes at once", async () => {
    await create("Another May day", "2024-05-20", ["Summer"]);
    const timeline = await get<MemoryTimeline>("/api/v1/memories/timeline?tag=summer");
    expect(timeline.months).toEqual([
      { month: "2024-06", count: 2 },
      { month: "2024-05", count: 2 },
    ]);
  });

  it("refuses a month that is not one, and anyone signed out", async () => {
    for (const from of ["2024-13", "2024-5", "24-05", "later"]) {
      const response = await testApp.app.inject({ method: "GET", url: `/api/v1/memories?from=${from}`, headers: ann.headers });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: "validation_failed" });
    }
    for (const url of ["/api/v1/memories/timeline", "/api/v1/memories?from=2024-05"]) {
      expect((await testApp.app.inject({ method: "GET", url })).statusCode).toBe(401);
    }
  });
});
