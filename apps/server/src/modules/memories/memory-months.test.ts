import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryRow, memoryRowCreatedAt as createdAt } from "../../../test/memory-rows";
import { openMigratedTestDatabase, testEngines } from "../../../test/test-database";
import { MemoriesRepository, sortKey } from "./memories.repository";

/**
 * The unfiltered timeline reads `memory_months`, which triggers keep (migration 2026_11_28_280000)
 * instead of grouping every memory's sort key per request (issue #37, the lifetime benchmark).
 * Whatever writes the memories, straight in SQL here, past the repository, the kept counts must be
 * the ones the grouping gives: bulk inserts, a date moved to another month or within one, a date
 * removed, deletes, a month emptied.
 */
describe.each(testEngines())("the month counts kept for the timeline, on %s", (engine) => {
  let database: Awaited<ReturnType<typeof openMigratedTestDatabase>>;

  const row = (memoryDate: string | null) => memoryRow({ memory_date: memoryDate });

  /** What the timeline answers without a filter, and what grouping the memories gives. */
  const both = async () => {
    const kept = await new MemoriesRepository(database.db, engine).monthCounts({});
    const { rows } = await sql<{ month: string; count: number }>`
      select substr(sort_key, 1, 7) as month, count(*) as count from memories group by substr(sort_key, 1, 7) order by month desc`.execute(
      database.db,
    );
    return { kept, grouped: rows.map((r) => ({ month: r.month, count: Number(r.count) })) };
  };
  const setDate = (id: string, memoryDate: string | null) =>
    database.db
      .updateTable("memories")
      .set({ memory_date: memoryDate, sort_key: sortKey(memoryDate, createdAt, id) })
      .where("id", "=", id)
      .execute();

  beforeAll(async () => {
    database = await openMigratedTestDatabase(engine);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("follows every write to the memories", async () => {
    const rows = [row("2024-06-30"), row("2024-06-01"), row("2024-05-03"), row("1971-12-31"), row(null)];
    // One statement: PostgreSQL's triggers see the rows together.
    await database.db.insertInto("memories").values(rows).execute();
    expect(await both()).toEqual({
      kept: [
        { month: "2024-06", count: 2 },
        { month: "2024-05", count: 1 },
        { month: "1971-12", count: 1 },
        { month: "0000-00", count: 1 },
      ],
      grouped: [
        { month: "2024-06", count: 2 },
        { month: "2024-05", count: 1 },
        { month: "1971-12", count: 1 },
        { month: "0000-00", count: 1 },
      ],
    });

    await setDate(rows[0]!.id, "2024-05-20"); // to another month
    await setDate(rows[1]!.id, "2024-06-02"); // within its month
    await setDate(rows[3]!.id, null); // undated
    await setDate(rows[4]!.id, "2025-01-01"); // dated
    await database.db.updateTable("memories").set({ title: "Renamed" }).execute(); // no date changes
    let counts = await both();
    expect(counts.kept).toEqual(counts.grouped);
    expect(counts.kept).toEqual([
      { month: "2025-01", count: 1 },
      { month: "2024-06", count: 1 },
      { month: "2024-05", count: 2 },
      { month: "0000-00", count: 1 },
    ]);

    await database.db.deleteFrom("memories").where("id", "in", [rows[1]!.id, rows[2]!.id]).execute();
    counts = await both();
    expect(counts.kept).toEqual(counts.grouped);
    expect(counts.kept).toEqual([
      { month: "2025-01", count: 1 },
      { month: "2024-05", count: 1 },
      { month: "0000-00", count: 1 },
    ]);

    await database.db.deleteFrom("memories").execute();
    expect(await both()).toEqual({ kept: [], grouped: [] });
  });
});
