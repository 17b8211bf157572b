import type { PlaceCountryList } from "@memory-box/contract";
import { useQuery } from "@tanstack/react-query";

import { memoryKeys } from "@/features/memories/api/memory-keys";
import { apiFetch } from "@/lib/api-client";

export const countriesPath = "/api/v1/places/countries";

/** The countries the collection has memories in, with their counts, most memories first. */
export function getCountries({ signal }: { signal?: AbortSignal } = {}): Promise<PlaceCountryList> {
  return apiFetch<PlaceCountryList>(countriesPath, { signal });
}

export function useCountries() {
  return useQuery({
    // Under the memories: a memory saved or deleted changes the counts.
    queryKey: memoryKeys.countries(),
    queryFn: ({ signal }) => getCountries({ signal }),
    // A filter beside the list: when it fails, home shows without it.
    retry: false,
  });
}
