import type { TagList } from "@memory-box/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";

import { tagsPath } from "@/features/memories/api/list-paths";
import { memoryKeys } from "@/features/memories/api/memory-keys";
import { apiFetch } from "@/lib/api-client";
import { takeEarlyAnswer } from "@/lib/first-screen";

/** Every tag in the collection with its count, most used first (as the first screen's script fetched it, when it did). */
export async function getTags({ signal }: { signal?: AbortSignal } = {}): Promise<TagList> {
  const early = await takeEarlyAnswer<TagList>(tagsPath);
  return early ?? apiFetch<TagList>(tagsPath, { signal });
}

export function tagsQueryOptions() {
  return queryOptions({
    queryKey: memoryKeys.tags(),
    queryFn: ({ signal }) => getTags({ signal }),
  });
}

/** `enabled: false` waits (the form's tag field asks once it is used). */
export function useTags({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...tagsQueryOptions(), enabled });
}
