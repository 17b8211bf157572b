import { MemoryTimelineQuery, type GeoPoint } from "@memory-box/contract";

import { paths } from "@/config/paths";
import type { PlaceFilter } from "@/features/memories/api/list-paths";
import { nearParam } from "@/features/places/utils/place-names";

/** The list's place filters, in the order their chips show. */
export const placeFilterKeys = ["near", "place", "country", "within"] as const satisfies readonly (keyof PlaceFilter)[];

/** Beside `near` in the address: the name of the place it is near, for its chip ("Near Sintra"); never sent. */
export const nearNameParam = "name";

/**
 * Home's place filters from its address (`/?near=38.8,-9.4&name=Sintra`, `/?country=PT`): those
 * the API would refuse (a malformed code or point) are left out, so a mistyped link shows the
 * whole list rather than an error.
 */
export function placeFilterOf(search: URLSearchParams): PlaceFilter {
  const filter: PlaceFilter = {};
  for (const key of placeFilterKeys) {
    const value = search.get(key);
    if (value && MemoryTimelineQuery.shape[key].safeParse(value).success) filter[key] = value;
  }
  return filter;
}

/** Home's address with one place filter: the memories near a place, or in a country. */
export function homeWithPlaceFilter(filter: { near: GeoPoint & { name?: string } } | { country: string }): string {
  const search = new URLSearchParams();
  if ("near" in filter) {
    search.set("near", nearParam(filter.near));
    if (filter.near.name) search.set(nearNameParam, filter.near.name);
  } else search.set("country", filter.country);
  return `${paths.home}?${search}`;
}
