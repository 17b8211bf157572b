import type { Memory, MemoryPage, MemoryTimeline, OnThisDay } from "@memory-box/contract";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMember, type TestMember } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";

// A comment or a reaction changes the counts a card shows, not which memories a search or tag
// matches nor how many a month holds (ADR 0030, 0010): the list pages that show the counts are
// built again at once, the kept searches, matched counts and timelines are not.

/** A search's condition (the FTS5 table on SQLite, the folded text on both). */
const searchStatement = /memories_search|search_text like/;
/** The timeline's read of the months: the kept counts without a filter, the sort key index grouped with one. */
const monthCountsStatement = /from "memory_months"|substr\((?:memories|memory_tags)\.sort_key, 1, 7\)/;
/** A tag filter's count: the kept count of one tag, or its index entries. */
const tagCountStatement = /from "memory_tag_counts"|select count\(\*\) as "count" from "memory_tags"/;

describe.each(testEngines())("comments and reactions against the listing cache on %s", (engine) => {
  let testApp: TestApp;
  let ann: TestMember;
  let statements: string[] = [];
  let lighthouse: string;

  const get = async <T>(url: string) => {
    const response = await testApp.app.inject({ method: "GET", url, headers: ann.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  };
  /** The answer, and the statements the server ran for it. */
  const measured = async <T>(url: string) => {
    statements = [];
    const answer = await get<T>(url);
    return { answer, ran: [...statements] };
  };
  const create = async (title: string, memory_date: string | null, tags: string[] = []) => {
    const response = await testApp.app.inject({
      method: "POST",
      url: "/api/v1/memories",
      headers: ann.headers,
      payload: { title, memory_date, tags },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Memory>().id;
  };
  const respond = async () => {
    const comment = await testApp.app.inject({
      method: "POST",
      url: `/api/v1/memories/${lighthouse}/comments`,
      headers: ann.headers,
      payload: { body: "The wind!" },
    });
    expect(comment.statusCode, comment.body).toBe(201);
    const reaction = await testApp.app.inject({
      method: "PUT",
      url: `/api/v1/memories/${lighthouse}/reactions/${encodeURIComponent("❤️")}`,
      headers: ann.headers,
    });
    expect(reaction.statusCode, reaction.body).toBe(200);
  };
  const shown = (page: MemoryPage) => page.items.find((memory) => memory.id === lighthouse);

  beforeAll(async () => {
    testApp = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" }, onQuery: (sql) => statements.push(sql) });
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
    lighthouse = await create("Lighthouse walk", "2024-05-01", ["Coast"]);
    await create("Lighthouse keeper", "2023-02-01", ["Coast"]);
    await create("Picnic", null);
  });
  afterAll(async () => {
    await testApp?.close();
  });

  // Each case starts after a change to the memories, with nothing kept for what it asks.
  let unrelated = 0;
  beforeEach(async () => {
    await create(`Unrelated ${(unrelated += 1)}`, "2020-01-01");
  });

  it("keeps a search's matches: the page after a comment is read by primary key, with the new counts", async () => {
    const counted = shown(await get<MemoryPage>("/api/v1/memories?q=LIGHTHOUSE"))!.comment_count;
    await respond();

    const { answer, ran } = await measured<MemoryPage>("/api/v1/memories?q=lighthouse");
    expect(ran.filter((statement) => searchStatement.test(statement))).toEqual([]);
    // The member check, then the page's rows by primary key (with their counts).
    expect(ran).toHaveLength(2);
    expect(answer.matched).toBe(2);
    expect(shown(answer)).toMatchObject({ comment_count: counted + 1, reactions: [{ emoji: "❤️", count: 1 }] });
  });

  it("keeps the timeline: after a comment it is answered without reading the months again", async () => {
    const before = await get<MemoryTimeline>("/api/v1/memories/timeline");
    const tagged = await get<MemoryTimeline>("/api/v1/memories/timeline?tag=coast");
    await respond();

    for (const [url, expected] of [
      ["/api/v1/memories/timeline", before],
      ["/api/v1/memories/timeline?tag=coast", tagged],
    ] as const) {
      const { answer, ran } = await measured<MemoryTimeline>(url);
      expect(answer).toEqual(expected);
      expect(ran.filter((statement) => monthCountsStatement.test(statement))).toEqual([]);
      expect(ran).toHaveLength(1);
    }
  });

  it("keeps a tag's matched count, and builds the cached first pages again with the new counts", async () => {
    const first = await get<MemoryPage>("/api/v1/memories");
    const tag = await get<MemoryPage>("/api/v1/memories?tag=Coast");
    // Cached: the member check alone.
    expect((await measured<MemoryPage>("/api/v1/memories")).ran).toHaveLength(1);
    await respond();

    const rebuilt = await measured<MemoryPage>("/api/v1/memories");
    expect(rebuilt.ran.length).toBeGreaterThan(1);
    expect(shown(rebuilt.answer)!.comment_count).toBe(shown(first)!.comment_count + 1);
    expect(rebuilt.answer.total).toBe(first.total);
    // Kept again, at the new counts.
    const again = await measured<MemoryPage>("/api/v1/memories");
    expect(again.ran).toHaveLength(1);
    expect(again.answer).toEqual(rebuilt.answer);

    // Any spelling of the tag shares its count.
    const tagPage = await measured<MemoryPage>("/api/v1/memories?tag=coast");
    expect(tagPage.ran.filter((statement) => tagCountStatement.test(statement))).toEqual([]);
    expect(tagPage.answer.matched).toBe(tag.matched);
    expect(shown(tagPage.answer)!.comment_count).toBe(shown(tag)!.comment_count + 1);
  });

  it("builds On this day again with the new counts", async () => {
    const inAnswer = (answer: OnThisDay) =>
      answer.groups.flatMap((group) => group.memories).find((memory) => memory.id === lighthouse);
    const before = inAnswer(await get<OnThisDay>("/api/v1/memories/on-this-day?date=2026-05-01"));
    expect(before).toBeDefined();
    await respond();
    const after = inAnswer(await get<OnThisDay>("/api/v1/memories/on-this-day?date=2026-05-01"));
    expect(after!.comment_count).toBe(before!.comment_count + 1);
  });

  it("still finds searches and months again after a memory changes", async () => {
    await get<MemoryPage>("/api/v1/memories?q=lighthouse");
    await get<MemoryTimeline>("/api/v1/memories/timeline");
    // A memory added moves the generation: the months are counted again.
    const written = await testApp.app.inject({
      method: "POST",
      url: "/api/v1/memories",
      headers: ann.headers,
      payload: { title: "Lighthouse at night", memory_date: "2022-08-01" },
    });
    expect(written.statusCode).toBe(201);

    const timeline = await measured<MemoryTimeline>("/api/v1/memories/timeline");
    expect(timeline.ran.filter((statement) => monthCountsStatement.test(statement))).toHaveLength(1);
    expect(timeline.answer.months).toContainEqual({ month: "2022-08", count: 1 });
    expect((await get<MemoryPage>("/api/v1/memories?q=lighthouse")).matched).toBe(3);
  });
});
