import type { UserIdentity } from "@supabase/auth-js";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import type { SignInProvider } from "@/features/auth/api/providers";
import type { Wallet } from "@/features/auth/api/wallet";
import { getAuthClient } from "@/lib/auth-client";

/**
 * The account's connected sign-in ways, for Settings (TanStack Query's hooks: apart from
 * providers.ts, which the sign-in page loads without the query client).
 */
const identityKeys = { list: () => ["account", "identities"] as const };

export function useIdentities() {
  return useQuery(
    queryOptions({
      queryKey: identityKeys.list(),
      queryFn: async (): Promise<UserIdentity[]> => {
        const { data, error } = await getAuthClient().getUserIdentities();
        if (error) throw error;
        return data.identities;
      },
    }),
  );
}

/** Links the provider to this account: the browser goes to the provider and comes back to the settings. */
export function useLinkIdentity() {
  return useMutation({
    mutationFn: async (provider: SignInProvider) => {
      const { error } = await getAuthClient().linkIdentity({
        provider: provider.id as "keycloak",
        options: { redirectTo: `${window.location.origin}/settings` },
      });
      if (error) throw error;
    },
  });
}

/** Connects a browser wallet to this account (ADR 0035); the list shows it afterwards. */
export function useConnectWallet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (wallet: Wallet) => (await import("@/features/auth/api/wallet")).connectWallet(wallet),
    onSettled: () => queryClient.invalidateQueries({ queryKey: identityKeys.list() }),
  });
}

export function useUnlinkIdentity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (identity: UserIdentity) => {
      const { error } = await getAuthClient().unlinkIdentity(identity);
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: identityKeys.list() }),
  });
}
