import { type Kysely, sql } from "kysely";

/**
 * A memory's place (issue #32, ADR 0057): columns on `memories`, all null for a memory without
 * one. `place_name` as the member chose it, its coordinates (WGS 84 degrees), `place_country`
 * (ISO 3166-1 alpha-2, found from the coordinates; null at sea) and `place_key`, the name folded
 * for the list's place filter. `place_x` and `place_y` are the point on a Web Mercator grid of
 * 2^24 × 2^24 cells (lib/place-grid.ts), so the map groups memories into cells by integer division.
 * Existing memories have no place: nothing to fill.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("memories").addColumn("place_name", "text").execute();
  await db.schema.alterTable("memories").addColumn("place_latitude", "double precision").execute();
  await db.schema.alterTable("memories").addColumn("place_longitude", "double precision").execute();
  await db.schema.alterTable("memories").addColumn("place_country", "text").execute();
  await db.schema.alterTable("memories").addColumn("place_key", "text").execute();
  await db.schema.alterTable("memories").addColumn("place_x", "integer").execute();
  await db.schema.alterTable("memories").addColumn("place_y", "integer").execute();
  // The map and the `within` and `near` filters: a range of latitudes, the rest read from the
  // index alone (the newest memory of a cluster is the end of its greatest sort_key).
  await db.schema
    .createIndex("memories_place_idx")
    .on("memories")
    .columns(["place_latitude", "place_longitude", "place_x", "place_y", "sort_key"])
    .where(sql.ref("place_latitude"), "is not", null)
    .execute();
  // The country and place filters, in listing order.
  await db.schema
    .createIndex("memories_place_country_idx")
    .on("memories")
    .columns(["place_country", "sort_key"])
    .where(sql.ref("place_country"), "is not", null)
    .execute();
  await db.schema
    .createIndex("memories_place_key_idx")
    .on("memories")
    .columns(["place_key", "sort_key"])
    .where(sql.ref("place_key"), "is not", null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of ["memories_place_key_idx", "memories_place_country_idx", "memories_place_idx"]) {
    await db.schema.dropIndex(index).execute();
  }
  for (const column of ["place_y", "place_x", "place_key", "place_country", "place_longitude", "place_latitude", "place_name"]) {
    await db.schema.alterTable("memories").dropColumn(column).execute();
  }
}
