import type { TagRenamed } from "@memory-box/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";

import { memoryKeys } from "@/features/memories/api/memory-keys";
import { apiFetch } from "@/lib/api-client";

/**
 * An owner renames a tag on every memory (or merges it into another by its name, issue #34). The
 * memories, their lists and the tags are read again whatever the answer: other screens hear of
 * it through the live stream.
 */
export function useRenameTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ from, to }: { from: string; to: string }) =>
      apiFetch<TagRenamed>(`/api/v1/tags/${encodeURIComponent(from)}`, { method: "PUT", body: { name: to } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: memoryKeys.all }),
  });
}
