import { type Kysely, sql } from "kysely";
import { searchRowidSql } from "../search-rowids";
import { createSqliteSearchIndex } from "./2026_11_21_110000_create_memories";
import { isPostgres } from "./dialect";

/**
 * SQLite's full-text index, filed by day (db/search-rowids.ts): it held each memory under the
 * memory's own rowid, so a search's matches came in the order memories were added, and a search
 * on ~1% of 1,000,000 memories read all ~10,000 of them to sort them for the list (issue #37).
 * Contentless now (its rowids are not the memories'), with deletes by rowid; the triggers keep it
 * as before, and also when a memory's date changes. PostgreSQL's search is not concerned.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) return;
  await dropSearchIndex(db);
  await sql`create virtual table memories_search using fts5(search_text, content='', contentless_delete=1, tokenize='trigram')`.execute(
    db,
  );
  await sql
    .raw(`insert into memories_search(rowid, search_text) select ${searchRowidSql("memories")}, search_text from memories`)
    .execute(db);
  await sql
    .raw(
      `create trigger memories_search_insert after insert on memories begin
      insert into memories_search(rowid, search_text) values (${searchRowidSql("new")}, new.search_text);
    end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger memories_search_delete after delete on memories begin
      delete from memories_search where rowid = ${searchRowidSql("old")};
    end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger memories_search_update after update of search_text, memory_date on memories begin
      delete from memories_search where rowid = ${searchRowidSql("old")};
      insert into memories_search(rowid, search_text) values (${searchRowidSql("new")}, new.search_text);
    end`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) return;
  await dropSearchIndex(db);
  await createSqliteSearchIndex(db);
  await sql`insert into memories_search(memories_search) values ('rebuild')`.execute(db);
}

async function dropSearchIndex(db: Kysely<unknown>): Promise<void> {
  for (const trigger of ["memories_search_insert", "memories_search_delete", "memories_search_update"])
    await sql`drop trigger if exists ${sql.ref(trigger)}`.execute(db);
  await sql`drop table if exists memories_search`.execute(db);
}
