import { GoTrueClient } from "@supabase/auth-js";

import { authStorageKey } from "./stored-session";

/**
 * The part of GoTrueClient the app relies on. Code depends on this rather than the class, so a
 * test can swap in a small fake (see `setAuthClient`) without a server or a browser URL.
 */
export type AuthClient = Pick<
  GoTrueClient,
  | "getSession"
  | "getUser"
  | "getUserIdentities"
  | "linkIdentity"
  | "mfa"
  | "oauth"
  | "onAuthStateChange"
  | "passkey"
  | "reauthenticate"
  | "refreshSession"
  | "registerPasskey"
  | "resend"
  | "resetPasswordForEmail"
  | "setSession"
  | "signInWithOAuth"
  | "signInWithOtp"
  | "signInWithPasskey"
  | "signInWithPassword"
  | "signInWithSSO"
  | "signInWithWeb3"
  | "signOut"
  | "signUp"
  | "unlinkIdentity"
  | "updateUser"
  | "verifyOtp"
>;

let client: AuthClient | undefined;
let arrivedThrough: string | undefined;

/**
 * The kind of e-mailed link the page was opened through (`email_change`, `signup`, ...), once:
 * the client reads and clears the URL's fragment, so the kind is noted before it does.
 */
export function takeLinkArrival(): string | undefined {
  const kind = arrivedThrough;
  arrivedThrough = undefined;
  return kind;
}

/**
 * The app's one auth client, created on first use (not at import, so tests and tooling can import
 * the app without it reading the URL or starting timers). It restores the session from storage,
 * picks up a session from a confirmation link's `#access_token=…` fragment, and refreshes tokens
 * on its own schedule (a 30 s tick; a refresh when three ticks or fewer remain).
 */
export function getAuthClient(): AuthClient {
  if (!client) {
    const fragment = new URLSearchParams(window.location.hash.slice(1));
    if (fragment.has("access_token")) arrivedThrough = fragment.get("type") ?? undefined;
  }
  client ??= new GoTrueClient({
    url: `${window.location.origin}/auth/v1`,
    storageKey: authStorageKey,
    persistSession: true,
    autoRefreshToken: true,
    detectSessionInUrl: true,
    flowType: "implicit",
    // Passkeys (ADR 0025): the client's passkey API is behind this flag while Supabase calls it experimental.
    experimental: { passkey: true },
  });
  return client;
}

/** For tests: use `replacement` as the auth client; `undefined` goes back to the real one on next use. */
export function setAuthClient(replacement: AuthClient | undefined): void {
  client = replacement;
}
