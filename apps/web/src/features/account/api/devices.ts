import type { DeviceList } from "@memory-box/contract";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { apiFetch } from "@/lib/api-client";
import { getAuthClient } from "@/lib/auth-client";

const deviceKeys = { list: () => ["account", "devices"] as const };

export function useDevices() {
  return useQuery(
    queryOptions({
      queryKey: deviceKeys.list(),
      queryFn: ({ signal }) => apiFetch<DeviceList>("/api/v1/account/devices", { signal }),
      refetchOnWindowFocus: true,
    }),
  );
}

/** Ends one of the member's other sessions; the list is read again whatever the answer. */
export function useSignOutDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<void>(`/api/v1/account/devices/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: deviceKeys.list() }),
  });
}

/** `POST /auth/v1/logout?scope=others`: every session but this one ends. */
export function useSignOutOtherDevices() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const { error } = await getAuthClient().signOut({ scope: "others" });
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: deviceKeys.list() }),
  });
}
