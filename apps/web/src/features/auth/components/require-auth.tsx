import { Navigate, Outlet, useLocation } from "react-router";

import { PageSpinner } from "@/components/page-spinner";
import { authPathFor } from "@/features/auth/utils/next-path";
import { useAuth } from "@/lib/auth-context";

/**
 * Layout route for the member screens. Waits for the auth client to settle the session (from
 * storage or a confirmation link in the URL) before deciding, then sends visitors without a
 * session to the auth screen, remembering where they were going.
 */
export function RequireAuth() {
  const { status } = useAuth();
  const location = useLocation();

  if (status === "loading") return <PageSpinner />;
  if (status === "signedOut") return <Navigate to={authPathFor(`${location.pathname}${location.search}`)} replace />;
  return <Outlet />;
}
