import type { MemoryNeighbours } from "@memory-box/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";

import { memoryKeys } from "@/features/memories/api/memory-keys";
import { apiFetch } from "@/lib/api-client";

/** The memories before (newer) and after (older) this one in the list's order. */
export function useMemoryNeighbours(id: string) {
  return useQuery(
    queryOptions({
      queryKey: memoryKeys.neighbours(id),
      queryFn: ({ signal }) => apiFetch<MemoryNeighbours>(`/api/v1/memories/${encodeURIComponent(id)}/neighbours`, { signal }),
      // Only a way onwards: when it fails, the page shows without it.
      retry: false,
    }),
  );
}
