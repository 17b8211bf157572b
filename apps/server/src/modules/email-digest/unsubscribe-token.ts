import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The token of a digest's one-click unsubscribe link (RFC 8058): `{memberId}.{signature}`, the
 * signature HMAC-SHA256 over the purpose and the member's id, made with the server's signing
 * secret (the one that signs photo cookies and export tickets, each with its own purpose). It
 * never expires (a mail read months later must still unsubscribe) and only ever turns the digest of
 * that one member off, so it grants nothing else.
 */
export const unsubscribePurpose = "email-digest.unsubscribe";

// As for session tickets: a shorter key would make the HMAC guessable.
const MIN_SECRET_BYTES = 32;
const TOKEN = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/;

export function issueUnsubscribeToken(memberId: string, secret: Buffer, purpose = unsubscribePurpose): string {
  return `${memberId}.${sign(purpose, memberId, secret)}`;
}

/** The member a token names, if it is for unsubscribing and its signature is right; else null. */
export function readUnsubscribeToken(value: string | undefined, secret: Buffer): string | null {
  const match = TOKEN.exec(value ?? "");
  if (!match) return null;
  const [, memberId, signature] = match as unknown as [string, string, string];
  const expected = Buffer.from(sign(unsubscribePurpose, memberId, secret));
  return timingSafeEqual(expected, Buffer.from(signature)) ? memberId : null;
}

function sign(purpose: string, memberId: string, secret: Buffer): string {
  if (secret.length < MIN_SECRET_BYTES) throw new RangeError(`The signing key must have at least ${MIN_SECRET_BYTES} bytes.`);
  return createHmac("sha256", secret).update(`${purpose}\n${memberId}`).digest("base64url");
}
