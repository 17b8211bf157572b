import { useEffect } from "react";
import { Navigate, Outlet, useLocation } from "react-router";

import { PageSpinner } from "@/components/page-spinner";
import { markRememberedInvitation } from "@/features/auth/api/invitations";
import { SecondFactorStep } from "@/features/auth/components/second-factor-step";
import { authPathFor } from "@/features/auth/utils/next-path";
import { useAuth } from "@/lib/auth-context";

/**
 * Layout route for the member screens. Waits for the auth client to settle the session (from
 * storage or a confirmation link in the URL) before deciding, then sends visitors without a
 * session to the auth screen, remembering where they were going. A member arriving from their
 * confirmation link gets their invitation marked as used, as the spec asks after a sign-up. A
 * member with an authenticator app enters its code first (two-step verification).
 */
export function RequireAuth() {
  const { status, session, needsSecondFactor, signOut } = useAuth();
  const location = useLocation();

  const email = session?.user.email;
  const accessToken = session?.access_token;
  useEffect(() => {
    if (accessToken === undefined) return;
    markRememberedInvitation(email, accessToken).catch((error: unknown) => {
      console.warn("Could not mark the invitation as used:", error);
    });
  }, [email, accessToken]);

  if (status === "loading") return <PageSpinner />;
  // An e-mailed link that came back refused (`#error_code=…`) goes along, so the auth screen can explain it.
  const linkError = /(?:^#|&)error/.test(location.hash) ? location.hash : "";
  if (status === "signedOut")
    return <Navigate to={`${authPathFor(`${location.pathname}${location.search}`)}${linkError}`} replace />;
  // A member with an authenticator app proves it before any member screen (the server refuses them until then).
  if (needsSecondFactor && session) return <SecondFactorStep user={session.user} onSignOut={() => void signOut()} />;
  return <Outlet />;
}
