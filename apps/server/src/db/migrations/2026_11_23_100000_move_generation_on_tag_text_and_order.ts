import { type Kysely, sql } from "kysely";
import { columnTypes } from "./dialect";

/**
 * A list page shows each memory's tags as spelled and in their order, so `memory_stats.generation`
 * must move when a tag row's `tag` or `position` changes too, not only its `tag_key` or
 * `memory_id` (the service rewrites tag rows with delete and insert, which moved it already; a
 * write that bypasses the service, such as a restore or a tidy-up in SQL, did not).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await replaceTagUpdateTrigger(db, "tag, tag_key, memory_id, position");
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await replaceTagUpdateTrigger(db, "tag_key, memory_id");
}

async function replaceTagUpdateTrigger(db: Kysely<unknown>, columns: string): Promise<void> {
  if (columnTypes(db).postgres) {
    await sql`drop trigger memory_stats_tags on memory_tags`.execute(db);
    await sql`create trigger memory_stats_tags after insert or delete or update of ${sql.raw(columns)} on memory_tags
      for each statement execute function memory_stats_changed()`.execute(db);
  } else {
    await sql`drop trigger memory_stats_tags_update`.execute(db);
    await sql`create trigger memory_stats_tags_update after update of ${sql.raw(columns)} on memory_tags begin
      update memory_stats set generation = generation + 1 where id = 1;
    end`.execute(db);
  }
}
