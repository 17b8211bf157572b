import { useState } from "react";
import { Navigate, useLocation, useSearchParams } from "react-router";

import { AuthCard } from "@/features/auth/components/auth-card";
import { linkErrorFrom } from "@/features/auth/utils/link-error";
import { safeNextPath } from "@/features/auth/utils/next-path";
import { useAuth } from "@/lib/auth-context";

/**
 * Sign in and sign up. Someone with a session (already on arrival, or the moment a sign-in
 * succeeds) goes on to where they were heading (`?next=`), else home. `?view=forgot` opens the
 * password reset; `?view=signup&email=…` (an invitation's link) opens Sign Up with the address
 * filled in; an e-mailed link that came back refused (`#error_code=…`) is explained, and so is a
 * refused sign-in at a provider (`?signed_in_with=…#error_code=…`).
 */
export function AuthRoute() {
  const { status } = useAuth();
  const [searchParams] = useSearchParams();
  const { hash } = useLocation();
  // Read once: the card keeps it until the visitor moves on.
  const [linkError] = useState(() => linkErrorFrom(hash));
  // A provider's sign-in comes back here (ADR 0034); its refusal is the provider's, not a link's.
  const provider = searchParams.get("signed_in_with");

  if (status === "signedIn") return <Navigate to={safeNextPath(searchParams.get("next"))} replace />;
  const view = searchParams.get("view");

  return (
    <AuthCard
      initialView={view === "forgot" ? { kind: "forgot" } : { kind: "tabs" }}
      initialTab={view === "signup" ? "sign-up" : "sign-in"}
      invitedEmail={view === "signup" ? (searchParams.get("email") ?? undefined) : undefined}
      linkError={provider ? undefined : linkError}
      providerError={provider && linkError ? { ...linkError, provider } : undefined}
    />
  );
}
