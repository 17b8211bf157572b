import type { BoxSettings, BoxSettingsChange } from "@memory-box/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { apiFetch } from "@/lib/api-client";
import { boxKey, boxPath } from "@/lib/box-key";
import { takeEarlyAnswer } from "@/lib/first-screen";

/**
 * The box's name, cover and "together since" (ADR 0065), for every member, as the first screen's
 * script fetched it when it did; the live stream refetches it. Types only from the contract: home
 * carries no zod. A nice-to-have above the list: when it fails, home shows without it.
 */
export function useBox() {
  return useQuery({
    queryKey: boxKey,
    queryFn: async ({ signal }) => (await takeEarlyAnswer<BoxSettings>(boxPath)) ?? apiFetch<BoxSettings>(boxPath, { signal }),
    retry: false,
  });
}

/** An owner saves all three at once; the answer is the box as saved. */
export function useChangeBox() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: BoxSettingsChange) => apiFetch<BoxSettings>(boxPath, { method: "PUT", body: change }),
    onSuccess: (box) => queryClient.setQueryData(boxKey, box),
  });
}
