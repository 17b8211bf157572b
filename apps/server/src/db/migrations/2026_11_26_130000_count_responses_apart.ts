import { type Kysely, sql } from "kysely";
import { columnTypes } from "./dialect";

/**
 * Comments and reactions move a counter of their own, `memory_stats.responses`, no longer the
 * collection's `generation` (ADR 0030, amended). A comment or reaction changes the counts a card
 * shows, so cached list pages are filed under both counters; it changes neither which memories a
 * search or tag matches nor how many a month holds, so the kept searches, matched counts and
 * timelines, filed under `generation` alone, outlive it (ADR 0010, 0019, 0033).
 *
 * The same triggers as before (names, events, and on PostgreSQL the transition tables that skip a
 * statement which touched no row), re-pointed at the new column. A comment's text still moves
 * nothing: no page shows it.
 */
const triggers: Record<string, [table: string, sqliteWhen: string, postgresWhen: string, touchesRows: boolean]> = {
  memory_stats_comments_insert: [
    "comments",
    "after insert on comments",
    "after insert on comments referencing new table as changed_rows",
    true,
  ],
  memory_stats_comments_delete: [
    "comments",
    "after delete on comments",
    "after delete on comments referencing old table as changed_rows",
    true,
  ],
  memory_stats_comments_move: [
    "comments",
    "after update of memory_id on comments",
    "after update of memory_id on comments",
    false,
  ],
  memory_stats_reactions_insert: [
    "reactions",
    "after insert on reactions",
    "after insert on reactions referencing new table as changed_rows",
    true,
  ],
  memory_stats_reactions_delete: [
    "reactions",
    "after delete on reactions",
    "after delete on reactions referencing old table as changed_rows",
    true,
  ],
  memory_stats_reactions_update: [
    "reactions",
    "after update of memory_id, emoji on reactions",
    "after update of memory_id, emoji on reactions",
    false,
  ],
};

export async function up(db: Kysely<unknown>): Promise<void> {
  const { postgres } = columnTypes(db);
  await db.schema
    .alterTable("memory_stats")
    .addColumn("responses", postgres ? "bigint" : "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await pointTriggersAt(db, "responses");
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await pointTriggersAt(db, "generation");
  await db.schema.alterTable("memory_stats").dropColumn("responses").execute();
}

/** Recreates the comment and reaction triggers so that they move `column`. */
async function pointTriggersAt(db: Kysely<unknown>, column: "responses" | "generation"): Promise<void> {
  if (columnTypes(db).postgres) {
    // The functions the triggers call: one that looks at the statement's rows, one that does not.
    const [rowsFn, plainFn] =
      column === "responses"
        ? ["memory_stats_responses_rows_changed", "memory_stats_responses_changed"]
        : // As the comments and reactions migration left them (memory_stats_changed is the list counters').
          ["memory_stats_rows_changed", "memory_stats_changed"];
    await sql`create function ${sql.ref(rowsFn)}() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from changed_rows) then
          update memory_stats set ${sql.ref(column)} = ${sql.ref(column)} + 1 where id = 1;
        end if;
        return null;
      end $$`.execute(db);
    if (column === "responses") {
      await sql`create function memory_stats_responses_changed() returns trigger language plpgsql as $$
        begin
          update memory_stats set responses = responses + 1 where id = 1;
          return null;
        end $$`.execute(db);
    }
    for (const [name, [table, , when, touchesRows]] of Object.entries(triggers)) {
      await sql`drop trigger ${sql.ref(name)} on ${sql.table(table)}`.execute(db);
      await sql`create trigger ${sql.ref(name)} ${sql.raw(when)} for each statement execute function ${sql.ref(touchesRows ? rowsFn : plainFn)}()`.execute(
        db,
      );
    }
    // The other column's functions, now called by no trigger.
    if (column === "responses") {
      await sql`drop function memory_stats_rows_changed()`.execute(db);
    } else {
      await sql`drop function memory_stats_responses_rows_changed()`.execute(db);
      await sql`drop function memory_stats_responses_changed()`.execute(db);
    }
    return;
  }
  for (const [name, [, when]] of Object.entries(triggers)) {
    await sql`drop trigger ${sql.ref(name)}`.execute(db);
    await sql`create trigger ${sql.ref(name)} ${sql.raw(when)} begin
      update memory_stats set ${sql.ref(column)} = ${sql.ref(column)} + 1 where id = 1;
    end`.execute(db);
  }
}
