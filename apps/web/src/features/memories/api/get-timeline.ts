import type { MemoryTimeline } from "@memory-box/contract";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";

import type { MemoryFilter } from "@/features/memories/api/get-memories";
import { timelinePath } from "@/features/memories/api/list-paths";
import { memoryKeys } from "@/features/memories/api/memory-keys";
import { apiFetch } from "@/lib/api-client";

/** How many memories each month holds (newest first), and the undated ones, for the list's search and filters. */
export function getTimeline(filter: MemoryFilter, { signal }: { signal?: AbortSignal } = {}): Promise<MemoryTimeline> {
  return apiFetch<MemoryTimeline>(timelinePath(filter), { signal });
}

export function useTimeline(filter: MemoryFilter) {
  return useQuery(
    queryOptions({
      queryKey: memoryKeys.timeline(filter),
      queryFn: ({ signal }) => getTimeline(filter, { signal }),
      // A way through the list, not the list: when it fails, home shows without it.
      retry: false,
      placeholderData: keepPreviousData,
    }),
  );
}
