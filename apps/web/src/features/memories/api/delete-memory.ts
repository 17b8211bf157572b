import { useMutation, useQueryClient, type QueryClient, type UseMutationOptions } from "@tanstack/react-query";

import { refreshAfterMemoryChange } from "@/features/memories/api/memory-cache";
import { memoryKeys } from "@/features/memories/api/memory-keys";
import { apiFetch } from "@/lib/api-client";

/** Deletes a memory and its photos (204). */
export function deleteMemory(id: string): Promise<void> {
  return apiFetch<void>(`/api/v1/memories/${encodeURIComponent(id)}`, { method: "DELETE" });
}

/** Marks delete mutations, so the live updates can tell this screen's own deletes from others'. */
export const deleteMemoryMutationKey = [...memoryKeys.all, "delete"] as const;

type DeleteMemoryOptions = Omit<UseMutationOptions<void, Error, string>, "mutationFn" | "mutationKey">;

/**
 * Deletes by id. What shows the memory (`refreshAfterMemoryChange`) is refetched before the mutation settles (so a
 * "Deleting..." label lasts until the card is gone). The memory's own cache entry is dropped
 * unless a screen still shows it (the detail page, about to leave; it must not refetch a 404).
 * The caller's callbacks (toasts, a redirect) run after that, even if the caller has unmounted.
 */
export function useDeleteMemory({ onSuccess, ...mutationConfig }: DeleteMemoryOptions = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...mutationConfig,
    mutationKey: deleteMemoryMutationKey,
    mutationFn: deleteMemory,
    onSuccess: async (...args) => {
      const [, id] = args;
      queryClient.removeQueries({
        queryKey: memoryKeys.detail(id),
        exact: true,
        predicate: (query) => query.getObserversCount() === 0,
      });
      await refreshAfterMemoryChange(queryClient);
      await onSuccess?.(...args);
    },
  });
}

/** Whether this client is deleting, or has just deleted, memory `id` (its mutation is still cached). */
export function isDeletedHere(queryClient: QueryClient, id: string): boolean {
  return queryClient
    .getMutationCache()
    .findAll({ mutationKey: deleteMemoryMutationKey })
    .some((mutation) => mutation.state.variables === id && mutation.state.status !== "error");
}
