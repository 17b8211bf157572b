import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * A short-lived credential naming a member's session, for requests a browser makes without a
 * bearer token (an `<img src>`, a download link): `{sessionId}.{expires}.{signature}`, the
 * signature HMAC-SHA256 over the purpose, the session and the expiry. It only says which session
 * asks: whoever accepts one still checks that session is live. The purpose keeps a ticket for one
 * use (photos) from opening another (the export).
 */
export interface SessionTicket {
  sessionId: string;
  /** Unix seconds. */
  expires: number;
}

// A shorter key would make the HMAC guessable; 32 bytes matches SHA-256's output.
const MIN_SECRET_BYTES = 32;
const TICKET = /^([0-9a-f-]{36})\.([1-9][0-9]{0,14})\.([A-Za-z0-9_-]{43})$/;

export function issueTicket(purpose: string, sessionId: string, expires: number, secret: Buffer): string {
  return `${sessionId}.${expires}.${sign(purpose, sessionId, expires, secret)}`;
}

/** The session a ticket names, if it is for `purpose`, its signature is right and it has not expired; else null. */
export function readTicket(purpose: string, value: string | undefined, secret: Buffer, now: Date): SessionTicket | null {
  const match = TICKET.exec(value ?? "");
  if (!match) return null;
  const [, sessionId, expiresText, signature] = match as unknown as [string, string, string, string];
  const expires = Number(expiresText);
  if (now.getTime() >= expires * 1000) return null;
  const expected = Buffer.from(sign(purpose, sessionId, expires, secret));
  return timingSafeEqual(expected, Buffer.from(signature)) ? { sessionId, expires } : null;
}

function sign(purpose: string, sessionId: string, expires: number, secret: Buffer): string {
  if (secret.length < MIN_SECRET_BYTES) throw new RangeError(`The ticket key must have at least ${MIN_SECRET_BYTES} bytes.`);
  return createHmac("sha256", secret).update(`${purpose}\n${sessionId}\n${expires}`).digest("base64url");
}
