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
