import type { TagList } from "@memory-box/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";

import { memoryKeys } from "@/features/memories/api/memory-keys";
import { apiFetch } from "@/lib/api-client";

/** Every tag in the collection with its count, most used first. */
export function getTags({ signal }: { signal?: AbortSignal } = {}): Promise<TagList> {
  return apiFetch<TagList>("/api/v1/tags", { signal });
}

export function tagsQueryOptions() {
  return queryOptions({
    queryKey: memoryKeys.tags(),
    queryFn: ({ signal }) => getTags({ signal }),
  });
}

export function useTags() {
  return useQuery(tagsQueryOptions());
}
