import type { MemoryNeighbours } from "@memory-box/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";

// The detail page's previous and next memory (issue #16 item 2): the list's own order, newest first.

describe.each(testEngines())("GET /api/v1/memories/:id/neighbours on %s", (engine) => {
  let testApp: TestApp;
  let ann: TestMember;
  const ids: string[] = [];
  let statements: string[] = [];

  const neighbours = (id: string, member: TestMember | null = ann) =>
    testApp.app.inject({ method: "GET", url: `/api/v1/memories/${id}/neighbours`, headers: member?.headers ?? {} });

  beforeAll(async () => {
    testApp = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" }, onQuery: (sql) => statements.push(sql) });
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
    // Created out of date order: the list (and so the neighbours) go by date, newest first, undated last.
    for (const [title, memory_date] of [
      ["Middle", "2023-05-01"],
      ["Undated", null],
      ["Newest", "2024-01-01"],
      ["Oldest", "2020-07-14"],
    ] as const) {
      const response = await testApp.app.inject({
        method: "POST",
        url: "/api/v1/memories",
        headers: ann.headers,
        payload: { title, memory_date },
      });
      ids.push(response.json<{ id: string }>().id);
    }
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it("names the memories before and after, in the list's order, and none past either end", async () => {
    const list = await testApp.app.inject({ method: "GET", url: "/api/v1/memories", headers: ann.headers });
    const order = list.json<{ items: { title: string }[] }>().items.map((item) => item.title);
    expect(order).toEqual(["Newest", "Middle", "Oldest", "Undated"]);

    const middle = (await neighbours(ids[0]!)).json<MemoryNeighbours>();
    expect(middle.previous).toMatchObject({ title: "Newest", memory_date: "2024-01-01" });
    expect(middle.next).toMatchObject({ title: "Oldest", memory_date: "2020-07-14" });
    expect((await neighbours(ids[2]!)).json<MemoryNeighbours>()).toMatchObject({ previous: null, next: { title: "Middle" } });
    expect((await neighbours(ids[1]!)).json<MemoryNeighbours>()).toMatchObject({ previous: { title: "Oldest" }, next: null });
  });

  it("reads only the memory's sort key, not the memory with its tags and photos", async () => {
    statements = [];
    expect((await neighbours(ids[0]!)).statusCode).toBe(200);
    // The member check, the sort key, and one read either side of it.
    expect(statements).toHaveLength(4);
    expect(statements[1]).toMatch(/^select "sort_key" from "memories" where "id" = /);
    expect(statements.filter((statement) => /memory_tags|photos/.test(statement))).toEqual([]);
  });

  it("answers 404 for a memory that is not there, 400 for an id that is not one, 401 signed out", async () => {
    expect((await neighbours("00000000-0000-4000-8000-000000000000")).statusCode).toBe(404);
    expect((await neighbours("not-an-id")).statusCode).toBe(400);
    expect((await neighbours(ids[0]!, null)).statusCode).toBe(401);
  });
});
