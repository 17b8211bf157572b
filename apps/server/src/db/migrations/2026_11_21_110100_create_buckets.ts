import type { Kysely } from "kysely";
import { columnTypes } from "./dialect";

/** Storage buckets as Supabase Storage describes them. `memory-photos` exists from the start, private. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await db.schema
    .createTable("buckets")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull().unique())
    .addColumn("public", "integer", (c) => c.notNull())
    .addColumn("file_size_limit", "integer")
    .addColumn("allowed_mime_types", "text")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
  const now = new Date().toISOString();
  await (db as Kysely<{ buckets: Record<string, unknown> }>)
    .insertInto("buckets")
    .values({
      id: "memory-photos",
      name: "memory-photos",
      public: 0,
      file_size_limit: null,
      allowed_mime_types: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("buckets").execute();
}
