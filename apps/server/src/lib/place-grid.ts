/**
 * The geometry places need (ADR 0057): the map's Web Mercator grid, map bounds, and distances.
 *
 * A memory's point is kept as a cell of a 2^24 × 2^24 grid over the Web Mercator world (as map
 * tiles divide it: x grows eastwards from the antimeridian, y southwards from the top). A cell of
 * a coarser grid of 2^level × 2^level is then the point's cell divided by 2^(24 − level), an
 * integer division both engines do on an index's values.
 */
export const gridBits = 24;
const gridSize = 2 ** gridBits;
/** Web Mercator stops here: the square world map's top and bottom edges. */
export const mercatorMaxLatitude = 85.0511287798066;
const earthRadiusKm = 6371.0088;

/** The point's cell on the finest grid. */
export function gridCell(latitude: number, longitude: number): { x: number; y: number } {
  const clamped = Math.max(-mercatorMaxLatitude, Math.min(mercatorMaxLatitude, latitude));
  const x = (longitude + 180) / 360;
  const sine = Math.sin((clamped * Math.PI) / 180);
  const y = 0.5 - Math.log((1 + sine) / (1 - sine)) / (4 * Math.PI);
  const cell = (value: number) => Math.min(gridSize - 1, Math.max(0, Math.floor(value * gridSize)));
  return { x: cell(x), y: cell(y) };
}

/** A map's view or a cluster's extent: `west` > `east` crosses the antimeridian. */
export interface Bounds {
  west: number;
  south: number;
  east: number;
  north: number;
}

/** `west,south,east,north`, as the contract's `BoundsText` checked it. */
export function parseBounds(text: string): Bounds {
  const [west, south, east, north] = text.split(",").map(Number) as [number, number, number, number];
  return { west, south, east, north };
}

/** `latitude,longitude`, as the contract's `PointText` checked it. */
export function parsePoint(text: string): { latitude: number; longitude: number } {
  const [latitude, longitude] = text.split(",").map(Number) as [number, number];
  return { latitude, longitude };
}

/** Great-circle distance in kilometres (haversine). */
export function distanceKm(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const radians = Math.PI / 180;
  const dLatitude = (b.latitude - a.latitude) * radians;
  const dLongitude = (b.longitude - a.longitude) * radians;
  const h =
    Math.sin(dLatitude / 2) ** 2 +
    Math.cos(a.latitude * radians) * Math.cos(b.latitude * radians) * Math.sin(dLongitude / 2) ** 2;
  return 2 * earthRadiusKm * Math.asin(Math.min(1, Math.sqrt(h)));
}

export { earthRadiusKm };

/**
 * Bounds holding every point within `radiusKm` of `point`: a prefilter for "near", the exact
 * distance checked after. Near a pole every longitude is; across the antimeridian west > east.
 */
export function boundsAround(point: { latitude: number; longitude: number }, radiusKm: number): Bounds {
  const degrees = (radiusKm / earthRadiusKm) * (180 / Math.PI);
  const south = Math.max(-90, point.latitude - degrees);
  const north = Math.min(90, point.latitude + degrees);
  const widest = Math.max(Math.abs(south), Math.abs(north));
  if (widest >= 89.9) return { west: -180, south, east: 180, north };
  const spread = degrees / Math.cos((widest * Math.PI) / 180);
  if (spread >= 180) return { west: -180, south, east: 180, north };
  const wrap = (longitude: number) => (longitude > 180 ? longitude - 360 : longitude < -180 ? longitude + 360 : longitude);
  return { west: wrap(point.longitude - spread), south, east: wrap(point.longitude + spread), north };
}

/** The grid level whose cells are `cellPixels` wide on a map at `zoom` (tiles of 256 pixels). */
export function levelForZoom(zoom: number, cellPixels = 64): number {
  return Math.max(0, Math.min(gridBits, Math.floor(zoom) + Math.round(Math.log2(256 / cellPixels))));
}
