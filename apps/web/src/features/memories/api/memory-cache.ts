import type { QueryClient } from "@tanstack/react-query";

import type { Memory } from "@memory-box/contract";

import { isTimelineKey, memoryKeys } from "@/features/memories/api/memory-keys";
import { isMediaSettled } from "@/features/memories/utils/media-progress";

/*
 * What each kind of change can alter on screen, in one place: this screen's own saves and the live
 * stream's news of others' refresh the same queries. Each resolves once the queries on screen have
 * been fetched again, so a mutation's busy state can last until the screen shows its result.
 */

/**
 * A memory added, edited or deleted: the lists (and their timeline), the tag and country counts, On this day,
 * the previous/next links, and the memory itself when `id` is given (not for one deleted here:
 * its page is leaving and must not fetch a 404).
 */
export function refreshAfterMemoryChange(queryClient: QueryClient, id?: string): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: memoryKeys.lists() }),
    queryClient.invalidateQueries({ queryKey: memoryKeys.tags() }),
    queryClient.invalidateQueries({ queryKey: memoryKeys.countries() }),
    queryClient.invalidateQueries({ queryKey: memoryKeys.onThisDays() }),
    queryClient.invalidateQueries({ queryKey: memoryKeys.neighbourLists() }),
    id !== undefined && queryClient.invalidateQueries({ queryKey: memoryKeys.detail(id), exact: true }),
  ]);
}

/**
 * Keeps a memory as this screen's save answered it. A video or Live Photo whose copy the live
 * stream said was ready (or failed) while the save was on its way is still "processing" in that
 * answer, and no later event will say otherwise: the memory is fetched again.
 */
export function cacheSavedMemory(queryClient: QueryClient, memory: Memory): Promise<unknown> {
  queryClient.setQueryData(memoryKeys.detail(memory.id), memory);
  const stale = memory.photos.some((photo) => photo.status === "processing" && isMediaSettled(photo.id));
  return stale ? queryClient.invalidateQueries({ queryKey: memoryKeys.detail(memory.id), exact: true }) : Promise.resolve();
}

/**
 * A comment or reaction on memory `id`: the counts its cards (in the lists and On this day) and its
 * page show, and its comments or reactions (`responses`; left out when the caller already holds
 * them as they now are). Tags, the timeline's months and the neighbours do not change.
 */
export function refreshAfterResponseChange(
  queryClient: QueryClient,
  id: string | undefined,
  responses?: "comments" | "reactions",
): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({
      queryKey: memoryKeys.lists(),
      predicate: (query) => !isTimelineKey(query.queryKey),
    }),
    queryClient.invalidateQueries({ queryKey: memoryKeys.onThisDays() }),
    id !== undefined && queryClient.invalidateQueries({ queryKey: memoryKeys.detail(id), exact: true }),
    id !== undefined &&
      responses !== undefined &&
      queryClient.invalidateQueries({ queryKey: responses === "comments" ? memoryKeys.comments(id) : memoryKeys.reactions(id) }),
  ]);
}
