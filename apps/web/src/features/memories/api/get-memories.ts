import type { MemoryPage } from "@memory-box/contract";
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";

import { memoriesPath, type PlaceFilter } from "@/features/memories/api/list-paths";
import { memoryKeys } from "@/features/memories/api/memory-keys";
import { apiFetch } from "@/lib/api-client";
import { takeEarlyAnswer } from "@/lib/first-screen";

/**
 * The home filter: search text and the chosen tags (memories carrying all of them; none for
 * every memory), and the place filters from the address (issue #32), each left out when not set,
 * so an unfiltered list's key stays `{ q, tags }`.
 */
export interface MemoryFilter extends PlaceFilter {
  q: string;
  tags: readonly string[];
}

export interface GetMemoriesParams extends Partial<MemoryFilter> {
  from?: string;
  cursor?: string | null;
  limit?: number;
  signal?: AbortSignal;
}

/**
 * One page of the collection, newest memory date first; search and tag are applied by the API.
 * The page the first screen's script already asked for (ADR 0026) is taken from it, not asked again.
 */
export async function getMemories({ signal, ...params }: GetMemoriesParams = {}): Promise<MemoryPage> {
  const path = memoriesPath(params);
  const early = await takeEarlyAnswer<MemoryPage>(path);
  return early ?? apiFetch<MemoryPage>(path, { signal });
}

/**
 * Pages chained by `next_cursor`; a refetch (after a change) re-walks the chain from the first page.
 * `from` (a timeline month, or `undated`) starts the first page there; "" starts at the newest.
 */
export function memoriesInfiniteQueryOptions(filter: MemoryFilter, from = "") {
  return infiniteQueryOptions({
    queryKey: memoryKeys.list(from ? { ...filter, from } : filter),
    queryFn: ({ pageParam, signal }) => getMemories({ ...filter, from, cursor: pageParam, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.next_cursor,
  });
}

/** The memory list for `filter` from `from`. While a new filter or start loads, the previous results stay on screen. */
export function useMemories(filter: MemoryFilter, from = "") {
  return useInfiniteQuery({ ...memoriesInfiniteQueryOptions(filter, from), placeholderData: keepPreviousData });
}
