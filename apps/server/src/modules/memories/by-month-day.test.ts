import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryRow } from "../../../test/memory-rows";
import { openMigratedTestDatabase, testEngines } from "../../../test/test-database";
import { MemoriesRepository } from "./memories.repository";

/**
 * "On this day"'s candidates are read a day at a time, each day's newest first, then merged and
 * cut (issue #37: reading every memory of the days in every year grew with the collection). The
 * answer must be the one a plain filter and sort of every memory gives: the newest `limit` of the
 * days, before the date, ties by id, whatever the limit and however they spread over the days.
 */
describe.each(testEngines())("the memories of some days of the year, on %s", (engine) => {
  let database: Awaited<ReturnType<typeof openMigratedTestDatabase>>;
  const dates: string[] = [];

  beforeAll(async () => {
    database = await openMigratedTestDatabase(engine);
    // 5–7 March and 28 February–1 March over 30 years, two memories on some days, some undated.
    for (let year = 1996; year <= 2026; year += 1) {
      for (const day of ["02-28", "02-29", "03-01", "03-05", "03-06", "03-07", "03-08", "06-01"]) {
        const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
        if (day === "02-29" && !leap) continue;
        dates.push(`${year}-${day}`);
        if (year % 3 === 0) dates.push(`${year}-${day}`);
      }
    }
    const rows = [...dates, null, null].map((memoryDate) => memoryRow({ memory_date: memoryDate }));
    await database.db.insertInto("memories").values(rows).execute();
  });
  afterAll(async () => {
    await database?.close();
  });

  const expected = async (monthDays: string[], before: string, limit: number) => {
    const all = await database.db.selectFrom("memories").select(["id", "memory_date"]).execute();
    return all
      .filter((row) => row.memory_date !== null && row.memory_date < before && monthDays.includes(row.memory_date.slice(5)))
      .sort((a, b) => (a.memory_date! > b.memory_date! ? -1 : a.memory_date! < b.memory_date! ? 1 : a.id < b.id ? -1 : 1))
      .slice(0, limit);
  };

  it.each([
    { monthDays: ["03-04", "03-05", "03-06", "03-07", "03-08"], before: "2026-03-03", limit: 200 },
    { monthDays: ["03-04", "03-05", "03-06", "03-07", "03-08"], before: "2026-03-03", limit: 7 },
    { monthDays: ["02-27", "02-28", "02-29", "03-01", "03-02"], before: "2024-02-26", limit: 12 },
    { monthDays: ["12-30", "12-31", "01-01"], before: "2026-12-28", limit: 200 },
  ])("answers as a filter and sort of every memory would: $monthDays before $before, at most $limit", async (query) => {
    const found = await new MemoriesRepository(database.db, engine).byMonthDay(query.monthDays, query.before, query.limit);
    expect(found).toEqual(await expected(query.monthDays, query.before, query.limit));
  });
});
