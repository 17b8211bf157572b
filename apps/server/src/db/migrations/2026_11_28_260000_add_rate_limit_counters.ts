import type { Kysely } from "kysely";

/**
 * The auth API's rate limits, counted in the database where several processes share it (issue #37,
 * PostgreSQL): one row per limited route and client address, its hits in the current window and
 * when that window ends (milliseconds since the epoch, from the server's clock). Rows whose window
 * ended are swept. Created on both engines so the schema stays one; SQLite (one process) counts in
 * memory and leaves it empty.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("rate_limit_counters")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("hits", "integer", (c) => c.notNull())
    .addColumn("window_ends_ms", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("rate_limit_counters_window_ends_idx").on("rate_limit_counters").column("window_ends_ms").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("rate_limit_counters").execute();
}
