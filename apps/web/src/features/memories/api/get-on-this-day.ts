import type { OnThisDay } from "@memory-box/contract";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";

import { onThisDayPath } from "@/features/memories/api/list-paths";
import { memoryKeys } from "@/features/memories/api/memory-keys";
import { apiFetch } from "@/lib/api-client";
import { takeEarlyAnswer } from "@/lib/first-screen";

/** Memories of the same days in earlier years, for the member's calendar `date` (as the first screen's script fetched it, when it did). */
export async function getOnThisDay(date: string, { signal }: { signal?: AbortSignal } = {}): Promise<OnThisDay> {
  const path = onThisDayPath(date);
  const early = await takeEarlyAnswer<OnThisDay>(path);
  return early ?? apiFetch<OnThisDay>(path, { signal });
}

export function useOnThisDay(date: string) {
  return useQuery(
    queryOptions({
      queryKey: memoryKeys.onThisDay(date),
      queryFn: ({ signal }) => getOnThisDay(date, { signal }),
      // A nice-to-have above the list: when it fails, home shows without it rather than waiting.
      retry: false,
      // When the day turns over, yesterday's answer stays until today's arrives: the list below
      // waits for this one to settle, and must not fall back to its loading state at midnight.
      placeholderData: keepPreviousData,
    }),
  );
}
