import type { PlaceCountryList } from "@memory-box/contract";
import { useQuery } from "@tanstack/react-query";

import { apiFetch } from "@/lib/api-client";

export const countriesPath = "/api/v1/places/countries";

/**
 * Under the memories' keys, as `memoryKeys.countries()` (which the memories' saves and live
 * updates refresh): a memory saved or deleted changes the counts.
 */
export const countriesQueryKey = ["memories", "countries"] as const;

/** The countries the collection has memories in, with their counts, most memories first. */
export function getCountries({ signal }: { signal?: AbortSignal } = {}): Promise<PlaceCountryList> {
  return apiFetch<PlaceCountryList>(countriesPath, { signal });
}

export function useCountries() {
  return useQuery({
    queryKey: countriesQueryKey,
    queryFn: ({ signal }) => getCountries({ signal }),
    // A filter beside the list: when it fails, home shows without it.
    retry: false,
  });
}
