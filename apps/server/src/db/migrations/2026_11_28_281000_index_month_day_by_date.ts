import { type Kysely, sql } from "kysely";
import { isPostgres } from "./dialect";

/**
 * "On this day" takes the newest memories of a few days of the year, in every earlier year.
 * Through memories_month_day alone it read every memory of those days (~19,000 of 1,000,000
 * memories over 60 years, each with its row for the date) to sort them and keep 200 (issue #37,
 * the lifetime benchmark). Indexed by the same month and day, then date and id, each day's
 * newest come first: MemoriesRepository.byMonthDay reads at most its limit a day. The index on
 * month and day alone stays, for the frames' filter (issue #36).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`create index memories_month_day_date on memories ((extract(month from memory_date) * 100 + extract(day from memory_date)), memory_date desc, id)`.execute(
      db,
    );
  } else {
    await sql`create index memories_month_day_date on memories ((cast(substr(memory_date, 6, 2) as integer) * 100 + cast(substr(memory_date, 9, 2) as integer)), memory_date desc, id)`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index memories_month_day_date`.execute(db);
}
