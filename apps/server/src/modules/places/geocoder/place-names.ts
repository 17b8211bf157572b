import type { GeoPoint, KnownPlace } from "@memory-box/contract";
import { CountryNames } from "./country-names";
import { KnownPlaces } from "./known-places";
import { foldPlaceName } from "./place-fold";

/**
 * Place names without an outside service (ADR 0058): forward and reverse lookups in the GeoNames
 * cities data the server ships. An interface, so that services using it take a fake in tests.
 */
export interface PlaceNames {
  /**
   * Known places whose name starts with `query` (case and accents ignored), most populous first,
   * at most `limit`. Text after a comma narrows by country: "Sintra, Portugal", "Sintra, PT".
   */
  search(query: string, limit: number): Promise<KnownPlace[]>;
  /** The known place nearest `point` within `reverseRadiusKm`, or null (at sea, far from any town). */
  reverse(point: GeoPoint): Promise<KnownPlace | null>;
  /**
   * The country of `point` (ISO 3166-1 alpha-2): the nearest known place's within
   * `countryRadiusKm`, or null. Near a border it may name the neighbour: a country of the nearest
   * town, not of the land's borders.
   */
  countryAt(point: GeoPoint): Promise<string | null>;
}

/**
 * How far a point may be from a place of 1,000 people to be named after it: a photo from a
 * trail or a beach is named by the town it was taken from; farther out (at sea, in a desert)
 * a town's name would mislead.
 */
export const reverseRadiusKm = 50;
/** How far from the nearest known place a point still gets its country: coastal waters and a ferry crossing do. */
export const countryRadiusKm = 200;

interface Loaded {
  places: KnownPlaces;
  countries: CountryNames;
}

let shared: Promise<Loaded> | undefined;

/**
 * The data, loaded on first use and then kept: once per process, however many callers (or
 * servers, in tests) ask at once. A failed load is tried again by the next caller.
 */
export function loadPlaceData(): Promise<Loaded> {
  shared ??= KnownPlaces.load().then(
    (places) => ({ places, countries: new CountryNames(places.countryList) }),
    (error: unknown) => {
      shared = undefined;
      throw error;
    },
  );
  return shared;
}

/** `PlaceNames` over the GeoNames cities data, loaded lazily (`loadPlaceData`). */
export class GeoNamesPlaceNames implements PlaceNames {
  async search(query: string, limit: number): Promise<KnownPlace[]> {
    const comma = query.lastIndexOf(",");
    const name = foldPlaceName(comma === -1 ? query : query.slice(0, comma));
    const countryText = comma === -1 ? "" : query.slice(comma + 1);
    if (name === "") return [];
    const { places, countries } = await loadPlaceData();
    let inCountry: ((country: number) => boolean) | undefined;
    if (foldPlaceName(countryText) !== "") {
      const wanted = countries.matching(countryText);
      if (wanted.size === 0) return [];
      inCountry = (country) => wanted.has(country);
    }
    return places.startingWith(name, limit, inCountry).map((index) => places.place(index));
  }

  async reverse(point: GeoPoint): Promise<KnownPlace | null> {
    const { places } = await loadPlaceData();
    const index = places.nearest(point, reverseRadiusKm);
    return index === -1 ? null : places.place(index);
  }

  async countryAt(point: GeoPoint): Promise<string | null> {
    const { places } = await loadPlaceData();
    const index = places.nearest(point, countryRadiusKm);
    return index === -1 ? null : places.countryOf(index);
  }
}
