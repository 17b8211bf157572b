import type { Frame, FrameChange, FrameList, FramePairing, FramePairingApproval, TagList } from "@memory-box/contract";
import { ErrorCode } from "@memory-box/contract";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { ApiError, apiFetch } from "@/lib/api-client";

/** The member's side of paired frames (ADR 0076): pairing one by its code, and Settings → Frames. */

const frameKeys = {
  list: () => ["frames"] as const,
  tags: () => ["frames", "tags"] as const,
};

export function useFrames() {
  return useQuery(
    queryOptions({
      queryKey: frameKeys.list(),
      queryFn: ({ signal }) => apiFetch<FrameList>("/api/v1/frames", { signal }),
      refetchOnWindowFocus: true,
    }),
  );
}

/** The collection's tags, to choose a frame's from (`GET /api/v1/tags`). */
export function useTagChoices() {
  return useQuery(
    queryOptions({
      queryKey: frameKeys.tags(),
      queryFn: ({ signal }) => apiFetch<TagList>("/api/v1/tags", { signal }),
    }),
  );
}

/** What looking a code up found: a frame waiting, none with that code, or no answer (try again). */
export type PairingLookup =
  { kind: "waiting"; pairing: FramePairing } | { kind: "not-found" } | { kind: "too-many" } | { kind: "failed" };

/** `GET /api/v1/frames/pairing?user_code=`: whether a frame is waiting with this code. */
export async function lookUpPairing(userCode: string): Promise<PairingLookup> {
  try {
    const pairing = await apiFetch<FramePairing>(`/api/v1/frames/pairing?${new URLSearchParams({ user_code: userCode })}`);
    return { kind: "waiting", pairing };
  } catch (error) {
    if (isPairingGone(error)) return { kind: "not-found" };
    // Wrong codes are counted per member and per address (ADR 0076): past the limit, every code is refused a while.
    return error instanceof ApiError && error.status === 429 ? { kind: "too-many" } : { kind: "failed" };
  }
}

/** The server's "no frame waits with this code" (unknown, expired or already answered: one answer for all three). */
export function isPairingGone(error: unknown): boolean {
  return error instanceof ApiError && (error.code === ErrorCode.frame_pairing_not_found || error.status === 404);
}

/** `POST /api/v1/frames`: the frame is allowed, named, and told what to show. */
export function useApprovePairing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (approval: FramePairingApproval) => apiFetch<Frame>("/api/v1/frames", { method: "POST", body: approval }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: frameKeys.list() }),
  });
}

/** `POST /api/v1/frames/pairing/deny`: the frame hears `access_denied` and shows a new code. */
export function useDenyPairing() {
  return useMutation({
    mutationFn: (userCode: string) =>
      apiFetch<void>("/api/v1/frames/pairing/deny", { method: "POST", body: { user_code: userCode } }),
  });
}

export function useChangeFrame() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: string; change: FrameChange }) =>
      apiFetch<Frame>(`/api/v1/frames/${encodeURIComponent(id)}`, { method: "PATCH", body: change }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: frameKeys.list() }),
  });
}

/** Removes a frame and ends its session: it goes dark at its next refresh. */
export function useRemoveFrame() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<void>(`/api/v1/frames/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: frameKeys.list() }),
  });
}
