import { useEffect, useState } from "react";

import { type BrowserWallets, browserWallets } from "@/features/auth/api/browser-wallets";
import { getAuthClient } from "@/lib/auth-client";

/** A sign-in provider the operator configured (`AUTH_OIDC_PROVIDERS`, ADR 0034). */
export interface SignInProvider {
  id: string;
  name: string;
}

/** The other ways in the operator turned on. */
interface SignInWays {
  providers: SignInProvider[];
  /** Ethereum and Solana wallets (`AUTH_WEB3_ETHEREUM_ENABLED`, `AUTH_WEB3_SOLANA_ENABLED`, ADR 0035). */
  ethereum: boolean;
  solana: boolean;
  /** SAML single sign-on (`AUTH_SAML_ENABLED`, ADR 0036). */
  singleSignOn: boolean;
}

const none: SignInWays = { providers: [], ethereum: false, solana: false, singleSignOn: false };
let providersRequest: Promise<SignInWays> | undefined;

/**
 * The configured providers (`external_providers`) and which wallets may sign in
 * (`external.web3_ethereum`, `external.web3_solana`), from the auth service's `GET /settings`;
 * asked once per page.
 */
function loadProviders(): Promise<SignInWays> {
  providersRequest ??= fetch("/auth/v1/settings")
    .then(async (response) => {
      if (!response.ok) return none;
      const settings = (await response.json()) as {
        external_providers?: SignInProvider[];
        external?: Record<string, unknown>;
        saml_enabled?: unknown;
      };
      return {
        providers: Array.isArray(settings.external_providers) ? settings.external_providers : [],
        ethereum: settings.external?.web3_ethereum === true,
        solana: settings.external?.web3_solana === true,
        singleSignOn: settings.saml_enabled === true,
      };
    })
    // None when the answer cannot be had: the page then simply shows no provider buttons.
    .catch(() => none);
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
  return useSignInWays().providers;
}

/**
 * The browser's wallets of the chains the server lets sign in: a wallet button shows only with
 * both (ADR 0035).
 */
export function useBrowserWallets(): BrowserWallets {
  return browserWallets(useSignInWays());
}

/** Whether the server signs members in with their household's identity provider (ADR 0036). */
export function useSingleSignOn(): boolean {
  return useSignInWays().singleSignOn;
}

function useSignInWays(): SignInWays {
  const [ways, setWays] = useState<SignInWays>(none);
  useEffect(() => {
    let current = true;
    void loadProviders().then((loaded) => current && setWays(loaded));
    return () => {
      current = false;
    };
  }, []);
  return ways;
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

/** How the sign-in page names single sign-on when a sign-in with it comes back refused. */
const singleSignOnName = "single sign-on";

/**
 * Sends the browser to the identity provider registered for the address's domain (ADR 0036); it
 * comes back to `/auth?signed_in_with=…` as from a provider.
 */
export async function continueWithSingleSignOn(email: string) {
  return getAuthClient().signInWithSSO({
    domain: email.slice(email.lastIndexOf("@") + 1),
    options: { redirectTo: `${window.location.origin}/auth?signed_in_with=${encodeURIComponent(singleSignOnName)}` },
  });
}
