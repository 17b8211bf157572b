import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";

/** A 256-bit random token, URL-safe. */
export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * The refresh token that replaces `parent`: derived with a server key, so the server can hand the
 * same child out again when the parent comes back within the reuse interval (two tabs refreshing
 * at once) without storing any token, and nobody without the key can derive it.
 */
export function childRefreshToken(key: Buffer, parent: string): string {
  return createHmac("sha256", key).update(parent).digest("base64url");
}

/** A six-digit code for people to type. */
export function randomCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, "0");
}

/** What is stored instead of a token: knowing the database never gives a usable token. */
export function sha256(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

/** The stored form of an e-mailed code: bound to the address it was sent to. */
export function codeHash(email: string, code: string): string {
  return sha256(`${email}\u0000${code}`);
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** PKCE (RFC 7636): does the verifier match the challenge sent earlier? Methods compare case-insensitively. */
export function pkceVerifierMatches(verifier: string, challenge: string, method: string): boolean {
  const expected = method.toLowerCase() === "s256" ? createHash("sha256").update(verifier).digest("base64url") : verifier;
  return constantTimeEqual(expected, challenge);
}
