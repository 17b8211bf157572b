import type { BoxSettings, BoxSettingsChange } from "@memory-box/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { apiFetch } from "@/lib/api-client";
import { boxKey } from "@/lib/box-key";

/** `GET /api/v1/box`. Types only from the contract: home carries no zod. */
export const boxPath = "/api/v1/box";

/** The box's name, cover and "together since" (ADR 0065), for every member; the live stream refetches it. */
export function useBox() {
  return useQuery({
    queryKey: boxKey,
    queryFn: ({ signal }) => apiFetch<BoxSettings>(boxPath, { signal }),
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
