import { Navigate, useSearchParams } from "react-router";

import { AuthCard } from "@/features/auth/components/auth-card";
import { safeNextPath } from "@/features/auth/utils/next-path";
import { useAuth } from "@/lib/auth-context";

/**
 * Sign in and sign up. Someone with a session (already on arrival, or the moment a sign-in
 * succeeds) goes on to where they were heading (`?next=`), else home.
 */
export function AuthRoute() {
  const { status } = useAuth();
  const [searchParams] = useSearchParams();

  if (status === "signedIn") return <Navigate to={safeNextPath(searchParams.get("next"))} replace />;

  return (
    <main className="flex min-h-svh items-center justify-center bg-muted p-4">
      <AuthCard />
    </main>
  );
}
