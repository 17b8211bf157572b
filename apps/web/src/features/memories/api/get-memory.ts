import { ErrorCode, type Memory } from "@memory-box/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";

import { memoryKeys } from "@/features/memories/api/memory-keys";
import { ApiError, apiFetch } from "@/lib/api-client";

/** `GET /api/v1/memories/:id`. */
export function getMemory(id: string, signal?: AbortSignal): Promise<Memory> {
  return apiFetch<Memory>(`/api/v1/memories/${encodeURIComponent(id)}`, { signal });
}

/**
 * The memory does not exist: 404, or 400 because the id in the address is not even a memory id
 * (the server checks it is a UUID). Either way the person sees "Memory not found.".
 */
export function isMemoryMissing(error: unknown): boolean {
  return (
    error instanceof ApiError && (error.status === 404 || (error.status === 400 && error.code === ErrorCode.validation_failed))
  );
}

export function memoryQueryOptions(id: string) {
  return queryOptions({
    queryKey: memoryKeys.detail(id),
    queryFn: ({ signal }) => getMemory(id, signal),
    // A missing memory stays missing; only a flaky network or a server hiccup is worth one more try.
    retry: (failureCount, error) => failureCount < 1 && !(error instanceof ApiError && error.status < 500),
  });
}

/** One memory, for the detail page. */
export function useMemory(id: string) {
  return useQuery(memoryQueryOptions(id));
}
