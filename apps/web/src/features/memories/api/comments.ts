import type { Comment, CommentList } from "@memory-box/contract";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { refreshAfterResponseChange } from "@/features/memories/api/memory-cache";
import { memoryKeys } from "@/features/memories/api/memory-keys";
import { apiFetch } from "@/lib/api-client";
import { idempotencyHeaders } from "@/lib/idempotency-key";

const commentsPath = (memoryId: string) => `/api/v1/memories/${encodeURIComponent(memoryId)}/comments`;
const commentPath = (memoryId: string, commentId: string) => `${commentsPath(memoryId)}/${encodeURIComponent(commentId)}`;

/** `GET /api/v1/memories/:id/comments`: oldest first. */
export function useComments(memoryId: string) {
  return useQuery(
    queryOptions({
      queryKey: memoryKeys.comments(memoryId),
      queryFn: ({ signal }) => apiFetch<CommentList>(commentsPath(memoryId), { signal }),
      select: (list) => list.comments,
      retry: false,
    }),
  );
}

/**
 * What a comment change asks for: a new comment (no id; every retry of one intended comment sends
 * the same `idempotencyKey`, ADR 0043), an edit, or a removal.
 */
export type CommentChange =
  | { kind: "add"; body: string; idempotencyKey?: string }
  | { kind: "edit"; commentId: string; body: string }
  | { kind: "delete"; commentId: string };

function changeComment(memoryId: string, change: CommentChange): Promise<Comment | void> {
  switch (change.kind) {
    case "add":
      return apiFetch<Comment>(commentsPath(memoryId), {
        method: "POST",
        body: { body: change.body },
        headers: idempotencyHeaders(change.idempotencyKey),
      });
    case "edit":
      return apiFetch<Comment>(commentPath(memoryId, change.commentId), { method: "PATCH", body: { body: change.body } });
    case "delete":
      return apiFetch<void>(commentPath(memoryId, change.commentId), { method: "DELETE" });
  }
}

/**
 * Adds, edits or deletes a comment, then refetches the comments and the memory's counts (which the
 * cards show too) before the mutation settles, so the form's busy state lasts until the list shows it.
 */
export function useChangeComment(memoryId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: CommentChange) => changeComment(memoryId, change),
    onSettled: () => refreshAfterResponseChange(queryClient, memoryId, "comments"),
  });
}
