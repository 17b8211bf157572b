import { ErrorCode, type Memory, type MemoryInput } from "@memory-box/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";

import { refreshAfterMemoryChange } from "@/features/memories/api/memory-cache";
import { memoryKeys } from "@/features/memories/api/memory-keys";
import { ApiError, apiFetch } from "@/lib/api-client";

export interface UpdateMemoryArgs {
  id: string;
  /** The full new state: fields and the photos to keep, in order (photos not listed are deleted). */
  input: MemoryInput;
  /** The version the edit started from; the server refuses with 409 if someone saved since. */
  version?: number;
}

/** `PUT /api/v1/memories/:id`, a full replace, guarded by `If-Match` when a version is given. */
export function updateMemory({ id, input, version }: UpdateMemoryArgs): Promise<Memory> {
  return apiFetch<Memory>(`/api/v1/memories/${encodeURIComponent(id)}`, {
    method: "PUT",
    body: input,
    headers: version === undefined ? undefined : { "If-Match": `"v${version}"` },
  });
}

/** Someone else saved this memory after the edit began. */
export function isMemoryChanged(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409 && error.code === ErrorCode.memory_changed;
}

/**
 * Saves an edit. Success or failure, what shows the memory, itself included, is refetched: after a
 * failure (409 above all) the cached copy may be the stale one.
 */
export function useUpdateMemory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMemory,
    onSuccess: (memory) => {
      queryClient.setQueryData(memoryKeys.detail(memory.id), memory);
    },
    onSettled: (_memory, _error, { id }) => refreshAfterMemoryChange(queryClient, id),
  });
}
