import type { Kysely } from "kysely";

/**
 * A memory's cover photo and a photo's caption (issue #34, ADR 0062). `memories.cover_photo_id`
 * names one of the memory's own photos (the service checks that it is); when that photo is
 * deleted (it left the memory in an edit, or the memory went) the foreign key clears it, on both
 * engines. `photos.caption` is the member's text under a photo, null without one. Existing
 * memories have no cover (the first photo leads) and photos no caption: nothing to fill.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("memories")
    .addColumn("cover_photo_id", "text", (c) => c.references("photos.id").onDelete("set null"))
    .execute();
  await db.schema.alterTable("photos").addColumn("caption", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("photos").dropColumn("caption").execute();
  await db.schema.alterTable("memories").dropColumn("cover_photo_id").execute();
}
