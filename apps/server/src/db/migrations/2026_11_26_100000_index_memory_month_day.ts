import { type Kysely, sql } from "kysely";
import { isPostgres } from "./dialect";

/**
 * "On this day" (issue #16) finds memories by the month and day of `memory_date` in any year: an
 * index on the number MMDD, written as each engine can index it (`memory_date` is a date on
 * PostgreSQL, text on SQLite). MemoriesRepository.byMonthDay queries exactly these expressions.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`create index memories_month_day on memories ((extract(month from memory_date) * 100 + extract(day from memory_date)))`.execute(
      db,
    );
  } else {
    await sql`create index memories_month_day on memories ((cast(substr(memory_date, 6, 2) as integer) * 100 + cast(substr(memory_date, 9, 2) as integer)))`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index memories_month_day`.execute(db);
}
