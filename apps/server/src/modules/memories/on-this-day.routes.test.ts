import type { OnThisDay } from "@memory-box/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";
import { maxOnThisDayMemories } from "./memories.service";

// "On this day" (issue #16 item 1): memories of the same days in earlier years, for the member's
// own calendar date, grouped by how many years ago.

describe.each(testEngines())("GET /api/v1/memories/on-this-day on %s", (engine) => {
  let testApp: TestApp;
  let ann: TestMember;
  const ids = new Map<string, string>();

  const create = async (title: string, memory_date: string | null) => {
    const response = await testApp.app.inject({
      method: "POST",
      url: "/api/v1/memories",
      headers: ann.headers,
      payload: { title, memory_date },
    });
    expect(response.statusCode).toBe(201);
    ids.set(title, response.json<{ id: string }>().id);
  };
  const onThisDay = async (date: string) => {
    const response = await testApp.app.inject({
      method: "GET",
      url: `/api/v1/memories/on-this-day?date=${date}`,
      headers: ann.headers,
    });
    expect(response.statusCode).toBe(200);
    return response.json<OnThisDay>();
  };
  const titles = (answer: OnThisDay) =>
    answer.groups.map((group) => [group.years_ago, group.memories.map((memory) => memory.title)]);

  beforeAll(async () => {
    testApp = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
    await create("A year ago today", "2025-11-26");
    await create("Two years ago, two days before", "2024-11-24");
    await create("Five years ago, two days after", "2021-11-28");
    await create("Five years ago, but the week after", "2021-12-05");
    await create("Earlier this week", "2026-11-24");
    await create("Undated", null);
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it("groups the same days of earlier years, the nearest year first, and leaves out this year's and undated ones", async () => {
    const answer = await onThisDay("2026-11-26");
    expect(answer).toMatchObject({ date: "2026-11-26", window_days: 3 });
    expect(titles(answer)).toEqual([
      [1, ["A year ago today"]],
      [2, ["Two years ago, two days before"]],
      [5, ["Five years ago, two days after"]],
    ]);
    // Each memory as the list shows it: its id, author and fields.
    expect(answer.groups[0]!.memories[0]).toMatchObject({ id: ids.get("A year ago today"), profiles: { display_name: "Ann" } });
  });

  it("answers for the member's own date: a day later somewhere else brings other memories", async () => {
    expect(titles(await onThisDay("2026-11-30"))).toEqual([[5, ["Five years ago, two days after"]]]);
    expect(titles(await onThisDay("2026-06-01"))).toEqual([]);
  });

  it("follows changes to the collection at once", async () => {
    await onThisDay("2026-11-26");
    await create("Three years ago today", "2023-11-26");
    expect(titles(await onThisDay("2026-11-26")).map(([years]) => years)).toEqual([1, 2, 3, 5]);
  });

  it("shows the newest 100 when the days hold more", async () => {
    // 16 years of 7 days each (12–18 March): 112 memories; the oldest 12 are left out.
    const dates: string[] = [];
    for (let year = 2010; year <= 2025; year += 1) for (let day = 12; day <= 18; day += 1) dates.push(`${year}-03-${day}`);
    for (const date of dates) await create(`Spring ${date}`, date);
    const answer = await onThisDay("2026-03-15");
    const shown = answer.groups.flatMap((group) => group.memories.map((memory) => memory.memory_date));
    expect(shown).toHaveLength(maxOnThisDayMemories);
    expect(shown).toEqual(dates.toReversed().slice(0, maxOnThisDayMemories));
  });

  it("refuses a date that is not one, and anyone signed out", async () => {
    for (const date of ["2026-02-30", "yesterday", ""]) {
      const response = await testApp.app.inject({
        method: "GET",
        url: `/api/v1/memories/on-this-day?date=${date}`,
        headers: ann.headers,
      });
      expect(response.statusCode).toBe(400);
    }
    const signedOut = await testApp.app.inject({ method: "GET", url: "/api/v1/memories/on-this-day?date=2026-11-26" });
    expect(signedOut.statusCode).toBe(401);
  });
});
