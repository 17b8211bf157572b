import type { MemoryBatch, MemoryInput } from "@memory-box/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";

import { cacheSavedMemory, refreshAfterMemoryChange } from "@/features/memories/api/memory-cache";
import { apiFetch } from "@/lib/api-client";
import { idempotencyHeaders } from "@/lib/idempotency-key";

/**
 * `POST /api/v1/memories/batch` (ADR 0063): one memory per item, all or none, in the items' order.
 * Every retry of one intended batch sends the same `idempotencyKey`, so it is never made twice.
 */
export function createMemories(items: MemoryInput[], idempotencyKey: string): Promise<MemoryBatch> {
  return apiFetch<MemoryBatch>("/api/v1/memories/batch", {
    method: "POST",
    body: { items },
    headers: idempotencyHeaders(idempotencyKey),
  });
}

/** Adds several memories at once; each one's cache entry is filled, and what lists or counts them is refreshed once. */
export function useCreateMemories() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ items, idempotencyKey }: { items: MemoryInput[]; idempotencyKey: string }) =>
      createMemories(items, idempotencyKey).then((batch) => batch.memories),
    onSuccess: async (memories) => {
      await Promise.all([
        ...memories.map((memory) => cacheSavedMemory(queryClient, memory)),
        refreshAfterMemoryChange(queryClient),
      ]);
    },
  });
}
