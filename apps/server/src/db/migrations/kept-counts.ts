import { type Kysely, sql } from "kysely";
import { columnTypes } from "./dialect";

/**
 * A table of counts kept by triggers: how many rows of `of` fall under each key (`keyOf` a row),
 * written inside the writing transaction, so it is exact at every snapshot whoever writes. A key
 * whose rows are all gone keeps its row at 0 (readers skip it).
 *
 * PostgreSQL: per statement over the transition tables (a bulk insert upserts each key once), only
 * keys whose count changes written, in one order (by key) so two transactions counting the same
 * keys queue rather than deadlock. SQLite: row triggers; an update only when the key changes.
 */
export interface KeptCounts {
  /** The counts' table, e.g. `memory_months`; its triggers are named after it. */
  table: string;
  /** Its key column (text, the primary key). */
  key: string;
  /** The table counted. */
  of: string;
  /** The key of a row of `of`, as SQL over the row's name (`new`, `old`, a transition table). */
  keyOf: (row: string) => string;
  /** The column of `of` whose update can move a row to another key. */
  changedBy: string;
}

const triggerNames = (counts: KeptCounts) => ["insert", "delete", "update"].map((event) => `${counts.table}_${event}`);

export async function createKeptCounts(db: Kysely<unknown>, counts: KeptCounts): Promise<void> {
  const { postgres } = columnTypes(db);
  const { table, key, of, keyOf, changedBy } = counts;
  await db.schema
    .createTable(table)
    .addColumn(key, "text", (c) => c.primaryKey())
    .addColumn("count", postgres ? "bigint" : "integer", (c) => c.notNull())
    .execute();
  await sql
    .raw(`insert into ${table} (${key}, count) select ${keyOf(of)}, count(*) from ${of} group by ${keyOf(of)}`)
    .execute(db);
  const [insert, remove, update] = triggerNames(counts) as [string, string, string];
  const addOne = (row: string) =>
    `insert into ${table} (${key}, count) values (${keyOf(row)}, 1) on conflict (${key}) do update set count = count + 1;`;
  const takeOne = (row: string) => `update ${table} set count = count - 1 where ${key} = ${keyOf(row)};`;
  if (postgres) {
    const statements = [
      {
        name: insert,
        on: `after insert on ${of} referencing new table as inserted_rows`,
        changes: `select ${keyOf("inserted_rows")} as ${key}, count(*) as change from inserted_rows group by 1`,
      },
      {
        name: remove,
        on: `after delete on ${of} referencing old table as deleted_rows`,
        changes: `select ${keyOf("deleted_rows")} as ${key}, - count(*) as change from deleted_rows group by 1`,
      },
      {
        name: update,
        on: `after update on ${of} referencing old table as old_rows new table as new_rows`,
        changes: `select ${key}, sum(change) as change from (
            select ${keyOf("new_rows")} as ${key}, 1 as change from new_rows
            union all select ${keyOf("old_rows")} as ${key}, -1 as change from old_rows
          ) as moved group by ${key} having sum(change) <> 0`,
      },
    ];
    for (const { name, on, changes } of statements) {
      await sql
        .raw(
          `create function ${name}() returns trigger language plpgsql as $$
            begin
              insert into ${table} (${key}, count) select ${key}, change from (${changes}) as changed order by ${key}
                on conflict (${key}) do update set count = ${table}.count + excluded.count;
              return null;
            end $$`,
        )
        .execute(db);
      await sql.raw(`create trigger ${name} ${on} for each statement execute function ${name}()`).execute(db);
    }
  } else {
    await sql.raw(`create trigger ${insert} after insert on ${of} begin ${addOne("new")} end`).execute(db);
    await sql.raw(`create trigger ${remove} after delete on ${of} begin ${takeOne("old")} end`).execute(db);
    await sql
      .raw(
        `create trigger ${update} after update of ${changedBy} on ${of} when ${keyOf("old")} <> ${keyOf("new")}
          begin ${takeOne("old")} ${addOne("new")} end`,
      )
      .execute(db);
  }
}

export async function dropKeptCounts(db: Kysely<unknown>, counts: KeptCounts): Promise<void> {
  const { postgres } = columnTypes(db);
  for (const name of triggerNames(counts)) {
    if (postgres) {
      await sql.raw(`drop trigger if exists ${name} on ${counts.of}`).execute(db);
      await sql.raw(`drop function if exists ${name}()`).execute(db);
    } else {
      await sql.raw(`drop trigger if exists ${name}`).execute(db);
    }
  }
  await db.schema.dropTable(counts.table).execute();
}
