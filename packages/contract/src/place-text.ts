/*
 * The list's place filters as text, checked without the schema library: home reads them from its
 * address, and its first screen may not load zod (issue #16). `places.ts` and `memories.ts` build
 * their schemas on these checks, so the page and the server hold a filter to the same rules.
 */

/** Limits of places, shared by the form, the filters and the server. */
export const PlaceLimits = {
  nameMaxLength: 200,
  searchMaxLength: 100,
  searchResultsDefault: 8,
  searchResultsMax: 20,
  /** "Memories near here": within this many kilometres of a memory's place. */
  nearRadiusKm: 25,
  /** Memories listed for one cluster of the map at most; the list's own pages carry on. */
  mapPinsMax: 500,
} as const;

/** `west,south,east,north` in degrees; `west` > `east` crosses the antimeridian. */
export const boundsPattern = /^-?\d{1,3}(\.\d+)?,-?\d{1,2}(\.\d+)?,-?\d{1,3}(\.\d+)?,-?\d{1,2}(\.\d+)?$/;
export const boundsTextMaxLength = 100;

/** Bounds as text: the pattern, longitudes within ±180, latitudes within ±90, south not above north. */
export function isBoundsText(text: string): boolean {
  if (text.length > boundsTextMaxLength || !boundsPattern.test(text)) return false;
  const [west, south, east, north] = text.split(",").map(Number) as [number, number, number, number];
  return Math.abs(west) <= 180 && Math.abs(east) <= 180 && Math.abs(south) <= 90 && Math.abs(north) <= 90 && south <= north;
}

export const pointPattern = /^-?\d{1,2}(\.\d+)?,-?\d{1,3}(\.\d+)?$/;
export const pointTextMaxLength = 60;

/** A point as text, `latitude,longitude` ("memories near here"), within ±90 and ±180. */
export function isPointText(text: string): boolean {
  if (text.length > pointTextMaxLength || !pointPattern.test(text)) return false;
  const [latitude, longitude] = text.split(",").map(Number) as [number, number];
  return Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180;
}

/** ISO 3166-1 alpha-2, as a place's `country_code` ("PT"). */
export const countryCodePattern = /^[A-Z]{2}$/;
