import { getAuthClient } from "@/lib/auth-client";

/** The member's verified second factors (authenticator apps, security keys), from the session's user object. */
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

/**
 * A security key as a second step: enrol, a challenge with creation options, the browser's
 * prompt, verify. The session becomes aal2 and the factor verified.
 */
export function addSecurityKey(friendlyName: string) {
  return getAuthClient().mfa.webauthn.register({ friendlyName });
}

/** The sign-in's second step with a security key: its signature over a fresh challenge. */
export function verifySecurityKey(factorId: string) {
  return getAuthClient().mfa.webauthn.authenticate({ factorId });
}

/** `DELETE /factors/{id}` (needs an aal2 session for a verified factor). */
export function removeFactor(factorId: string) {
  return getAuthClient().mfa.unenroll({ factorId });
}
