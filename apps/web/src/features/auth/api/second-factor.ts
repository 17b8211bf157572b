import { getAuthClient } from "@/lib/auth-client";

/** The member's verified authenticator apps, from the session's user object. */
export interface VerifiedFactor {
  id: string;
  friendly_name?: string;
  created_at: string;
}

/**
 * `POST /factors/{id}/challenge` then `/verify` with the app's code: the session becomes aal2
 * (the client announces MFA_CHALLENGE_VERIFIED with it).
 */
export function verifyFactor(factorId: string, code: string) {
  return getAuthClient().mfa.challengeAndVerify({ factorId, code });
}

/** `POST /factors`: a new authenticator app, unverified until its first code. */
export function enrollAuthenticatorApp(friendlyName: string) {
  return getAuthClient().mfa.enroll({ factorType: "totp", friendlyName });
}

/** `DELETE /factors/{id}` (needs an aal2 session for a verified factor). */
export function removeFactor(factorId: string) {
  return getAuthClient().mfa.unenroll({ factorId });
}
