import type { Memory, MemoryCoverInput, PhotoCaptionInput } from "@memory-box/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";

import { refreshAfterMemoryChange } from "@/features/memories/api/memory-cache";
import { memoryKeys } from "@/features/memories/api/memory-keys";
import { apiFetch } from "@/lib/api-client";

/** `PUT /api/v1/memories/:id/cover` (ADR 0062): one of its photos leads its page; null for the first. */
export function setCover({ memoryId, photoId }: { memoryId: string; photoId: string | null }): Promise<Memory> {
  const body: MemoryCoverInput = { photo_id: photoId };
  return apiFetch<Memory>(`/api/v1/memories/${encodeURIComponent(memoryId)}/cover`, { method: "PUT", body });
}

/** `PUT /api/v1/photos/:id/caption` (ADR 0062): the caption, or null to remove it; answers the memory. */
export function setCaption({ photoId, caption }: { photoId: string; caption: string | null }): Promise<Memory> {
  const body: PhotoCaptionInput = { caption };
  return apiFetch<Memory>(`/api/v1/photos/${encodeURIComponent(photoId)}/caption`, { method: "PUT", body });
}

/** The two as mutations: the memory answered replaces the page's copy; lists refetch what shows it. */
export function usePhotoDetails() {
  const queryClient = useQueryClient();
  const settle = {
    onSuccess: (memory: Memory) => queryClient.setQueryData(memoryKeys.detail(memory.id), memory),
    onSettled: (memory: Memory | undefined) => (memory ? refreshAfterMemoryChange(queryClient, memory.id) : undefined),
  };
  return {
    cover: useMutation({ mutationFn: setCover, ...settle }),
    caption: useMutation({ mutationFn: setCaption, ...settle }),
  };
}
