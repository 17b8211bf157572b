import type { MapView } from "@/features/places/api/map";

/** A map's visible area in degrees, as MapLibre gives it (`getBounds()`): longitudes may run past ±180 on a wrapped world. */
export interface ViewBox {
  west: number;
  south: number;
  east: number;
  north: number;
}

/** Four decimals: about 11 m, finer than any mark; a view moved by less asks again for nothing. */
function degrees(value: number): string {
  const text = value.toFixed(4).replace(/\.?0+$/, "");
  return text === "-0" ? "0" : text;
}

/** A longitude brought into -180…180. */
function wrapLongitude(longitude: number): number {
  const wrapped = ((((longitude + 180) % 360) + 360) % 360) - 180;
  return wrapped === -180 && longitude > 0 ? 180 : wrapped;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * `west,south,east,north` as the API takes it (the contract's `boundsPattern`): latitudes within
 * ±90, longitudes within ±180, `west` > `east` when the view crosses the antimeridian, the whole
 * world when the view shows all of it.
 */
export function boundsParam(box: ViewBox): string {
  const south = clamp(box.south, -90, 90);
  const north = clamp(box.north, -90, 90);
  if (box.east - box.west >= 360) return [degrees(-180), degrees(south), degrees(180), degrees(north)].join(",");
  return [degrees(wrapLongitude(box.west)), degrees(south), degrees(wrapLongitude(box.east)), degrees(north)].join(",");
}

/** What the collection's map asks for at a view: its bounds and its whole zoom level (the server clusters per level). */
export function mapViewOf(box: ViewBox, zoom: number): MapView {
  return { bounds: boundsParam(box), zoom: clamp(Math.floor(zoom), 0, 24) };
}
