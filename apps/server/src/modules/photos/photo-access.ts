import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { photoBucket } from "./photo-key";

/**
 * How a browser shows photos without a bearer token in `<img src>` (ADR 0018): photo URLs are
 * stable addresses, and the credential is a short-lived cookie naming the member's session,
 * `{sessionId}.{expires}.{signature}`, where the signature is HMAC-SHA256 over both with the photo
 * key. The server checks the session is still live on every request, so signing out, a revoked
 * invitation or a password change ends photo access at once; a cookie copied off a device dies
 * with its expiry; a copied link carries no credential at all.
 */

export const photoAccessCookie = "memory-box-photos";
/** Where photo bytes are served; the cookie is sent only there. */
export const photoObjectPrefix = `/storage/v1/object/authenticated/${photoBucket}/`;
/** The longest a cookie (and a browser's cached copy) may live: the promise of ten minutes at most. */
export const maxPhotoAccessSeconds = 600;

// A shorter key would make the HMAC guessable; 32 bytes matches SHA-256's output.
const MIN_SECRET_BYTES = 32;
const ACCESS = /^([0-9a-f-]{36})\.([1-9][0-9]{0,14})\.([A-Za-z0-9_-]{43})$/;

/** A photo's stable address: the same for as long as the photo exists. Path segments percent-encoded. */
export function photoUrl(key: string): string {
  // Keys the server makes need no escaping: a list page builds 3 URLs per photo, so skip the work.
  if (plainKey.test(key)) return `${photoObjectPrefix}${key}`;
  return `${photoObjectPrefix}${key.split("/").map(encodeURIComponent).join("/")}`;
}

/** Characters `encodeURIComponent` leaves as they are, and the path's slashes. */
const plainKey = /^[\w.!~*'()\-/]*$/;

/** The cookie value granting `sessionId` photo access until `expires` (Unix seconds). */
export function photoAccessToken(sessionId: string, expires: number, secret: Buffer): string {
  return `${sessionId}.${expires}.${sign(sessionId, expires, secret)}`;
}

/** The session a cookie value names, if its signature is right and it has not expired; else null. */
export function readPhotoAccessToken(value: string | undefined, secret: Buffer, now: Date): PhotoAccess | null {
  const match = ACCESS.exec(value ?? "");
  if (!match) return null;
  const [, sessionId, expiresText, signature] = match as unknown as [string, string, string, string];
  const expires = Number(expiresText);
  if (now.getTime() >= expires * 1000) return null;
  const expected = Buffer.from(sign(sessionId, expires, secret));
  return timingSafeEqual(expected, Buffer.from(signature)) ? { sessionId, expires } : null;
}

export interface PhotoAccess {
  sessionId: string;
  /** Unix seconds. */
  expires: number;
}

/**
 * A rendition's bytes never change under its key (keys are never reused), so the key alone makes
 * a strong validator: a browser revalidating its cached copy gets a 304 without the file being read.
 */
export function photoEtag(key: string): string {
  return `"${createHash("sha256").update(key).digest("base64url").slice(0, 27)}"`;
}

function sign(sessionId: string, expires: number, secret: Buffer): string {
  if (secret.length < MIN_SECRET_BYTES) throw new RangeError(`The photo key must have at least ${MIN_SECRET_BYTES} bytes.`);
  return createHmac("sha256", secret).update(`photo-access\n${sessionId}\n${expires}`).digest("base64url");
}
