import { type Kysely, sql } from "kysely";
import { isPostgres } from "./dialect";

/**
 * PostgreSQL's search through the words of the memories (ADR 0081). A query word never holds
 * whitespace, so it occurs in a memory's `search_text` exactly when it occurs in one of its
 * whitespace-separated words. `search_words` lists every word once with how many memories hold
 * it (kept by triggers, like `memory_months`); a GIN index on each memory's words answers "holds
 * one of these words" exactly, without reading the rows. A query word becomes the dictionary's
 * words containing it (a trigram search of the small dictionary), and its count, when it is one
 * word, is read from the dictionary, not from the matches. The trigram index on `search_text`
 * stays, for a search combined with a tag or place filter (compared with LIKE, as before).
 *
 * Words are split on ASCII whitespace only (JavaScript's `\s`, which splits a query, also counts
 * these as whitespace): a word may keep other spaces inside, which no query word holds.
 * SQLite: nothing (its FTS5 table serves its search).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create extension if not exists pg_trgm`.execute(db);
  // Tab, line feed, vertical tab, form feed and carriage return become spaces; the empty words
  // between repeated spaces are dropped.
  await sql`create function memory_search_words(search_text text) returns text[] language sql immutable strict parallel safe
    as $$ select array_remove(string_to_array(translate(search_text, E'\\t\\n\\x0b\\f\\r', '     '), ' '), '') $$`.execute(db);
  await sql`create table search_words (word text primary key, count bigint not null)`.execute(db);
  await sql`insert into search_words (word, count)
    select word, count(*) from (select distinct memories.id, word from memories, unnest(memory_search_words(memories.search_text)) as word) as held
    group by word`.execute(db);
  await sql`create index search_words_word_trgm_idx on search_words using gin (word gin_trgm_ops)`.execute(db);
  await sql`create index memories_search_words_idx on memories using gin (memory_search_words(search_text))`.execute(db);
  // Per statement over the transition tables: a bulk insert upserts each word once; only words
  // whose count changes are written, in one order (by word) so two writers queue, not deadlock.
  const wordsOf = (rows: string) =>
    `select distinct ${rows}.id, word from ${rows}, unnest(memory_search_words(${rows}.search_text)) as word`;
  const triggers = [
    {
      name: "search_words_insert",
      on: "after insert on memories referencing new table as inserted_rows",
      changes: `select word, count(*) as change from (${wordsOf("inserted_rows")}) as held group by word`,
    },
    {
      name: "search_words_delete",
      on: "after delete on memories referencing old table as deleted_rows",
      changes: `select word, - count(*) as change from (${wordsOf("deleted_rows")}) as held group by word`,
    },
    {
      name: "search_words_update",
      on: "after update on memories referencing old table as old_rows new table as new_rows",
      changes: `select word, sum(change) as change from (
          select word, 1 as change from (${wordsOf("new_rows")}) as held
          union all select word, -1 as change from (${wordsOf("old_rows")}) as held
        ) as moved group by word having sum(change) <> 0`,
    },
  ];
  for (const { name, on, changes } of triggers) {
    await sql
      .raw(
        `create function ${name}() returns trigger language plpgsql as $$
          begin
            insert into search_words (word, count) select word, change from (${changes}) as changed order by word
              on conflict (word) do update set count = search_words.count + excluded.count;
            return null;
          end $$`,
      )
      .execute(db);
    await sql.raw(`create trigger ${name} ${on} for each statement execute function ${name}()`).execute(db);
  }
  await sql`analyze search_words`.execute(db);
  await sql`analyze memories`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const name of ["search_words_insert", "search_words_delete", "search_words_update"]) {
    await sql.raw(`drop trigger if exists ${name} on memories`).execute(db);
    await sql.raw(`drop function if exists ${name}()`).execute(db);
  }
  await sql`drop index if exists memories_search_words_idx`.execute(db);
  await sql`drop table if exists search_words`.execute(db);
  await sql`drop function if exists memory_search_words(text)`.execute(db);
}
