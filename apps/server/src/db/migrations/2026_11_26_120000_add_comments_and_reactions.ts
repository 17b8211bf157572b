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
 * leaves it alone. PostgreSQL's triggers are per statement (memory_stats_changed() comes from the
 * list counters migration); SQLite's per row.
 */
const sqliteTriggers = {
  memory_stats_comments_insert: "after insert on comments",
  memory_stats_comments_delete: "after delete on comments",
  memory_stats_comments_move: "after update of memory_id on comments",
  memory_stats_reactions_insert: "after insert on reactions",
  memory_stats_reactions_delete: "after delete on reactions",
  memory_stats_reactions_update: "after update of memory_id, emoji on reactions",
};

const postgresTriggers: Record<string, [table: string, when: string]> = {
  memory_stats_comments: ["comments", "after insert or delete or update of memory_id on comments"],
  memory_stats_reactions: ["reactions", "after insert or delete or update of memory_id, emoji on reactions"],
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
    for (const [name, [, when]] of Object.entries(postgresTriggers)) {
      await sql`create trigger ${sql.ref(name)} ${sql.raw(when)} for each statement execute function memory_stats_changed()`.execute(
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
  } else {
    for (const name of Object.keys(sqliteTriggers)) await sql`drop trigger ${sql.ref(name)}`.execute(db);
  }
  await db.schema.dropTable("reactions").execute();
  await db.schema.dropTable("comments").execute();
}
