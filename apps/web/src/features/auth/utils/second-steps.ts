import type { User } from "@supabase/auth-js";

/** The member's verified second steps: the authenticator app and the security key, if any. */
export function secondStepsOf(user: User | null | undefined) {
  const verified = user?.factors?.filter((candidate) => candidate.status === "verified") ?? [];
  return {
    app: verified.find((candidate) => candidate.factor_type === "totp"),
    key: verified.find((candidate) => candidate.factor_type === "webauthn"),
  };
}
