import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import { columnTypes } from "./dialect";

/**
 * Two things places need of what is already stored (issue #32).
 *
 * 1. Photos uploaded before positions were read at upload (migration 2026_11_28_200000, ADR 0058)
 * have none, so the memory form could not offer their place. The first `photo.locations` media
 * job (ADR 0054) is queued here, once per database, when there are stills without a position: it
 * reads a batch of their originals and queues the next (`PhotosService.readMissingLocations`).
 * Jobs are durable and leased, so the read survives restarts and runs once across processes.
 *
 * 2. `memory_stats.placed`: how many memories have a place (ADR 0057), the map's `total`. Counting
 * them on every map request read the whole place index (29,853 entries at the benchmark's
 * 100,000 memories: ~2.5 ms of PostgreSQL's CPU on a quiet machine, ~8 ms cold); kept by triggers
 * like `total`, inside the writing transaction, so it is exact at every snapshot whoever writes.
 *
 * PostgreSQL: per statement over the transition tables (a bulk insert moves the row once), and
 * the row is updated only when the count changes, so an edit that keeps or has no place costs no
 * extra row version. SQLite: row triggers, only for rows whose having a place changes.
 */
const postgresTriggers: Record<string, { on: string; count: string }> = {
  memory_stats_placed_insert: {
    on: "after insert on memories referencing new table as inserted_rows",
    count: "(select count(*) from inserted_rows where place_latitude is not null)",
  },
  memory_stats_placed_delete: {
    on: "after delete on memories referencing old table as deleted_rows",
    count: "- (select count(*) from deleted_rows where place_latitude is not null)",
  },
  memory_stats_placed_update: {
    on: "after update on memories referencing old table as old_rows new table as new_rows",
    count:
      "(select count(*) from new_rows where place_latitude is not null) - (select count(*) from old_rows where place_latitude is not null)",
  },
};

const sqliteTriggers: Record<string, { on: string; change: string }> = {
  memory_stats_placed_insert: { on: "after insert on memories when new.place_latitude is not null", change: "+ 1" },
  memory_stats_placed_delete: { on: "after delete on memories when old.place_latitude is not null", change: "- 1" },
  memory_stats_placed_update: {
    on: "after update of place_latitude on memories when (old.place_latitude is null) <> (new.place_latitude is null)",
    change: "+ (case when new.place_latitude is null then -1 else 1 end)",
  },
};

export async function up(db: Kysely<unknown>): Promise<void> {
  const { postgres } = columnTypes(db);
  const { rows: unread } = await sql`select 1 from photos where latitude is null and kind in ('photo', 'live') limit 1`.execute(
    db,
  );
  if (unread.length > 0) {
    const now = new Date().toISOString();
    await sql`insert into media_jobs (id, subject_id, kind, state, attempts, progress, run_after, created_at, updated_at)
      values (${randomUUID()}, '', 'photo.locations', 'queued', 0, 0, ${now}, ${now}, ${now})`.execute(db);
  }
  await db.schema
    .alterTable("memory_stats")
    .addColumn("placed", postgres ? "bigint" : "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update memory_stats set placed = (select count(*) from memories where place_latitude is not null)`.execute(db);
  if (postgres) {
    for (const [name, { on, count }] of Object.entries(postgresTriggers)) {
      await sql
        .raw(
          `create function ${name}() returns trigger language plpgsql as $$
            declare change bigint := ${count};
            begin
              if change <> 0 then
                update memory_stats set placed = placed + change where id = 1;
              end if;
              return null;
            end $$`,
        )
        .execute(db);
      await sql.raw(`create trigger ${name} ${on} for each statement execute function ${name}()`).execute(db);
    }
  } else {
    for (const [name, { on, change }] of Object.entries(sqliteTriggers)) {
      await sql
        .raw(`create trigger ${name} ${on} begin update memory_stats set placed = placed ${change} where id = 1; end`)
        .execute(db);
    }
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
  await db.schema.alterTable("memory_stats").dropColumn("placed").execute();
  // Positions read meanwhile stay: they are the originals' own.
  await sql`delete from media_jobs where kind = 'photo.locations'`.execute(db);
}
