import { type Kysely, sql } from "kysely";
import { columnTypes } from "./dialect";

/**
 * Comments and reactions on memories (issue #16, ADR 0030). Both go with their memory (on delete
 * cascade). A comment outlives its author's account, as a memory does, and then shows no name; a
 * reaction is a member's own mark and goes with them. A member reacts to a memory once per emoji.
 *
 * List pages show each memory's comment count and reaction counts, so adding or removing a
 * comment or reaction moves `memory_stats.generation` (the listing cache's key, ADR 0010) through
 * triggers, like every other write a page can show. Editing a comment's text changes no count and
 * leaves it alone. PostgreSQL's triggers are per statement; SQLite's per row.
 */
const sqliteTriggers = {
  memory_stats_comments_insert: "after insert on comments",
  memory_stats_comments_delete: "after delete on comments",
  memory_stats_comments_move: "after update of memory_id on comments",
  memory_stats_reactions_insert: "after insert on reactions",
  memory_stats_reactions_delete: "after delete on reactions",
  memory_stats_reactions_update: "after update of memory_id, emoji on reactions",
};

/**
 * PostgreSQL runs a statement's trigger even when the statement touched no row: a reaction put
 * twice (`on conflict do nothing`) or taken back twice would empty the listing cache for nothing.
 * Inserts and deletes look at their rows through transition tables (which PostgreSQL allows only
 * on one-event triggers without a column list); moves between memories never happen through the
 * app and keep the plain trigger.
 */
const postgresTriggers: Record<string, [table: string, when: string, fn: string]> = {
  memory_stats_comments_insert: [
    "comments",
    "after insert on comments referencing new table as changed_rows",
    "memory_stats_rows_changed",
  ],
  memory_stats_comments_delete: [
    "comments",
    "after delete on comments referencing old table as changed_rows",
    "memory_stats_rows_changed",
  ],
  memory_stats_comments_move: ["comments", "after update of memory_id on comments", "memory_stats_changed"],
  memory_stats_reactions_insert: [
    "reactions",
    "after insert on reactions referencing new table as changed_rows",
    "memory_stats_rows_changed",
  ],
  memory_stats_reactions_delete: [
    "reactions",
    "after delete on reactions referencing old table as changed_rows",
    "memory_stats_rows_changed",
  ],
  memory_stats_reactions_update: ["reactions", "after update of memory_id, emoji on reactions", "memory_stats_changed"],
};

export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp, postgres } = columnTypes(db);

  await db.schema
    .createTable("comments")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("memory_id", "text", (c) => c.notNull().references("memories.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
  // A memory's comments oldest first, and their count, from one range of the index.
  await db.schema.createIndex("comments_memory_idx").on("comments").columns(["memory_id", "created_at", "id"]).execute();
  // Found by the author's removal (set null) without a scan.
  await db.schema.createIndex("comments_user_idx").on("comments").column("user_id").execute();

  await db.schema
    .createTable("reactions")
    .addColumn("memory_id", "text", (c) => c.notNull().references("memories.id").onDelete("cascade"))
    .addColumn("emoji", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    // A memory's counts by emoji come from one range of the key.
    .addPrimaryKeyConstraint("reactions_pk", ["memory_id", "emoji", "user_id"])
    .execute();
  await db.schema.createIndex("reactions_user_idx").on("reactions").column("user_id").execute();

  if (postgres) {
    // Moves the generation when the statement inserted or deleted at least one row.
    await sql`create function memory_stats_rows_changed() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from changed_rows) then
          update memory_stats set generation = generation + 1 where id = 1;
        end if;
        return null;
      end $$`.execute(db);
    // memory_stats_changed() comes from the list counters migration.
    for (const [name, [, when, fn]] of Object.entries(postgresTriggers)) {
      await sql`create trigger ${sql.ref(name)} ${sql.raw(when)} for each statement execute function ${sql.ref(fn)}()`.execute(
        db,
      );
    }
  } else {
    for (const [name, when] of Object.entries(sqliteTriggers)) {
      await sql`create trigger ${sql.ref(name)} ${sql.raw(when)} begin
        update memory_stats set generation = generation + 1 where id = 1;
      end`.execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (columnTypes(db).postgres) {
    for (const [name, [table]] of Object.entries(postgresTriggers))
      await sql`drop trigger ${sql.ref(name)} on ${sql.table(table)}`.execute(db);
    await sql`drop function memory_stats_rows_changed()`.execute(db);
  } else {
    for (const name of Object.keys(sqliteTriggers)) await sql`drop trigger ${sql.ref(name)}`.execute(db);
  }
  await db.schema.dropTable("reactions").execute();
  await db.schema.dropTable("comments").execute();
}
