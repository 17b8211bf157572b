import { type Kysely, sql } from "kysely";
import type { Database } from "../../db/schema";
import { type Bounds, gridBits } from "../../lib/place-grid";

/** One cell of the map's grid as the database adds it up. */
export interface CellRow {
  count: number;
  latitude: number;
  longitude: number;
  south: number;
  north: number;
  west: number;
  east: number;
  /** The id of its newest memory (in listing order). */
  newestId: string;
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
 * map's cells added up by the database over `memories_place_idx` alone (the newest memory of a
 * cell is the end of its greatest `sort_key`), and the countries with their counts.
 */
export class PlacesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Memories with a place within `bounds`, grouped into the cells of the grid of 2^level × 2^level
   * (lib/place-grid.ts): count, mean point, extent and newest memory per cell.
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
      newest: string;
    }>`select count(*) as count, avg(place_latitude) as latitude, avg(place_longitude) as longitude,
        min(place_latitude) as south, max(place_latitude) as north,
        min(place_longitude) as west, max(place_longitude) as east, max(sort_key) as newest
      from memories
      where ${within}
      group by ${cellX}, ${cellY}`.execute(this.db);
    return rows.map((row) => ({
      count: Number(row.count),
      latitude: Number(row.latitude),
      longitude: Number(row.longitude),
      south: Number(row.south),
      north: Number(row.north),
      west: Number(row.west),
      east: Number(row.east),
      // sortKey(): `{date}|{created_at}|{id}`.
      newestId: row.newest.slice(row.newest.lastIndexOf("|") + 1),
    }));
  }

  /** These memories' names for the map, with the thumbnail key of each one's first photo. */
  async clusterMemories(ids: string[]): Promise<ClusterMemoryRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom("memories")
      .select([
        "memories.id",
        "memories.title",
        "memories.memory_date",
        "memories.place_name",
        (eb) =>
          eb
            .selectFrom("photos")
            .select("photos.thumbnail_key")
            .whereRef("photos.memory_id", "=", "memories.id")
            .orderBy("photos.position")
            .limit(1)
            .as("thumbnail_key"),
      ])
      .where("memories.id", "in", ids)
      .execute();
    return rows.map((row) => ({ ...row, place_name: row.place_name ?? "", thumbnail_key: row.thumbnail_key ?? null }));
  }

  /** How many memories have a place. */
  async countPlaced(): Promise<number> {
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
