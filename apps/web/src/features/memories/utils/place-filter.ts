import type { PlaceFilter } from "@/features/memories/api/list-paths";

/** The place filters, in the order their chips show. */
export const placeFilterKeys = ["near", "place", "country", "within"] as const satisfies readonly (keyof PlaceFilter)[];

/**
 * The rules of the contract's `MemoryListQuery` for each filter, written out: any value taken from
 * the contract at run time brings its chunk of zod schemas into home's script.
 */
const valid: Record<keyof PlaceFilter, (value: string) => boolean> = {
  country: (value) => /^[A-Z]{2}$/.test(value),
  place: (value) => value.length <= 400,
  within: (value) =>
    value.length <= 100 && /^-?\d{1,3}(\.\d+)?,-?\d{1,2}(\.\d+)?,-?\d{1,3}(\.\d+)?,-?\d{1,2}(\.\d+)?$/.test(value),
  near: (value) => {
    const match = /^(-?\d{1,2}(?:\.\d+)?),(-?\d{1,3}(?:\.\d+)?)$/.exec(value);
    return match !== null && Math.abs(Number(match[1])) <= 90 && Math.abs(Number(match[2])) <= 180 && value.length <= 60;
  },
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
