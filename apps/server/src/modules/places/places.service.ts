import type { MapSettings, PlaceCountryList, PlaceMap } from "@memory-box/contract";
import { type Bounds, gridCell, levelForZoom, mercatorMaxLatitude, parseBounds } from "../../lib/place-grid";
import type { CellRow, PlacesRepository } from "./places.repository";

export interface PlacesServiceDeps {
  places: PlacesRepository;
  /** A photo key's stable URL, as a memory's photos carry them. */
  photoUrl: (key: string) => string;
  /** MAP_STYLE_URL, or undefined for the embedded world map. */
  mapStyleUrl: string | undefined;
}

/** Map cells are about this wide on screen: a mark per 64 × 64 pixels at most. */
const cellPixels = 64;
/**
 * At most this many cells across a view (32 × 32): a view larger than a screen at its zoom is
 * grouped more coarsely, so an answer stays small whatever the bounds asked.
 */
const maxCells = 1024;
/**
 * Grid levels up to this one (zoom 4 and out: continents, the world) are added up over the whole
 * collection once per change and kept: a view there is a filter of at most 4,096 kept cells,
 * where adding up its memories again would read most of them (ADR 0057).
 */
const maxKeptLevel = 6;

/** A level's cells over the whole world at one generation, with their newest memories. */
interface KeptLevel {
  cells: CellRow[];
  total: number;
}

/** The collection's places: the map's marks, the countries, the basemap. Members only (the routes). */
export class PlacesService {
  /** Whole-world levels at `generation` (one generation kept: a change makes them stale). */
  private kept: { generation: number; levels: Map<number, Promise<KeptLevel>> } | undefined;

  constructor(private readonly deps: PlacesServiceDeps) {}

  settings(): MapSettings {
    return { style_url: this.deps.mapStyleUrl ?? null };
  }

  async countries(): Promise<PlaceCountryList> {
    return { countries: await this.deps.places.countries() };
  }

  /**
   * The marks of a map's view: memories within `bounds` grouped by the grid cells of about 64
   * pixels at `zoom`, one mark per cell at its memories' mean point, largest first.
   */
  async map(query: { bounds: string; zoom: number }, generation: number | undefined): Promise<PlaceMap> {
    const bounds = parseBounds(query.bounds);
    const level = boundedLevel(bounds, levelForZoom(query.zoom, cellPixels));
    let cells: CellRow[];
    let total: number;
    if (level <= maxKeptLevel && generation !== undefined) {
      // A kept cell is shown when any of its memories is in view; its mark counts all of them.
      const world = await this.keptLevel(level, generation);
      cells = world.cells.filter((cell) => overlaps(cell, bounds));
      total = world.total;
    } else {
      [cells, total] = await Promise.all([this.deps.places.cells(bounds, level), this.deps.places.countPlaced()]);
      cells.sort(largestFirst);
    }
    return {
      clusters: cells.map(({ memory, ...cell }) => ({
        latitude: cell.latitude,
        longitude: cell.longitude,
        count: cell.count,
        bounds: boundsText({ west: cell.west, south: cell.south, east: cell.east, north: cell.north }),
        memory: {
          id: memory.id,
          title: memory.title,
          memory_date: memory.memory_date,
          place_name: memory.place_name,
          thumbnail_url: memory.thumbnail_key === null ? null : this.deps.photoUrl(memory.thumbnail_key),
        },
      })),
      total,
    };
  }

  /** A level's whole-world cells at `generation`, added up once; requests at once share the reads. */
  private keptLevel(level: number, generation: number): Promise<KeptLevel> {
    if (this.kept?.generation !== generation) this.kept = { generation, levels: new Map() };
    const levels = this.kept.levels;
    let kept = levels.get(level);
    if (!kept) {
      kept = (async () => {
        const [cells, total] = await Promise.all([this.deps.places.cells("world", level), this.deps.places.countPlaced()]);
        cells.sort(largestFirst);
        return { cells, total };
      })();
      // A failed read is not kept: the next request tries again.
      kept.catch(() => levels.delete(level));
      levels.set(level, kept);
    }
    return kept;
  }
}

function largestFirst(a: CellRow, b: CellRow): number {
  return b.count - a.count || (a.memory.id < b.memory.id ? -1 : 1);
}

/** Whether any memory of the cell (its extent) lies within the bounds; west > east crosses the antimeridian. */
function overlaps(cell: CellRow, bounds: Bounds): boolean {
  if (cell.north < bounds.south || cell.south > bounds.north) return false;
  if (bounds.west <= bounds.east) return cell.east >= bounds.west && cell.west <= bounds.east;
  return cell.east >= bounds.west || cell.west <= bounds.east;
}

/** The grid level for the view, coarser while the view would span more than `maxCells` cells. */
function boundedLevel(bounds: Bounds, level: number): number {
  const span = bounds.west <= bounds.east ? bounds.east - bounds.west : 360 - (bounds.west - bounds.east);
  const clamp = (latitude: number) => Math.max(-mercatorMaxLatitude, Math.min(mercatorMaxLatitude, latitude));
  const top = gridCell(clamp(bounds.north), 0).y;
  const bottom = gridCell(clamp(bounds.south), 0).y;
  const finest = 2 ** 24;
  let current = level;
  for (; current > 0; current -= 1) {
    const across = Math.ceil((span / 360) * 2 ** current) + 1;
    const down = Math.ceil(((bottom - top) / finest) * 2 ** current) + 1;
    if (across * down <= maxCells) break;
  }
  return current;
}

/**
 * A cluster's extent as the list's `within` filter takes it: rounded outwards to a millionth of
 * a degree (about 10 cm), so it still holds each of its memories.
 */
function boundsText(bounds: Bounds): string {
  const down = (value: number) => Math.floor(value * 1e6) / 1e6;
  const up = (value: number) => Math.ceil(value * 1e6) / 1e6;
  const text = (value: number) => value.toFixed(6).replace(/\.?0+$/, "");
  return [
    text(Math.max(-180, down(bounds.west))),
    text(Math.max(-90, down(bounds.south))),
    text(Math.min(180, up(bounds.east))),
    text(Math.min(90, up(bounds.north))),
  ].join(",");
}
