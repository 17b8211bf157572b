import { type Kysely, sql } from "kysely";
import { columnTypes } from "./dialect";

/**
 * `memory_stats.generation` also moves when an author's display name or an attached photo
 * changes, so it covers everything a list page shows and whole pages can be cached by it (the
 * service keeps pages as JSON text per generation). Photos are attached and detached inside a
 * memory's save, which moves the generation already; these triggers keep it exact for writes
 * that bypass the service too. Uploads not yet attached to a memory do not move it.
 *
 * PostgreSQL's triggers are per statement, like the counters' (a bulk import must not update
 * the stats row once per photo: inside one transaction that grows the row's version chain
 * quadratically); the photo triggers look at the statement's rows through transition tables.
 */
const sqliteTriggers = {
  memory_stats_profiles_insert: "after insert on profiles",
  memory_stats_profiles_update: "after update of display_name on profiles",
  memory_stats_profiles_delete: "after delete on profiles",
  memory_stats_photos_insert: "after insert on photos when new.memory_id is not null",
  memory_stats_photos_update: "after update on photos when old.memory_id is not null or new.memory_id is not null",
  memory_stats_photos_delete: "after delete on photos when old.memory_id is not null",
};

const postgresTriggers: Record<string, [table: string, when: string, fn: string]> = {
  memory_stats_profiles: [
    "profiles",
    "after insert or delete or update of display_name on profiles for each statement",
    "memory_stats_changed",
  ],
  memory_stats_photos_insert: [
    "photos",
    "after insert on photos referencing new table as new_rows for each statement",
    "memory_stats_photos_changed",
  ],
  memory_stats_photos_update: [
    "photos",
    "after update on photos referencing old table as old_rows new table as new_rows for each statement",
    "memory_stats_photos_changed",
  ],
  memory_stats_photos_delete: [
    "photos",
    "after delete on photos referencing old table as old_rows for each statement",
    "memory_stats_photos_changed",
  ],
};

export async function up(db: Kysely<unknown>): Promise<void> {
  if (columnTypes(db).postgres) {
    // Moves the generation when the statement touched a photo that is (or was) attached.
    await sql`create function memory_stats_photos_changed() returns trigger language plpgsql as $$
      declare
        touched boolean := false;
      begin
        -- Separate statements: plpgsql plans each when it runs, and old_rows or new_rows exists
        -- only for the events that have it.
        if tg_op in ('INSERT', 'UPDATE') then
          touched := exists (select 1 from new_rows where memory_id is not null);
        end if;
        if not touched and tg_op in ('UPDATE', 'DELETE') then
          touched := exists (select 1 from old_rows where memory_id is not null);
        end if;
        if touched then
          update memory_stats set generation = generation + 1 where id = 1;
        end if;
        return null;
      end $$`.execute(db);
    // memory_stats_changed() comes from the list counters migration.
    for (const [name, [, when, fn]] of Object.entries(postgresTriggers)) {
      await sql`create trigger ${sql.ref(name)} ${sql.raw(when)} execute function ${sql.ref(fn)}()`.execute(db);
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
    await sql`drop function memory_stats_photos_changed()`.execute(db);
  } else {
    for (const name of Object.keys(sqliteTriggers)) await sql`drop trigger ${sql.ref(name)}`.execute(db);
  }
}
