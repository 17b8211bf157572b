import type { Memory, MemoryInput } from "@memory-box/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";

import { cacheSavedMemory, refreshAfterMemoryChange } from "@/features/memories/api/memory-cache";
import { apiFetch } from "@/lib/api-client";
import { idempotencyHeaders } from "@/lib/idempotency-key";

/**
 * `POST /api/v1/memories`; upload the photos first and list their ids in `photo_ids`. Every retry
 * of one intended memory sends the same `idempotencyKey`, so it is never added twice (ADR 0043).
 */
export function createMemory(input: MemoryInput, idempotencyKey?: string): Promise<Memory> {
  return apiFetch<Memory>("/api/v1/memories", { method: "POST", body: input, headers: idempotencyHeaders(idempotencyKey) });
}

/** Adds a memory; its own cache entry is filled, and what lists or counts it is refreshed. */
export function useCreateMemory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ input, idempotencyKey }: { input: MemoryInput; idempotencyKey: string }) =>
      createMemory(input, idempotencyKey),
    onSuccess: async (memory) => {
      await Promise.all([cacheSavedMemory(queryClient, memory), refreshAfterMemoryChange(queryClient)]);
    },
  });
}
