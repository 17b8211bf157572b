import { useCallback, useEffect, useMemo, useState, type ReactNode } from "react";
import type { Session } from "@supabase/auth-js";

import { getAuthClient } from "@/lib/auth-client";
import { announceSignOut, AuthContext, type AuthContextValue, type AuthStatus } from "@/lib/auth-context";
import { forgetPhotoAccess, usePhotoAccess } from "@/lib/photo-access";

interface AuthState {
  status: AuthStatus;
  session: Session | null;
}

/** The access token's `aal` claim; the token is the server's, so it is read, not verified, here. */
function assuranceOf(accessToken: string): string | undefined {
  try {
    const payload = accessToken.split(".")[1] ?? "";
    const claims = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/"))) as { aal?: unknown };
    return typeof claims.aal === "string" ? claims.aal : undefined;
  } catch {
    return undefined;
  }
}

/** As auth-js's `getAuthenticatorAssuranceLevel`: a verified factor makes aal2 the next level. */
function needsSecondFactor(session: Session | null): boolean {
  if (!session?.user.factors?.some((factor) => factor.status === "verified")) return false;
  return assuranceOf(session.access_token) !== "aal2";
}

/**
 * Follows the auth client's state and shares it with the app. Every event carries the session
 * as it now is (INITIAL_SESSION once the stored or URL session is settled, then SIGNED_IN,
 * SIGNED_OUT, TOKEN_REFRESHED, USER_UPDATED…), so the state is simply "is there a session".
 * A sign-out is also announced to `onSignOut` listeners (the query cache empties itself).
 * While signed in, the cookie that lets this browser load photos is kept alive.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [client] = useState(getAuthClient);
  const [state, setState] = useState<AuthState>({ status: "loading", session: null });

  useEffect(() => {
    const { data } = client.onAuthStateChange((event, session) => {
      setState({ status: session ? "signedIn" : "signedOut", session });
      if (event === "SIGNED_OUT") {
        announceSignOut();
        forgetPhotoAccess();
      }
    });
    return () => data.subscription.unsubscribe();
  }, [client]);
  usePhotoAccess(state.status);

  const signOut = useCallback(async () => {
    try {
      const { error } = await client.signOut();
      if (error) console.error("Error signing out:", error);
    } catch (error) {
      console.error("Error signing out:", error);
    }
  }, [client]);

  const value = useMemo<AuthContextValue>(
    () => ({
      status: state.status,
      session: state.session,
      user: state.session?.user ?? null,
      needsSecondFactor: needsSecondFactor(state.session),
      signOut,
    }),
    [state, signOut],
  );

  return <AuthContext value={value}>{children}</AuthContext>;
}
