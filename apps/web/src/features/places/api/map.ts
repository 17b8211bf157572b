import type { MapSettings, MemoryPage, PlaceMap } from "@memory-box/contract";
import { infiniteQueryOptions, keepPreviousData, queryOptions, useInfiniteQuery, useQuery } from "@tanstack/react-query";

import { apiFetch } from "@/lib/api-client";

/** A map's view as the API takes it: `west,south,east,north` in degrees, and a whole zoom level. */
export interface MapView {
  bounds: string;
  zoom: number;
}

export const mapSettingsPath = "/api/v1/places/settings";

/** `GET /api/v1/places/map` for a view. */
export function placeMapPath({ bounds, zoom }: MapView): string {
  return `/api/v1/places/map?${new URLSearchParams({ bounds, zoom: String(zoom) }).toString()}`;
}

/** `GET /api/v1/memories?within=`: the memories of one cluster (its `bounds`), a page at a time. */
export function memoriesWithinPath(within: string, cursor: string | null): string {
  const params = new URLSearchParams({ within });
  if (cursor) params.set("cursor", cursor);
  return `/api/v1/memories?${params.toString()}`;
}

/**
 * The key family a change to the memories refreshes (the memory lists', which the app names when
 * it draws the map, app/routes/places.tsx): the map's clusters and a cluster's list sit under it,
 * so this member's saves and others' news from the live stream refresh them too.
 */
export type ListsKey = readonly unknown[];

export const placeKeys = {
  settings: ["places", "settings"] as const,
  map: (lists: ListsKey, view: MapView) => [...lists, "places-map", view] as const,
  within: (lists: ListsKey, bounds: string) => [...lists, "within", bounds] as const,
};

/** The operator's basemap (`MAP_STYLE_URL`) or null for the embedded world map; it changes only with a restart. */
export function mapSettingsQueryOptions() {
  return queryOptions({
    queryKey: placeKeys.settings,
    queryFn: ({ signal }) => apiFetch<MapSettings>(mapSettingsPath, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useMapSettings() {
  return useQuery(mapSettingsQueryOptions());
}

/** The collection's marks within `view`; null waits for the map to know its view. The last answer stays on screen while the next loads. */
export function usePlaceMap(lists: ListsKey, view: MapView | null) {
  return useQuery({
    queryKey: placeKeys.map(lists, view ?? { bounds: "", zoom: 0 }),
    queryFn: ({ signal }) => apiFetch<PlaceMap>(placeMapPath(view!), { signal }),
    enabled: view !== null,
    placeholderData: keepPreviousData,
  });
}

export function memoriesWithinQueryOptions(lists: ListsKey, within: string) {
  return infiniteQueryOptions({
    queryKey: placeKeys.within(lists, within),
    queryFn: ({ pageParam, signal }) => apiFetch<MemoryPage>(memoriesWithinPath(within, pageParam), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.next_cursor,
  });
}

/** The memories of a cluster the member opened; null when none is open. */
export function useMemoriesWithin(lists: ListsKey, within: string | null) {
  return useInfiniteQuery({ ...memoriesWithinQueryOptions(lists, within ?? ""), enabled: within !== null });
}
