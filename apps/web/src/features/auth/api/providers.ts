import type { UserIdentity } from "@supabase/auth-js";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";

import { getAuthClient } from "@/lib/auth-client";

/** A sign-in provider the operator configured (`AUTH_OIDC_PROVIDERS`, ADR 0034). */
export interface SignInProvider {
  id: string;
  name: string;
}

const identityKeys = { list: () => ["account", "identities"] as const };

let providersRequest: Promise<SignInProvider[]> | undefined;

/** The configured providers, from the auth service's `GET /settings` (its `external_providers`); asked once per page. */
function loadProviders(): Promise<SignInProvider[]> {
  providersRequest ??= fetch("/auth/v1/settings")
    .then(async (response) => {
      if (!response.ok) return [];
      const settings = (await response.json()) as { external_providers?: SignInProvider[] };
      return Array.isArray(settings.external_providers) ? settings.external_providers : [];
    })
    // None when the answer cannot be had: the page then simply shows no provider buttons.
    .catch(() => []);
  return providersRequest;
}

/** For tests: ask the server again on next use. */
export function forgetSignInProviders(): void {
  providersRequest = undefined;
}

/**
 * The configured providers, or none until they are known. A plain hook, not a query: the sign-in
 * page is bundled up front without the query client.
 */
export function useSignInProviders(): SignInProvider[] {
  const [providers, setProviders] = useState<SignInProvider[]>([]);
  useEffect(() => {
    let current = true;
    void loadProviders().then((loaded) => current && setProviders(loaded));
    return () => {
      current = false;
    };
  }, []);
  return providers;
}

/**
 * Sends the browser to the provider. It comes back to `/auth?signed_in_with=…`: with the session in
 * the fragment (the auth client picks it up and the auth screen moves on), or with the refusal.
 */
export async function continueWith(provider: SignInProvider) {
  return getAuthClient().signInWithOAuth({
    provider: provider.id as "keycloak",
    options: { redirectTo: `${window.location.origin}/auth?signed_in_with=${encodeURIComponent(provider.name)}` },
  });
}

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
