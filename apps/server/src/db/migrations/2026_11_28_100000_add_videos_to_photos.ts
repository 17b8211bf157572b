import { type Kysely, sql } from "kysely";
import { columnTypes } from "./dialect";

/**
 * Videos and Live Photos live in the photos table (ADR 0055): a row is a still (`kind` 'photo'),
 * a video ('video') or a still with its motion ('live'). A video's `object_key` is its original as
 * uploaded and its preview, thumbnail and display keys are its poster's; a Live Photo keeps its
 * still's keys and names its clip's original in `motion_key`. `web_key` is the metadata-free copy
 * that plays (`web_content_type`), named from the upload on, and served only once `status` is
 * 'ready'; 'processing' while the media job makes it, 'failed' (with `error_code`) when it could
 * not. Existing rows stay ready stills.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // A video may be larger than PostgreSQL's integer holds (VIDEO_MAX_BYTES is 2 GB by default); SQLite's integer is 64-bit.
  if (columnTypes(db).postgres) await sql`alter table photos alter column bytes type bigint`.execute(db);
  await db.schema
    .alterTable("photos")
    .addColumn("kind", "text", (c) => c.notNull().defaultTo("photo"))
    .execute();
  await db.schema.alterTable("photos").addColumn("duration_ms", "integer").execute();
  await db.schema.alterTable("photos").addColumn("web_key", "text").execute();
  await db.schema.alterTable("photos").addColumn("web_content_type", "text").execute();
  // Sizes of the web copy and of a Live Photo's clip, for "Your data" (`bytes` is the original's).
  await db.schema.alterTable("photos").addColumn("web_bytes", "bigint").execute();
  await db.schema.alterTable("photos").addColumn("motion_key", "text").execute();
  await db.schema.alterTable("photos").addColumn("motion_bytes", "bigint").execute();
  await db.schema
    .alterTable("photos")
    .addColumn("status", "text", (c) => c.notNull().defaultTo("ready"))
    .execute();
  await db.schema.alterTable("photos").addColumn("error_code", "text").execute();
  // The file reconciler asks which keys a row names, in every file column.
  await db.schema.createIndex("photos_web_key_idx").on("photos").column("web_key").execute();
  await db.schema.createIndex("photos_motion_key_idx").on("photos").column("motion_key").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("photos_motion_key_idx").execute();
  await db.schema.dropIndex("photos_web_key_idx").execute();
  for (const column of [
    "error_code",
    "status",
    "motion_bytes",
    "motion_key",
    "web_bytes",
    "web_content_type",
    "web_key",
    "duration_ms",
    "kind",
  ]) {
    await db.schema.alterTable("photos").dropColumn(column).execute();
  }
}
