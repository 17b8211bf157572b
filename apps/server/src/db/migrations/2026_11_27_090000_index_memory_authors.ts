import type { Kysely } from "kysely";

/**
 * Memories by author: the archive names only the people whose work it holds (and who joined), and
 * removing an account sets its memories' author to null; both find a member's memories without
 * reading the whole table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("memories_user_idx").on("memories").column("user_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("memories_user_idx").execute();
}
