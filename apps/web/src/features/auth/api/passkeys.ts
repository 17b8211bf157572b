import { ErrorCode } from "@memory-box/contract";
import { isAuthError } from "@supabase/auth-js";

import { getAuthClient } from "@/lib/auth-client";
import { activeIntl } from "@/lib/intl";

/** A passkey as `GET /auth/v1/passkeys` lists it (never its key). */
export interface Passkey {
  id: string;
  friendly_name?: string;
  created_at: string;
  last_used_at?: string;
}

/** Whether this browser can make and use passkeys at all. */
export function passkeysSupported(): boolean {
  return typeof window !== "undefined" && typeof window.PublicKeyCredential === "function";
}

/** Signs in with any passkey of this site the browser offers; the client announces SIGNED_IN. */
export function signInWithPasskey() {
  return getAuthClient().signInWithPasskey();
}

/**
 * What went wrong in a passkey or security-key ceremony, in words. The browser's own refusals
 * (cancelled, timed out, no passkey here) come as WebAuthn errors; the server's as auth codes.
 */
export function webauthnProblem(error: unknown, action: "sign in" | "add" | "verify"): string {
  if (isAuthError(error)) {
    if (error.code === ErrorCode.webauthn_verification_failed)
      return action === "sign in" ? activeIntl().formatMessage({ id: "passkeys.problem.notRegistered" }) : error.message;
    if (error.code === ErrorCode.webauthn_challenge_expired || error.code === ErrorCode.webauthn_challenge_not_found)
      return activeIntl().formatMessage({ id: "passkeys.problem.tooLong" });
    if (error.code === ErrorCode.webauthn_credential_exists) return activeIntl().formatMessage({ id: "passkeys.problem.exists" });
    if (error.code === ErrorCode.too_many_passkeys) return activeIntl().formatMessage({ id: "passkeys.problem.tooMany" });
    if (error.code === ErrorCode.insufficient_aal) return activeIntl().formatMessage({ id: "passkeys.problem.secondStepFirst" });
    if (error.code === ErrorCode.email_not_invited) return error.message;
  }
  const name = (error as { name?: unknown; code?: unknown } | null)?.name;
  const code = (error as { code?: unknown } | null)?.code;
  if (name === "NotAllowedError" || code === "ERROR_CEREMONY_ABORTED" || code === "ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY")
    return activeIntl().formatMessage({ id: "passkeys.problem.closed" });
  if (code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED") return activeIntl().formatMessage({ id: "passkeys.problem.exists" });
  return action === "sign in"
    ? activeIntl().formatMessage({ id: "passkeys.problem.signInFailed" })
    : activeIntl().formatMessage({ id: "passkeys.problem.failed" });
}

/** The name the server would give a passkey made here ("Chrome 156 on Linux"), offered to edit. */
export function defaultPasskeyName(userAgent = navigator.userAgent): string {
  const browser = (
    [
      ["Edge", /Edg\/(\d+)/],
      ["Firefox", /Firefox\/(\d+)/],
      ["Chrome", /Chrome\/(\d+)/],
      ["Safari", /Version\/(\d+).*Safari/],
    ] as const
  ).flatMap(([name, pattern]) => {
    const match = pattern.exec(userAgent);
    return match ? [`${name} ${match[1]}`] : [];
  })[0];
  const system = (
    [
      ["Android", /Android/],
      ["iOS", /iPhone|iPad/],
      ["macOS", /Mac OS X/],
      ["Windows", /Windows/],
      ["Linux", /Linux/],
    ] as const
  ).find(([, pattern]) => pattern.test(userAgent))?.[0];
  return [browser, system].filter(Boolean).join(" on ") || "Passkey";
}
