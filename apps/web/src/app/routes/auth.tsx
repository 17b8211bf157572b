import { useState } from "react";
import { Navigate, useLocation, useSearchParams } from "react-router";

import { AuthCard } from "@/features/auth/components/auth-card";
import { linkErrorFrom } from "@/features/auth/utils/link-error";
import { safeNextPath } from "@/features/auth/utils/next-path";
import { useAuth } from "@/lib/auth-context";

/**
 * Sign in and sign up. Someone with a session (already on arrival, or the moment a sign-in
 * succeeds) goes on to where they were heading (`?next=`), else home. `?view=forgot` opens the
 * password reset; an e-mailed link that came back refused (`#error_code=…`) is explained.
 */
export function AuthRoute() {
  const { status } = useAuth();
  const [searchParams] = useSearchParams();
  const { hash } = useLocation();
  // Read once: the card keeps it until the visitor moves on.
  const [linkError] = useState(() => linkErrorFrom(hash));

  if (status === "signedIn") return <Navigate to={safeNextPath(searchParams.get("next"))} replace />;

  return (
    <main className="flex min-h-svh items-center justify-center bg-muted p-4">
      <AuthCard
        initialView={searchParams.get("view") === "forgot" ? { kind: "forgot" } : { kind: "tabs" }}
        linkError={linkError}
      />
    </main>
  );
}
