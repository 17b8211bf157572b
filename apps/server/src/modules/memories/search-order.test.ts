import type { MemoryPage, MemoryTimeline } from "@memory-box/contract";
import type { Insertable } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../db/database";
import type { MemoriesTable } from "../../db/schema";
import { createMember, type TestMember } from "../../../test/members";
import { memoryRow } from "../../../test/memory-rows";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";
import { sortKey } from "./memories.repository";

// A search's pages come in the list's order (newest date first, then newest written, undated
// last) however the engine finds them: SQLite's full-text index files memories by day and leaves
// the order within a day to the reader (issue #37, ADR 0079). Rows are written straight into the
// database, as an import does, so that within a day the order they were added in is not the
// order they were written in.

/** Matching memories: (title, date, written at), added in this order. */
const lanterns: [string, string | null, string][] = [
  ["Lantern 1", "2024-03-05", "2024-03-05T08:00:00.000Z"],
  ["Lantern 2", "2024-03-05", "2024-03-05T21:00:00.000Z"],
  ["Lantern 3", "2024-03-05", "2024-03-05T09:00:00.000Z"],
  ["Lantern 4", "2024-03-06", "2024-03-06T10:00:00.000Z"],
  ["Lantern 5", "2024-03-05", "2024-03-05T20:00:00.000Z"],
  ["Lantern 6", null, "2020-01-01T00:00:00.000Z"],
  ["Lantern 7", "2024-03-05", "2024-03-05T10:00:00.000Z"],
  ["Lantern 8", "1999-12-31", "2024-03-07T00:00:00.000Z"],
  ["Lantern 9", null, "2021-01-01T00:00:00.000Z"],
  ["Lantern 10", "2024-03-05", "2024-03-05T19:00:00.000Z"],
  ["Lantern 11", "2024-02-29", "2024-02-29T12:00:00.000Z"],
  ["Lantern 12", "2024-03-05", "2024-03-05T11:00:00.000Z"],
];

const configurations = testEngines().flatMap(
  (engine) =>
    [
      [engine, "matches kept", undefined],
      [engine, "matches read page by page", 0],
    ] as const,
);

describe.each(configurations)("a search's order on %s, %s", (engine, _label, maxKeptSearchMatches) => {
  let testApp: TestApp;
  let ann: TestMember;
  let database: ReturnType<typeof openDatabase>;
  const rows: Insertable<MemoriesTable>[] = [];

  beforeAll(async () => {
    testApp = await createTestApp(engine, {
      env: { AUTH_RATE_LIMITS: "false" },
      ...(maxKeptSearchMatches === undefined ? {} : { maxKeptSearchMatches }),
    });
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
    database = openDatabase(testApp.config.database);
    for (const [index, [title, date, createdAt]] of lanterns.entries()) {
      rows.push(
        memoryRow({ title, memory_date: date, created_at: createdAt, search_text: `${title.toLowerCase()}\nby the sea` }),
      );
      // Memories the search does not find, between those it does.
      rows.push(memoryRow({ title: `Candle ${index}`, memory_date: date, created_at: createdAt, search_text: "candle" }));
    }
    await database.db.insertInto("memories").values(rows).execute();
  });
  afterAll(async () => {
    await database.destroy();
    await testApp.close();
  });

  const get = async <T>(url: string) => {
    const response = await testApp.app.inject({ method: "GET", url, headers: ann.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  };

  /** Every page of a search, `limit` at a time: the titles in order, and each page's count. */
  const walk = async (q: string, limit: number) => {
    const titles: string[] = [];
    const counts = new Set<number>();
    let cursor: string | null = null;
    do {
      const page: MemoryPage = await get(`/api/v1/memories?q=${q}&limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
      titles.push(...page.items.map((memory) => memory.title));
      counts.add(page.matched);
      cursor = page.next_cursor;
    } while (cursor !== null && titles.length <= lanterns.length);
    return { titles, counts: [...counts] };
  };

  /** The matching rows' titles in the list's order. */
  const expected = () =>
    rows
      .filter((row) => row.search_text.includes("lantern"))
      .sort((a, b) => (a.sort_key < b.sort_key ? 1 : -1))
      .map((row) => row.title);

  it("pages a search in the list's order, within a day as across days, complete and without repeats", async () => {
    expect(expected().slice(0, 4)).toEqual(["Lantern 4", "Lantern 2", "Lantern 5", "Lantern 10"]);
    for (const limit of [1, 2, 3, 5, 30]) {
      expect(await walk("lantern", limit)).toEqual({ titles: expected(), counts: [lanterns.length] });
    }
    expect(await walk("SEA%20lantern", 4)).toEqual({ titles: expected(), counts: [lanterns.length] });
  });

  it("counts a search's months from the same matches", async () => {
    expect(await get<MemoryTimeline>("/api/v1/memories/timeline?q=lantern")).toEqual({
      months: [
        { month: "2024-03", count: 8 },
        { month: "2024-02", count: 1 },
        { month: "1999-12", count: 1 },
      ],
      undated: 2,
    });
  });

  it("moves a memory when its date changes, and forgets it when it is deleted", async () => {
    const moved = rows.find((row) => row.title === "Lantern 1")!;
    moved.memory_date = "2025-01-01";
    moved.sort_key = sortKey(moved.memory_date, moved.created_at, moved.id);
    await database.db
      .updateTable("memories")
      .set({ memory_date: moved.memory_date, sort_key: moved.sort_key })
      .where("id", "=", moved.id)
      .execute();
    expect((await walk("lantern", 2)).titles).toEqual(expected());
    expect(expected()[0]).toBe("Lantern 1");

    const deleted = rows.findIndex((row) => row.title === "Lantern 12");
    await database.db.deleteFrom("memories").where("id", "=", rows[deleted]!.id).execute();
    rows.splice(deleted, 1);
    expect(await walk("lantern", 3)).toEqual({ titles: expected(), counts: [lanterns.length - 1] });
    expect((await get<MemoryPage>("/api/v1/memories?q=lantern%2012")).matched).toBe(0);
  });
});
