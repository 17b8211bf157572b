import { lazy, Suspense, useEffect } from "react";
import { Navigate, Outlet, useLocation, useNavigate } from "react-router";

import { PageSpinner } from "@/components/page-spinner";
import { markRememberedInvitation } from "@/features/auth/api/invitations";
import { linkErrorFrom } from "@/features/auth/utils/link-error";
import { authPathFor } from "@/features/auth/utils/next-path";
import { useAuth } from "@/lib/auth-context";
import { activeIntl } from "@/lib/intl";
import { notify } from "@/lib/notify";

// Only a member with an authenticator app sees it, so its forms stay out of every other visit's code.
const SecondFactorStep = lazy(async () => ({
  default: (await import("@/features/auth/components/second-factor-step")).SecondFactorStep,
}));

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

  // An e-mailed link that came back refused (`#error_code=…`) goes along, so the auth screen can explain it.
  const linkError = /(?:^#|&)error/.test(location.hash) ? location.hash : "";
  // Signed in already (an address confirmation opened twice, say): nothing is wrong, so it is said
  // calmly, once, and the address bar loses the `#error=…` (issue #34).
  const navigate = useNavigate();
  const signedInWithLinkError = status === "signedIn" && linkError !== "";
  useEffect(() => {
    if (!signedInWithLinkError) return;
    const refused = linkErrorFrom(location.hash);
    if (refused) notify.info(activeIntl().formatMessage({ id: "linkError.signedIn" }), undefined, { flow: "link-error" });
    void navigate({ pathname: location.pathname, search: location.search, hash: "" }, { replace: true });
  }, [signedInWithLinkError, location.hash, location.pathname, location.search, navigate]);

  if (status === "loading") return <PageSpinner />;
  if (status === "signedOut")
    return <Navigate to={`${authPathFor(`${location.pathname}${location.search}`)}${linkError}`} replace />;
  // A member with an authenticator app proves it before any member screen (the server refuses them until then).
  if (needsSecondFactor && session)
    return (
      <Suspense fallback={<PageSpinner />}>
        <SecondFactorStep user={session.user} onSignOut={() => void signOut()} />
      </Suspense>
    );
  return <Outlet />;
}
