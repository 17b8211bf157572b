import { type Kysely, sql } from "kysely";
import { columnTypes } from "./dialect";

/**
 * `memory_months`: how many memories each month of their sort key holds (`YYYY-MM`; undated ones
 * under "0000-00"), the timeline's counts without a filter. Grouping every memory's sort key on
 * each timeline read grew with the collection: at the lifetime benchmark's 1,000,000 memories
 * (issue #37) it read the whole sort-key index per request. Kept by triggers inside the writing
 * transaction, like `memory_stats`, so it is exact at every snapshot whoever writes; a month
 * whose memories are all gone keeps its row at 0 (the read skips it).
 *
 * PostgreSQL: per statement over the transition tables (a bulk insert upserts each month once),
 * and only months whose count changes are written, so an edit that keeps the month costs nothing.
 * SQLite: row triggers; an update only when the month changes.
 */
const monthOf = (row: string) => `substr(${row}.sort_key, 1, 7)`;

const postgresTriggers: Record<string, { on: string; changes: string }> = {
  memory_months_insert: {
    on: "after insert on memories referencing new table as inserted_rows",
    changes: `select ${monthOf("inserted_rows")} as month, count(*) as change from inserted_rows group by 1`,
  },
  memory_months_delete: {
    on: "after delete on memories referencing old table as deleted_rows",
    changes: `select ${monthOf("deleted_rows")} as month, - count(*) as change from deleted_rows group by 1`,
  },
  memory_months_update: {
    on: "after update on memories referencing old table as old_rows new table as new_rows",
    changes: `select month, sum(change) as change from (
        select ${monthOf("new_rows")} as month, 1 as change from new_rows
        union all select ${monthOf("old_rows")} as month, -1 as change from old_rows
      ) as moved group by month having sum(change) <> 0`,
  },
};

const sqliteTriggers: Record<string, string> = {
  memory_months_insert: `after insert on memories begin
    insert into memory_months (month, count) values (${monthOf("new")}, 1)
      on conflict (month) do update set count = count + 1;
  end`,
  memory_months_delete: `after delete on memories begin
    update memory_months set count = count - 1 where month = ${monthOf("old")};
  end`,
  memory_months_update: `after update of sort_key on memories when ${monthOf("old")} <> ${monthOf("new")} begin
    update memory_months set count = count - 1 where month = ${monthOf("old")};
    insert into memory_months (month, count) values (${monthOf("new")}, 1)
      on conflict (month) do update set count = count + 1;
  end`,
};

export async function up(db: Kysely<unknown>): Promise<void> {
  const { postgres } = columnTypes(db);
  await db.schema
    .createTable("memory_months")
    .addColumn("month", "text", (c) => c.primaryKey())
    .addColumn("count", postgres ? "bigint" : "integer", (c) => c.notNull())
    .execute();
  await sql`insert into memory_months (month, count) select substr(sort_key, 1, 7), count(*) from memories group by substr(sort_key, 1, 7)`.execute(
    db,
  );
  if (postgres) {
    for (const [name, { on, changes }] of Object.entries(postgresTriggers)) {
      await sql
        .raw(
          // In one order (by month), so two transactions counting the same months queue rather than deadlock.
          `create function ${name}() returns trigger language plpgsql as $$
            begin
              insert into memory_months (month, count) select month, change from (${changes}) as changed order by month
                on conflict (month) do update set count = memory_months.count + excluded.count;
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
      await sql.raw(`drop trigger if exists ${name} on memories`).execute(db);
      await sql.raw(`drop function if exists ${name}()`).execute(db);
    } else {
      await sql.raw(`drop trigger if exists ${name}`).execute(db);
    }
  }
  await db.schema.dropTable("memory_months").execute();
}
