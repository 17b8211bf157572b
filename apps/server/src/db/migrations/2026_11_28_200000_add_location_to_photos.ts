import { type Kysely } from "kysely";
import { columnTypes } from "./dialect";

/**
 * Where a photo or video was taken (issue #32, ADR 0058): the GPS position its original carries,
 * read once at upload, WGS 84 degrees; both null when it carries none. Existing rows stay null:
 * their originals are not read again. The files served never carry it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const degrees = columnTypes(db).postgres ? "double precision" : "real";
  await db.schema.alterTable("photos").addColumn("latitude", degrees).execute();
  await db.schema.alterTable("photos").addColumn("longitude", degrees).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("photos").dropColumn("longitude").execute();
  await db.schema.alterTable("photos").dropColumn("latitude").execute();
}
