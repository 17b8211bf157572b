import { type Kysely, sql } from "kysely";
import { columnTypes } from "./dialect";

/**
 * `memory_tag_counts`: how many memories carry each tag (by its key, lower case), the matched
 * count of a filter on one tag. Counting the tag's index entries on each filter read grew with the
 * tag: at the lifetime benchmark's 1,000,000 memories (issue #37) the most common tag is on about
 * a third of them. Kept by triggers on `memory_tags` inside the writing transaction, like
 * `memory_months`, so it is exact at every snapshot whoever writes (a memory carries a tag at most
 * once); a tag no memory carries any more keeps its row at 0.
 *
 * PostgreSQL: per statement over the transition tables, only tags whose count changes written.
 * SQLite: row triggers; an update only when the key changes.
 */
const postgresTriggers: Record<string, { on: string; changes: string }> = {
  memory_tag_counts_insert: {
    on: "after insert on memory_tags referencing new table as inserted_rows",
    changes: "select tag_key, count(*) as change from inserted_rows group by tag_key",
  },
  memory_tag_counts_delete: {
    on: "after delete on memory_tags referencing old table as deleted_rows",
    changes: "select tag_key, - count(*) as change from deleted_rows group by tag_key",
  },
  memory_tag_counts_update: {
    on: "after update on memory_tags referencing old table as old_rows new table as new_rows",
    changes: `select tag_key, sum(change) as change from (
        select tag_key, 1 as change from new_rows union all select tag_key, -1 as change from old_rows
      ) as moved group by tag_key having sum(change) <> 0`,
  },
};

const sqliteTriggers: Record<string, string> = {
  memory_tag_counts_insert: `after insert on memory_tags begin
    insert into memory_tag_counts (tag_key, count) values (new.tag_key, 1)
      on conflict (tag_key) do update set count = count + 1;
  end`,
  memory_tag_counts_delete: `after delete on memory_tags begin
    update memory_tag_counts set count = count - 1 where tag_key = old.tag_key;
  end`,
  memory_tag_counts_update: `after update of tag_key on memory_tags when old.tag_key <> new.tag_key begin
    update memory_tag_counts set count = count - 1 where tag_key = old.tag_key;
    insert into memory_tag_counts (tag_key, count) values (new.tag_key, 1)
      on conflict (tag_key) do update set count = count + 1;
  end`,
};

export async function up(db: Kysely<unknown>): Promise<void> {
  const { postgres } = columnTypes(db);
  await db.schema
    .createTable("memory_tag_counts")
    .addColumn("tag_key", "text", (c) => c.primaryKey())
    .addColumn("count", postgres ? "bigint" : "integer", (c) => c.notNull())
    .execute();
  await sql`insert into memory_tag_counts (tag_key, count) select tag_key, count(*) from memory_tags group by tag_key`.execute(
    db,
  );
  if (postgres) {
    for (const [name, { on, changes }] of Object.entries(postgresTriggers)) {
      await sql
        .raw(
          // In one order (by tag), so two transactions counting the same tags queue rather than deadlock.
          `create function ${name}() returns trigger language plpgsql as $$
            begin
              insert into memory_tag_counts (tag_key, count) select tag_key, change from (${changes}) as changed order by tag_key
                on conflict (tag_key) do update set count = memory_tag_counts.count + excluded.count;
              return null;
            end $$`,
        )
        .execute(db);
      await sql.raw(`create trigger ${name} ${on} for each statement execute function ${name}()`).execute(db);
    }
  } else {
    for (const [name, body] of Object.entries(sqliteTriggers)) await sql.raw(`create trigger ${name} ${body}`).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const { postgres } = columnTypes(db);
  for (const name of Object.keys(postgresTriggers)) {
    if (postgres) {
      await sql.raw(`drop trigger if exists ${name} on memory_tags`).execute(db);
      await sql.raw(`drop function if exists ${name}()`).execute(db);
    } else {
      await sql.raw(`drop trigger if exists ${name}`).execute(db);
    }
  }
  await db.schema.dropTable("memory_tag_counts").execute();
}
