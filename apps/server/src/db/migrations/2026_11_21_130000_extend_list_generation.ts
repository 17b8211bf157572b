import { type Kysely, sql } from "kysely";
import { columnTypes } from "./dialect";

/**
 * `memory_stats.generation` also moves when an author's display name or an attached photo
 * changes, so it covers everything a list page shows and whole pages can be cached by it (the
 * service keeps pages as JSON text per generation). Photos are attached and detached inside a
 * memory's save, which moves the generation already; these triggers keep it exact for writes
 * that bypass the service too. Uploads not yet attached to a memory do not move it.
 *
 * PostgreSQL's photo triggers are per row, so they can look at `memory_id`: a memory has a few
 * photos, not thousands, so the stats row is updated a few times per save.
 */
const sqliteTriggers = {
  memory_stats_profiles_insert: "after insert on profiles",
  memory_stats_profiles_update: "after update of display_name on profiles",
  memory_stats_profiles_delete: "after delete on profiles",
  memory_stats_photos_insert: "after insert on photos when new.memory_id is not null",
  memory_stats_photos_update: "after update on photos when old.memory_id is not null or new.memory_id is not null",
  memory_stats_photos_delete: "after delete on photos when old.memory_id is not null",
};

const postgresTriggers: Record<string, [table: string, when: string]> = {
  memory_stats_profiles: ["profiles", "after insert or delete or update of display_name on profiles for each statement"],
  memory_stats_photos_insert: ["photos", "after insert on photos for each row when (new.memory_id is not null)"],
  memory_stats_photos_update: ["photos", "after update on photos for each row when (old.memory_id is not null or new.memory_id is not null)"],
  memory_stats_photos_delete: ["photos", "after delete on photos for each row when (old.memory_id is not null)"],
};

export async function up(db: Kysely<unknown>): Promise<void> {
  if (columnTypes(db).postgres) {
    // memory_stats_changed() (from the list counters migration) moves the generation.
    for (const [name, [, when]] of Object.entries(postgresTriggers)) {
      await sql`create trigger ${sql.ref(name)} ${sql.raw(when)} execute function memory_stats_changed()`.execute(db);
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
    for (const [name, [table]] of Object.entries(postgresTriggers)) await sql`drop trigger ${sql.ref(name)} on ${sql.table(table)}`.execute(db);
  } else {
    for (const name of Object.keys(sqliteTriggers)) await sql`drop trigger ${sql.ref(name)}`.execute(db);
  }
}
