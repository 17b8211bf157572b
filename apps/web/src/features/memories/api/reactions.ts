import type { ReactionEmoji, ReactionList } from "@memory-box/contract";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { refreshAfterResponseChange } from "@/features/memories/api/memory-cache";
import { memoryKeys } from "@/features/memories/api/memory-keys";
import { apiFetch } from "@/lib/api-client";

const reactionsPath = (memoryId: string) => `/api/v1/memories/${encodeURIComponent(memoryId)}/reactions`;

/** `GET /api/v1/memories/:id/reactions`: the counts, with the member's own marked. */
export function useReactions(memoryId: string) {
  return useQuery(
    queryOptions({
      queryKey: memoryKeys.reactions(memoryId),
      queryFn: ({ signal }) => apiFetch<ReactionList>(reactionsPath(memoryId), { signal }),
      select: (list) => list.reactions,
      retry: false,
    }),
  );
}

/**
 * Adds (`PUT`) or takes back (`DELETE`) the member's reaction. The answer is the memory's reactions
 * as they now are, put in place at once; the memory's counts (on cards too) are refetched.
 */
export function useToggleReaction(memoryId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ emoji, mine }: { emoji: ReactionEmoji; mine: boolean }) =>
      apiFetch<ReactionList>(`${reactionsPath(memoryId)}/${encodeURIComponent(emoji)}`, { method: mine ? "DELETE" : "PUT" }),
    onSuccess: (list) => queryClient.setQueryData(memoryKeys.reactions(memoryId), list),
    // The reactions themselves came back with the answer.
    onSettled: () => refreshAfterResponseChange(queryClient, memoryId),
  });
}
