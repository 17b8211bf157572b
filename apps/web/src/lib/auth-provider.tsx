import { useCallback, useEffect, useMemo, useState, type ReactNode } from "react";
import type { Session } from "@supabase/auth-js";

import { getAuthClient } from "@/lib/auth-client";
import { announceSignOut, AuthContext, type AuthContextValue, type AuthStatus } from "@/lib/auth-context";
import { endFirstScreen } from "@/lib/first-screen";
import { adoptAccountLocale } from "@/lib/locale";
import { forgetKeptCopiesOnThisDevice, keepCopiesForOnThisDevice } from "@/lib/offline-copies";
import { hasNotificationState } from "@/lib/push-notification-names";
import { forgetPhotoAccess, usePhotoAccess } from "@/lib/photo-access";
import { notify, SIGN_IN_FLOW } from "@/lib/notify";
import { needsSecondFactor } from "@/lib/stored-session";

interface AuthState {
  status: AuthStatus;
  session: Session | null;
}

/**
 * Follows the auth client's state and shares it with the app. Every event carries the session
 * as it now is (INITIAL_SESSION once the stored or URL session is settled, then SIGNED_IN,
 * SIGNED_OUT, TOKEN_REFRESHED, USER_UPDATED…), so the state is simply "is there a session".
 * A sign-out is also announced to `onSignOut` listeners (the query cache empties itself).
 * While signed in, the cookie that lets this browser load photos is kept alive; signed out, the
 * copies kept for reading offline are deleted. At sign-in, a device without a language of its own
 * takes the account's.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [client] = useState(getAuthClient);
  const [state, setState] = useState<AuthState>({ status: "loading", session: null });

  useEffect(() => {
    const { data } = client.onAuthStateChange((event, session) => {
      setState({ status: session ? "signedIn" : "signedOut", session });
      if (event === "SIGNED_IN" && session) {
        adoptAccountLocale(session.user.user_metadata?.locale);
        // A red "Invalid login credentials" from an earlier try must not stay over home.
        notify.dismiss(SIGN_IN_FLOW);
      }
      if (event === "SIGNED_OUT") {
        announceSignOut();
        forgetPhotoAccess();
      }
    });
    return () => data.subscription.unsubscribe();
  }, [client]);
  usePhotoAccess(state.status);
  // What the service worker keeps for reading offline is the member's alone (ADR 0031): kept for
  // the member signed in here (the worker reads who that is), gone at sign-out and whenever the
  // app finds no session (one that ended while the app was closed).
  const memberId = state.session?.user.id;
  useEffect(() => {
    if (state.status === "signedOut") {
      forgetKeptCopiesOnThisDevice();
      // Notifications end with the session too (issue #33); their code loads only where some were on.
      void hasNotificationState().then(
        async (kept) => kept && (await import("@/lib/push-notifications")).forgetNotificationsOnThisDevice(),
      );
    } else if (state.status === "signedIn" && memberId) keepCopiesForOnThisDevice(memberId);
  }, [state.status, memberId]);
  // The painted home (ADR 0026) is for a member who gets it: not after a sign-out, nor before a second factor.
  const mustProveSecondFactor = needsSecondFactor(state.session);
  useEffect(() => {
    if (state.status === "signedOut" || mustProveSecondFactor) endFirstScreen();
  }, [state.status, mustProveSecondFactor]);

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
      needsSecondFactor: mustProveSecondFactor,
      signOut,
    }),
    [state, mustProveSecondFactor, signOut],
  );

  return <AuthContext value={value}>{children}</AuthContext>;
}
