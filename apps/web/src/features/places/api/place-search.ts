import type { PlaceSearchResult } from "@memory-box/contract";
import { keepPreviousData, useQuery } from "@tanstack/react-query";

import { placeKeys } from "@/features/places/api/place-keys";
import { apiFetch } from "@/lib/api-client";

/** Known places whose name starts with `q` (case and accents ignored), most populous first. */
export function searchPlaces(q: string, { signal }: { signal?: AbortSignal } = {}): Promise<PlaceSearchResult> {
  return apiFetch<PlaceSearchResult>(`/api/v1/places/search?${new URLSearchParams({ q })}`, { signal });
}

/** The search's answer for `q` (already debounced and trimmed); nothing is asked for "". */
export function usePlaceSearch(q: string) {
  return useQuery({
    queryKey: placeKeys.search(q),
    queryFn: ({ signal }) => searchPlaces(q, { signal }),
    enabled: q !== "",
    // The cities data never changes while the app runs.
    staleTime: Infinity,
    retry: false,
    placeholderData: keepPreviousData,
  });
}
