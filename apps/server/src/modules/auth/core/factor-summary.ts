import { AppError } from "../../../errors";

/**
 * Whether an account's factor summary (`users.mfa_factors`, ADR 0022) lists a verified factor:
 * then signing in needs the second step, and the product API wants an aal2 session.
 */
export function hasVerifiedFactor(summaryJson: string): boolean {
  if (summaryJson === "[]") return false;
  try {
    const factors: unknown = JSON.parse(summaryJson);
    return Array.isArray(factors) && factors.some((factor: { status?: unknown }) => factor?.status === "verified");
  } catch {
    return false;
  }
}

/** How recently a session must have proven its second step to remove one (a factor or a passkey). */
export const freshSecondStepSeconds = 600;
/** A recovery code (ADR 0042) counts: a member who lost the phone removes it with one. */
const secondStepMethods = new Set(["totp", "webauthn", "passkey", "recovery_code"]);

/**
 * Whether the session proved a second step (a code, a security key, a passkey) in the last ten
 * minutes: removing one asks for that fresh proof, so an unlocked laptop left open cannot strip
 * an account of its second step (ADR 0025).
 */
export function provedSecondStepRecently(amr: readonly { method: string; timestamp: number }[], now: Date): boolean {
  const since = Math.floor(now.getTime() / 1000) - freshSecondStepSeconds;
  return amr.some((entry) => secondStepMethods.has(entry.method) && entry.timestamp >= since);
}

export function staleSecondStep(): AppError {
  return new AppError("insufficient_aal", {
    text: { id: "errorText.secondStepStale" },
  });
}

/**
 * Once a member has a verified second factor, a password alone no longer changes how the account
 * is reached: the password, the address, linked accounts and wallets, and other devices' sessions
 * change only from a session that proved the second step (aal2). Refused as the product API
 * refuses such a session (403 `insufficient_aal`), so a client asks for the code and carries on.
 */
export function assertSecondStepProven(caller: { user: { mfa_factors: string }; claims: { aal?: string } }): void {
  if (caller.claims.aal !== "aal2" && hasVerifiedFactor(caller.user.mfa_factors)) throw secondStepNeeded();
}

export function secondStepNeeded(): AppError {
  return new AppError("insufficient_aal", { text: { id: "errorText.secondStepNeeded" } });
}
