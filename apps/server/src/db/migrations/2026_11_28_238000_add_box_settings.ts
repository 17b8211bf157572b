import { type Kysely, sql } from "kysely";
import { columnTypes } from "./dialect";

/**
 * The box's own look (issue #34 "Their box", ADR 0065): its name, its cover photo and the day the
 * couple has been together since, one row per instance (`id` 1, as `memory_stats`), written the
 * first time an owner saves them; no row means nothing set. A table rather than an instance setting
 * because the cover is a reference that must follow the photo: deleting it clears the cover, on both
 * engines (a plain foreign key: one row names at most one photo, so the check per deleted photo is
 * one lookup of a one-row table). `updated_by` is the owner who saved last, cleared when their
 * account goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp, date } = columnTypes(db);
  await db.schema
    .createTable("box_settings")
    .addColumn("id", "integer", (c) => c.primaryKey().check(sql`id = 1`))
    // 1–80 characters after trimming, or null: the service's rule (BoxSettingsChange in the contract).
    .addColumn("name", "text")
    .addColumn("cover_photo_id", "text", (c) => c.references("photos.id").onDelete("set null"))
    // "YYYY-MM-DD", from the year 1000, never after today.
    .addColumn("together_since", date)
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .addColumn("updated_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("box_settings").execute();
}
