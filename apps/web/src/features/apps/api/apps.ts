import type { AppRegistration, RegisteredApp, RegisteredAppList } from "@memory-box/contract";
import type { OAuthGrant } from "@supabase/auth-js";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { apiFetch } from "@/lib/api-client";
import { getAuthClient } from "@/lib/auth-client";

const grantsKey = ["apps", "grants"] as const;
const registeredKey = ["apps", "registered"] as const;

/** The apps the member allowed to sign them in (ADR 0075), through the auth API as auth-js reads them. */
export function useAppGrants() {
  return useQuery({
    queryKey: grantsKey,
    queryFn: async (): Promise<OAuthGrant[]> => {
      const { data, error } = await getAuthClient().oauth.listGrants();
      if (error) throw error;
      return data;
    },
  });
}

/** Ends an app's access: its sessions end and it must ask again. */
export function useRevokeGrant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (clientId: string) => {
      const { error } = await getAuthClient().oauth.revokeGrant({ clientId });
      if (error) throw error;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: grantsKey }),
  });
}

/** Owners only: the apps registered on this server. */
export function useRegisteredApps(enabled: boolean) {
  return useQuery({
    queryKey: registeredKey,
    queryFn: ({ signal }) => apiFetch<RegisteredAppList>("/api/v1/apps", { signal }),
    enabled,
  });
}

/** The answer carries a confidential app's secret, the one time it is shown. */
export function useRegisterApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (registration: AppRegistration) =>
      apiFetch<RegisteredApp>("/api/v1/apps", { method: "POST", body: registration }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: registeredKey }),
  });
}

export function useRemoveApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (clientId: string) => apiFetch<void>(`/api/v1/apps/${encodeURIComponent(clientId)}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: registeredKey }),
  });
}

/** A new secret for a confidential app; the old one stops working at once. */
export function useNewAppSecret() {
  return useMutation({
    mutationFn: (clientId: string) =>
      apiFetch<RegisteredApp>(`/api/v1/apps/${encodeURIComponent(clientId)}/secret`, { method: "POST" }),
  });
}
