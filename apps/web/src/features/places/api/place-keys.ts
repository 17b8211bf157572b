/** TanStack Query keys of the places feature's lookups (the map's are its own). */
export const placeKeys = {
  all: ["places"] as const,
  search: (q: string) => [...placeKeys.all, "search", q] as const,
  reverse: (latitude: number, longitude: number) => [...placeKeys.all, "reverse", latitude, longitude] as const,
};
