import { z } from "zod";
import {
  PlaceLimits,
  boundsPattern,
  boundsTextMaxLength,
  isBoundsText,
  isPointText,
  pointPattern,
  pointTextMaxLength,
} from "./place-text";
import { requiredText } from "./text";

/**
 * Places (issue #32, ADR 0057): where a memory happened, named by the GeoNames cities data the
 * server ships (no outside service), shown on a map of the collection. A memory's place is as
 * private as the memory: every route here is for members only.
 */

const latitude = z.number().min(-90).max(90);
const longitude = z.number().min(-180).max(180);

/** A point on the earth, WGS 84 degrees. */
export const GeoPoint = z.object({ latitude, longitude }).strict();
export type GeoPoint = z.infer<typeof GeoPoint>;

/**
 * What the memory form sends as a memory's place: a name the member chose or typed ("Sintra",
 * "Grandma's garden") and its coordinates. The server adds the country from the coordinates.
 */
export const PlaceInput = z.object({ name: requiredText(PlaceLimits.nameMaxLength), latitude, longitude }).strict();
export type PlaceInput = z.input<typeof PlaceInput>;

/**
 * A memory's place. `country_code` is ISO 3166-1 alpha-2 ("PT"), found by the server from the
 * coordinates (the nearest known place's country), null at sea or far from any; screens name the
 * country in the reader's language (`Intl.DisplayNames`).
 */
export const Place = z.object({
  name: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  country_code: z.string().nullable(),
});
export type Place = z.infer<typeof Place>;

/** A named place of the GeoNames cities data (1,000 people and more). */
export const KnownPlace = z.object({
  name: z.string(),
  country_code: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  population: z.number().int(),
});
export type KnownPlace = z.infer<typeof KnownPlace>;

/** `GET /api/v1/places/search?q=&limit=`: known places whose name starts with `q` (folded), most populous first. */
export const PlaceSearchQuery = z
  .object({
    q: requiredText(PlaceLimits.searchMaxLength),
    limit: z.coerce.number().int().min(1).max(PlaceLimits.searchResultsMax).default(PlaceLimits.searchResultsDefault),
  })
  .strict();
export const PlaceSearchResult = z.object({ places: z.array(KnownPlace) });
export type PlaceSearchResult = z.infer<typeof PlaceSearchResult>;

/**
 * A number in a query string. A blank value is a missing one, not 0 (as `Number("")` reads it): a
 * client that lost its latitude gets 400, not the Gulf of Guinea.
 */
const queryNumber = (min: number, max: number) =>
  z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    z.coerce.number().min(min).max(max),
  );

/** `GET /api/v1/places/reverse?latitude=&longitude=`: the nearest known place, or null when none is near. */
export const ReversePlaceQuery = z.object({ latitude: queryNumber(-90, 90), longitude: queryNumber(-180, 180) }).strict();
export const ReversePlaceResult = z.object({ place: KnownPlace.nullable() });
export type ReversePlaceResult = z.infer<typeof ReversePlaceResult>;

const boundsMessage = "must be west,south,east,north in degrees";

/**
 * A map's bounds as text (`place-text.ts`): used by the map (`GET /api/v1/places/map`) and the
 * list's `within` filter.
 */
export const BoundsText = z
  .string()
  .max(boundsTextMaxLength)
  .regex(boundsPattern, { message: boundsMessage })
  .refine(isBoundsText, { message: boundsMessage });

const pointMessage = "must be latitude,longitude in degrees";

/** A point as text (`place-text.ts`), "memories near here". */
export const PointText = z
  .string()
  .max(pointTextMaxLength)
  .regex(pointPattern, { message: pointMessage })
  .refine(isPointText, { message: pointMessage });

/** `GET /api/v1/places/map?bounds=&zoom=`: the collection's places within a map's view. */
export const PlaceMapQuery = z
  .object({
    bounds: BoundsText,
    zoom: z.coerce.number().min(0).max(24),
  })
  .strict();
export type PlaceMapQuery = z.input<typeof PlaceMapQuery>;

/**
 * One mark on the map: memories close together at this zoom drawn as one, at their mean position.
 * `bounds` (west,south,east,north) holds them all: the list's `within` filter lists them. `memory`
 * names the newest of them (the only one when `count` is 1).
 */
export const PlaceCluster = z.object({
  latitude: z.number(),
  longitude: z.number(),
  count: z.number().int(),
  bounds: z.string(),
  memory: z.object({
    id: z.uuid(),
    title: z.string(),
    memory_date: z.string().nullable(),
    place_name: z.string(),
    thumbnail_url: z.string().nullable(),
  }),
});
export type PlaceCluster = z.infer<typeof PlaceCluster>;

/** The map's answer: its marks, and how many memories with a place the collection holds in all. */
export const PlaceMap = z.object({ clusters: z.array(PlaceCluster), total: z.number().int() });
export type PlaceMap = z.infer<typeof PlaceMap>;

/** A country the collection has memories in, for the filter: code and count, most memories first. */
export const PlaceCountry = z.object({ country_code: z.string(), count: z.number().int() });
export const PlaceCountryList = z.object({ countries: z.array(PlaceCountry) });
export type PlaceCountryList = z.infer<typeof PlaceCountryList>;

/**
 * `GET /api/v1/places/settings`: the basemap the operator chose (`MAP_STYLE_URL`, any MapLibre
 * style), or null for the embedded world map the web app draws from its own data.
 */
export const MapSettings = z.object({ style_url: z.string().nullable() });
export type MapSettings = z.infer<typeof MapSettings>;
