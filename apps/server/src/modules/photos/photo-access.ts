import { createHash } from "node:crypto";
import { issueTicket, readTicket, type SessionTicket } from "../../lib/session-ticket";
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
/** The longest a cookie (and a browser's cached copy) may live: the issue's promise of ten minutes at most. */
export const maxPhotoAccessSeconds = 600;

const purpose = "photo-access";

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
  return issueTicket(purpose, sessionId, expires, secret);
}

/** The session a cookie value names, if its signature is right and it has not expired; else null. */
export function readPhotoAccessToken(value: string | undefined, secret: Buffer, now: Date): PhotoAccess | null {
  return readTicket(purpose, value, secret, now);
}

export type PhotoAccess = SessionTicket;

/**
 * A rendition's bytes never change under its key (keys are never reused), so the key alone makes
 * a strong validator: a browser revalidating its cached copy gets a 304 without the file being read.
 */
export function photoEtag(key: string): string {
  return `"${createHash("sha256").update(key).digest("base64url").slice(0, 27)}"`;
}
