import { type Kysely, sql } from "kysely";
import { columnTypes } from "./dialect";

/**
 * What the memory list needs to answer without scanning the collection.
 *
 * `memory_stats`, one row: `total`, the number of memories, and `generation`, which grows with
 * every change that can alter a search or tag count (a memory added, edited or deleted, a tag
 * added or removed). Both are kept by triggers inside the transaction that makes the change,
 * so they are exact at every snapshot, for every server process on the database and for writes
 * that bypass the server (the CLI, a restore, the benchmark's seed). An in-process count cache
 * invalidated by the published events would not be: with several processes on PostgreSQL
 * another process learns of a change only when its NOTIFY arrives (after the commit, and never
 * if the listening connection drops meanwhile), and a count read just before that would be
 * cached stale until the next change. The price is one extra row update per write, and on
 * PostgreSQL concurrent writers queue on that row until they commit; a journal written by a few
 * people at a time never notices.
 *
 * `memory_tags.sort_key`, a copy of the memory's `sort_key`, with an index on
 * `(tag_key, sort_key, memory_id)`: a tag filter's page is then a range of that index in listing
 * order, and its count a count of the tag's index entries. Triggers fill the copy when a tag row
 * is inserted without it and rewrite the copies when a memory's `sort_key` changes (its date was
 * edited), so the copies cannot drift whoever writes. The index replaces `(tag_key, memory_id)`.
 * A tag filter combined with a search narrows the search with `memories.id in (the tag's rows)`.
 *
 * PostgreSQL's triggers on `memory_stats` are per statement (a bulk insert updates the row once,
 * not once per row, which inside one transaction would grow the row's version chain
 * quadratically); SQLite only has row triggers, and updates its row in place.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { postgres } = columnTypes(db);
  const counter = postgres ? "bigint" : "integer";
  // Byte order, like memories.sort_key: the copy must sort exactly as the original.
  const binaryText = postgres ? sql`text collate "C"` : sql`text`;

  await db.schema
    .createTable("memory_stats")
    .addColumn("id", "integer", (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn("total", counter, (c) => c.notNull())
    .addColumn("generation", counter, (c) => c.notNull())
    .execute();
  await sql`insert into memory_stats (id, total, generation) select 1, count(*), 0 from memories`.execute(db);

  await db.schema.alterTable("memory_tags").addColumn("sort_key", binaryText).execute();
  if (postgres) {
    await sql`update memory_tags set sort_key = memories.sort_key from memories where memories.id = memory_tags.memory_id`.execute(
      db,
    );
    await sql`alter table memory_tags alter column sort_key set not null`.execute(db);
  } else {
    await sql`update memory_tags set sort_key = (select sort_key from memories where memories.id = memory_tags.memory_id)`.execute(
      db,
    );
  }
  await db.schema.dropIndex("memory_tags_tag_key_idx").execute();
  // Unique: a memory carries a tag once (tags are deduplicated ignoring case before they are
  // stored), which lets a tag's count be a count of its entries here.
  await db.schema
    .createIndex("memory_tags_tag_order_idx")
    .on("memory_tags")
    .columns(["tag_key", "sort_key", "memory_id"])
    .unique()
    .execute();

  if (postgres) {
    await sql`create function memory_stats_memories_inserted() returns trigger language plpgsql as $$
      begin
        update memory_stats set total = total + (select count(*) from inserted_rows), generation = generation + 1 where id = 1;
        return null;
      end $$`.execute(db);
    await sql`create function memory_stats_memories_deleted() returns trigger language plpgsql as $$
      begin
        update memory_stats set total = total - (select count(*) from deleted_rows), generation = generation + 1 where id = 1;
        return null;
      end $$`.execute(db);
    await sql`create function memory_stats_changed() returns trigger language plpgsql as $$
      begin
        update memory_stats set generation = generation + 1 where id = 1;
        return null;
      end $$`.execute(db);
    await sql`create trigger memory_stats_insert after insert on memories referencing new table as inserted_rows
      for each statement execute function memory_stats_memories_inserted()`.execute(db);
    await sql`create trigger memory_stats_delete after delete on memories referencing old table as deleted_rows
      for each statement execute function memory_stats_memories_deleted()`.execute(db);
    await sql`create trigger memory_stats_update after update on memories for each statement execute function memory_stats_changed()`.execute(
      db,
    );
    await sql`create trigger memory_stats_tags after insert or delete or update of tag_key, memory_id on memory_tags
      for each statement execute function memory_stats_changed()`.execute(db);

    await sql`create function memory_tags_fill_sort_key() returns trigger language plpgsql as $$
      begin
        if new.sort_key is null or tg_op = 'UPDATE' then
          select sort_key into new.sort_key from memories where id = new.memory_id;
        end if;
        return new;
      end $$`.execute(db);
    await sql`create trigger memory_tags_sort_key before insert or update of memory_id on memory_tags
      for each row execute function memory_tags_fill_sort_key()`.execute(db);
    await sql`create function memories_copy_sort_key() returns trigger language plpgsql as $$
      begin
        update memory_tags set sort_key = new.sort_key where memory_id = new.id;
        return null;
      end $$`.execute(db);
    await sql`create trigger memories_sort_key_copies after update of sort_key on memories
      for each row when (old.sort_key is distinct from new.sort_key) execute function memories_copy_sort_key()`.execute(db);
  } else {
    await sql`create trigger memory_stats_insert after insert on memories begin
      update memory_stats set total = total + 1, generation = generation + 1 where id = 1;
    end`.execute(db);
    await sql`create trigger memory_stats_delete after delete on memories begin
      update memory_stats set total = total - 1, generation = generation + 1 where id = 1;
    end`.execute(db);
    await sql`create trigger memory_stats_update after update on memories begin
      update memory_stats set generation = generation + 1 where id = 1;
    end`.execute(db);
    await sql`create trigger memory_stats_tags_insert after insert on memory_tags begin
      update memory_stats set generation = generation + 1 where id = 1;
    end`.execute(db);
    await sql`create trigger memory_stats_tags_delete after delete on memory_tags begin
      update memory_stats set generation = generation + 1 where id = 1;
    end`.execute(db);
    await sql`create trigger memory_stats_tags_update after update of tag_key, memory_id on memory_tags begin
      update memory_stats set generation = generation + 1 where id = 1;
    end`.execute(db);

    // SQLite triggers cannot assign to NEW: the copy is written right after the row.
    await sql`create trigger memory_tags_sort_key_insert after insert on memory_tags when new.sort_key is null begin
      update memory_tags set sort_key = (select sort_key from memories where id = new.memory_id) where rowid = new.rowid;
    end`.execute(db);
    await sql`create trigger memory_tags_sort_key_move after update of memory_id on memory_tags begin
      update memory_tags set sort_key = (select sort_key from memories where id = new.memory_id) where rowid = new.rowid;
    end`.execute(db);
    await sql`create trigger memories_sort_key_copies after update of sort_key on memories when old.sort_key is not new.sort_key begin
      update memory_tags set sort_key = new.sort_key where memory_id = new.id;
    end`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const { postgres } = columnTypes(db);
  const triggers: [string, string][] = [
    ["memory_stats_insert", "memories"],
    ["memory_stats_delete", "memories"],
    ["memory_stats_update", "memories"],
    ["memories_sort_key_copies", "memories"],
    ...(postgres
      ? ([
          ["memory_stats_tags", "memory_tags"],
          ["memory_tags_sort_key", "memory_tags"],
        ] as [string, string][])
      : ([
          ["memory_stats_tags_insert", "memory_tags"],
          ["memory_stats_tags_delete", "memory_tags"],
          ["memory_stats_tags_update", "memory_tags"],
          ["memory_tags_sort_key_insert", "memory_tags"],
          ["memory_tags_sort_key_move", "memory_tags"],
        ] as [string, string][])),
  ];
  for (const [trigger, table] of triggers) {
    await (
      postgres ? sql`drop trigger ${sql.ref(trigger)} on ${sql.table(table)}` : sql`drop trigger ${sql.ref(trigger)}`
    ).execute(db);
  }
  if (postgres) {
    for (const fn of [
      "memory_stats_memories_inserted",
      "memory_stats_memories_deleted",
      "memory_stats_changed",
      "memory_tags_fill_sort_key",
      "memories_copy_sort_key",
    ]) {
      await sql`drop function ${sql.ref(fn)}()`.execute(db);
    }
  }
  await db.schema.dropIndex("memory_tags_tag_order_idx").execute();
  await db.schema.createIndex("memory_tags_tag_key_idx").on("memory_tags").columns(["tag_key", "memory_id"]).execute();
  await db.schema.alterTable("memory_tags").dropColumn("sort_key").execute();
  await db.schema.dropTable("memory_stats").execute();
}
