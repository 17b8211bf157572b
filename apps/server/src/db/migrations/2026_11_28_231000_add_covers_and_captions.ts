import { type Kysely, sql } from "kysely";
import { isPostgres } from "./dialect";

/**
 * A memory's cover photo and a photo's caption (issue #34, ADR 0062). `memories.cover_photo_id`
 * names one of the memory's own photos (the service checks that it is); when that photo is
 * deleted (it left the memory in an edit, or the memory went) the cover is cleared, on both
 * engines. `photos.caption` is the member's text under a photo, null without one. Existing
 * memories have no cover (the first photo leads) and photos no caption: nothing to fill.
 *
 * On SQLite a foreign key clears the cover. On PostgreSQL a foreign key's action would run an
 * UPDATE of memories for every photo deleted, even one in no memory, and the list's generation
 * (a trigger for each statement on memories) would move with it, emptying the list caches at every
 * sweep of unattached uploads: a trigger for each deleted photo clears the cover only where one
 * names it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await db.schema.alterTable("memories").addColumn("cover_photo_id", "text").execute();
    await sql`create function memories_cover_photo_deleted() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from memories where cover_photo_id = old.id) then
          update memories set cover_photo_id = null where cover_photo_id = old.id;
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger memories_cover_photo_deleted after delete on photos
      for each row execute function memories_cover_photo_deleted()`.execute(db);
  } else {
    await db.schema
      .alterTable("memories")
      .addColumn("cover_photo_id", "text", (c) => c.references("photos.id").onDelete("set null"))
      .execute();
  }
  // Finds the memory a deleted photo was the cover of without reading the others.
  await sql`create index memories_cover_photo_idx on memories (cover_photo_id) where cover_photo_id is not null`.execute(db);
  await db.schema.alterTable("photos").addColumn("caption", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("photos").dropColumn("caption").execute();
  await sql`drop index memories_cover_photo_idx`.execute(db);
  if (isPostgres(db)) {
    await sql`drop trigger memories_cover_photo_deleted on photos`.execute(db);
    await sql`drop function memories_cover_photo_deleted()`.execute(db);
  }
  await db.schema.alterTable("memories").dropColumn("cover_photo_id").execute();
}
