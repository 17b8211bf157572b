import { type Kysely, sql } from "kysely";
import { columnTypes } from "./dialect";

/**
 * Memories, their tags and photos, and the search index.
 *
 * Listing order (date newest first with undated last, then newest created) is one text column,
 * `sort_key` = `{memory_date or 0000-00-00}|{created_at}|{id}`, so keyset pagination is a single
 * indexed comparison on both engines. Search runs over `search_text` (title, description and
 * tags, lower-cased): an FTS5 trigram index on SQLite, a pg_trgm GIN index on PostgreSQL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp, date, postgres } = columnTypes(db);
  // Byte order, not the locale's: ISO dates and times must compare as written.
  const binaryText = postgres ? sql`text collate "C"` : sql`text`;

  await db.schema
    .createTable("memories")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("content", "text")
    .addColumn("memory_date", date)
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("updated_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("sort_key", binaryText, (c) => c.notNull())
    .addColumn("search_text", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("memories_sort_key_idx").on("memories").column("sort_key").execute();

  await db.schema
    .createTable("memory_tags")
    .addColumn("memory_id", "text", (c) => c.notNull().references("memories.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("tag", "text", (c) => c.notNull())
    .addColumn("tag_key", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("memory_tags_pk", ["memory_id", "position"])
    .execute();
  await db.schema.createIndex("memory_tags_tag_key_idx").on("memory_tags").columns(["tag_key", "memory_id"]).execute();

  await db.schema
    .createTable("photos")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("memory_id", "text", (c) => c.references("memories.id").onDelete("set null"))
    .addColumn("position", "integer")
    .addColumn("owner_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("object_key", "text", (c) => c.notNull().unique())
    .addColumn("preview_key", "text", (c) => c.notNull())
    .addColumn("thumbnail_key", "text", (c) => c.notNull())
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("bytes", "integer", (c) => c.notNull())
    .addColumn("width", "integer", (c) => c.notNull())
    .addColumn("height", "integer", (c) => c.notNull())
    .addColumn("taken_at", "text")
    .addColumn("placeholder", "text", (c) => c.notNull())
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("photos_memory_id_idx").on("photos").columns(["memory_id", "position"]).execute();
  await db.schema
    .createIndex("photos_unattached_idx")
    .on("photos")
    .columns(["created_at"])
    .where(sql.ref("memory_id"), "is", null)
    .execute();

  if (postgres) {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index memories_search_text_trgm_idx on memories using gin (search_text gin_trgm_ops)`.execute(db);
  } else {
    await createSqliteSearchIndex(db);
  }
}

/**
 * SQLite's full-text index as this migration made it: FTS5 trigrams over `memories.search_text`,
 * under the memories' own rowids (until 2026_11_28_283000 filed them by day, and on its way down).
 */
export async function createSqliteSearchIndex(db: Kysely<unknown>): Promise<void> {
  await sql`create virtual table memories_search using fts5(search_text, content='memories', content_rowid='rowid', tokenize='trigram')`.execute(
    db,
  );
  await sql`create trigger memories_search_insert after insert on memories begin
    insert into memories_search(rowid, search_text) values (new.rowid, new.search_text);
  end`.execute(db);
  await sql`create trigger memories_search_delete after delete on memories begin
    insert into memories_search(memories_search, rowid, search_text) values ('delete', old.rowid, old.search_text);
  end`.execute(db);
  await sql`create trigger memories_search_update after update of search_text on memories begin
    insert into memories_search(memories_search, rowid, search_text) values ('delete', old.rowid, old.search_text);
    insert into memories_search(rowid, search_text) values (new.rowid, new.search_text);
  end`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!columnTypes(db).postgres) {
    for (const trigger of ["memories_search_insert", "memories_search_delete", "memories_search_update"])
      await sql`drop trigger ${sql.ref(trigger)}`.execute(db);
    await sql`drop table memories_search`.execute(db);
  }
  await db.schema.dropTable("photos").execute();
  await db.schema.dropTable("memory_tags").execute();
  await db.schema.dropTable("memories").execute();
}
