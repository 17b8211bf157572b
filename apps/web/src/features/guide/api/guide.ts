import type { FirstRunGuide } from "@memory-box/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { apiFetch } from "@/lib/api-client";

/** The first-run guide's state (ADR 0066). Types only from the contract: home carries no zod. */
export const guideKey = ["account", "guide"] as const;

/**
 * Whether home shows the guide: read once per start of the app (never kept offline: `/api/v1/account`
 * is not cached, ADR 0031); no guide when it cannot be read, so an error never puts it in the way.
 */
export function useFirstRunGuide() {
  return useQuery({
    queryKey: guideKey,
    queryFn: ({ signal }) => apiFetch<FirstRunGuide>("/api/v1/account/guide", { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    retry: false,
  });
}

/** Closes (true) or brings back (false) the member's guide, on all their devices. */
export function useChangeFirstRunGuide() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (dismissed: boolean) => apiFetch<FirstRunGuide>("/api/v1/account/guide", { method: "PUT", body: { dismissed } }),
    onMutate: (dismissed) => {
      // Closing hides the guide at once; the server's answer follows.
      if (!dismissed) return;
      queryClient.setQueryData<FirstRunGuide>(guideKey, (guide) =>
        guide ? { ...guide, dismissed_at: guide.dismissed_at ?? new Date().toISOString() } : guide,
      );
    },
    onSuccess: (guide) => queryClient.setQueryData(guideKey, guide),
  });
}
