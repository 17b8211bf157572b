import { countryCodePattern, isBoundsText, isPointText, PlaceLimits } from "@memory-box/contract";

import type { PlaceFilter } from "@/features/memories/api/list-paths";

/** The place filters, in the order their chips show. */
export const placeFilterKeys = ["near", "place", "country", "within"] as const satisfies readonly (keyof PlaceFilter)[];

/** The contract's rules for each filter (its schema-free checks: zod stays out of home's script). */
const valid: Record<keyof PlaceFilter, (value: string) => boolean> = {
  country: (value) => countryCodePattern.test(value),
  place: (value) => value.length <= PlaceLimits.nameMaxLength * 2,
  within: isBoundsText,
  near: isPointText,
};

/**
 * Home's place filters from its address (`/?near=38.8,-9.4&name=Sintra`, `/?country=PT`): those
 * the API would refuse (a malformed code or point) are left out, so a mistyped link shows the
 * whole list rather than an error.
 */
export function placeFilterOf(search: URLSearchParams): PlaceFilter {
  const filter: PlaceFilter = {};
  for (const key of placeFilterKeys) {
    const value = search.get(key);
    if (value && valid[key](value)) filter[key] = value;
  }
  return filter;
}
