import { type Kysely, sql } from "kysely";
import type { Database } from "../../db/schema";
import { type Bounds, gridBits } from "../../lib/place-grid";

/** One cell of the map's grid as the database adds it up, with its newest memory. */
export interface CellRow {
  count: number;
  latitude: number;
  longitude: number;
  south: number;
  north: number;
  west: number;
  east: number;
  /** Its newest memory (in listing order), as the map names it. */
  memory: ClusterMemoryRow;
}

export interface ClusterMemoryRow {
  id: string;
  title: string;
  memory_date: string | null;
  place_name: string;
  thumbnail_key: string | null;
}

/**
 * The collection's places, read straight from the place columns of `memories` (ADR 0057): the
 * map's cells added up by the database over `memories_place_idx` alone, each with its newest
 * memory, and the countries with their counts.
 */
export class PlacesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Memories with a place within `bounds`, grouped into the cells of the grid of 2^level × 2^level
   * (lib/place-grid.ts): count, mean point, extent and newest memory per cell, in one statement.
   * A cell's newest memory is the row of its greatest `sort_key` (unique: it ends with the id),
   * found through `memories_sort_key_idx`: no second round trip naming hundreds of ids.
   */
  async cells(bounds: Bounds | "world", level: number): Promise<CellRow[]> {
    const divisor = 2 ** (gridBits - level);
    const within =
      bounds === "world"
        ? sql`place_latitude is not null`
        : sql`place_latitude between ${bounds.south} and ${bounds.north} and ${longitudeWithin(bounds)}`;
    // An integer literal (the server's own power of two, never the request's text): integers on
    // both sides, so `/` divides as integers (a floor: cells are never negative). A bound number
    // would be a REAL on SQLite, and divide exactly.
    const cellX = sql`place_x / ${sql.lit(divisor)}`;
    const cellY = sql`place_y / ${sql.lit(divisor)}`;
    const { rows } = await sql<{
      count: number | string;
      latitude: number;
      longitude: number;
      south: number;
      north: number;
      west: number;
      east: number;
      id: string;
      title: string;
      memory_date: string | null;
      place_name: string | null;
      thumbnail_key: string | null;
    }>`with cells as (
        select count(*) as count, avg(place_latitude) as latitude, avg(place_longitude) as longitude,
          min(place_latitude) as south, max(place_latitude) as north,
          min(place_longitude) as west, max(place_longitude) as east, max(sort_key) as newest
        from memories
        where ${within}
        group by ${cellX}, ${cellY})
      select cells.count, cells.latitude, cells.longitude, cells.south, cells.north, cells.west, cells.east,
        newest.id, newest.title, newest.memory_date, newest.place_name,
        (select photos.thumbnail_key from photos where photos.memory_id = newest.id
          order by photos.position limit 1) as thumbnail_key
      from cells join memories as newest on newest.sort_key = cells.newest`.execute(this.db);
    return rows.map((row) => ({
      count: Number(row.count),
      latitude: Number(row.latitude),
      longitude: Number(row.longitude),
      south: Number(row.south),
      north: Number(row.north),
      west: Number(row.west),
      east: Number(row.east),
      memory: {
        id: row.id,
        title: row.title,
        memory_date: row.memory_date,
        place_name: row.place_name ?? "",
        thumbnail_key: row.thumbnail_key ?? null,
      },
    }));
  }

  /**
   * How many memories have a place: `memory_stats.placed`, kept by triggers (migration
   * 2026_11_28_224000); counted only if that row were missing (removed by hand).
   */
  async countPlaced(): Promise<number> {
    const stats = await this.db.selectFrom("memory_stats").select("placed").where("id", "=", 1).executeTakeFirst();
    if (stats) return Number(stats.placed);
    const row = await this.db
      .selectFrom("memories")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("place_latitude", "is not", null)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Each country memories have a place in, with how many, most first. */
  async countries(): Promise<{ country_code: string; count: number }[]> {
    const rows = await this.db
      .selectFrom("memories")
      .select((eb) => ["place_country", eb.fn.countAll<number>().as("count")])
      .where("place_country", "is not", null)
      .groupBy("place_country")
      .orderBy("count", "desc")
      .orderBy("place_country")
      .execute();
    return rows.map((row) => ({ country_code: row.place_country!, count: Number(row.count) }));
  }
}

/** Longitudes within bounds; across the antimeridian (west > east), east of `west` or west of `east`. */
function longitudeWithin(bounds: Bounds) {
  return bounds.west <= bounds.east
    ? sql`place_longitude between ${bounds.west} and ${bounds.east}`
    : sql`(place_longitude >= ${bounds.west} or place_longitude <= ${bounds.east})`;
}
