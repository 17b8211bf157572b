import { createHmac, timingSafeEqual } from "node:crypto";
import { photoBucket } from "./photo-key";

/**
 * Expiring photo URLs: HMAC-SHA256 over `path + "\n" + expires`, base64url, where `expires` is a
 * Unix time in seconds and `path` the object key inside the photo bucket.
 *
 * The expiry is rounded up to a boundary (default: the next full hour after now + 6 h), so every
 * URL for a photo signed within the same hour is byte-identical and the browser's cache keeps
 * hitting, while each URL still dies 6 to 7 hours after it was handed out.
 */

export interface SignOptions {
  /** Minimum lifetime of a URL. Default 6 hours. */
  ttlSeconds?: number;
  /** Expiries are rounded up to a multiple of this. Default 1 hour. */
  roundToSeconds?: number;
}

export interface PhotoSignature {
  /** Unix time, seconds. */
  expires: number;
  /** base64url HMAC-SHA256, 43 characters. */
  signature: string;
}

const DEFAULT_TTL_SECONDS = 6 * 60 * 60;
const DEFAULT_ROUND_TO_SECONDS = 60 * 60;
// A shorter key would make the HMAC guessable; 32 bytes matches SHA-256's output.
const MIN_SECRET_BYTES = 32;
// Canonical forms only, so one photo and expiry have exactly one valid URL.
const EXPIRES = /^[1-9][0-9]{0,14}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

/** The `expires` of a URL signed at `now`: the same for every URL signed within one rounding period. */
export function photoUrlExpiry(now: Date, options: SignOptions = {}): number {
  const ttl = options.ttlSeconds ?? DEFAULT_TTL_SECONDS;
  const roundTo = options.roundToSeconds ?? DEFAULT_ROUND_TO_SECONDS;
  if (!Number.isSafeInteger(ttl) || ttl <= 0) throw new RangeError("ttlSeconds must be a positive integer.");
  if (!Number.isSafeInteger(roundTo) || roundTo <= 0) throw new RangeError("roundToSeconds must be a positive integer.");
  return Math.ceil((Math.floor(now.getTime() / 1000) + ttl) / roundTo) * roundTo;
}

export function signPhotoPath(path: string, secret: Buffer, now: Date, options: SignOptions = {}): PhotoSignature {
  const expires = photoUrlExpiry(now, options);
  return { expires, signature: hmac(path, expires, secret) };
}

/**
 * True only for an unexpired, canonical `expires` and the exact signature for this path. `expires`
 * is taken as it arrives in a query string; the signature is compared in constant time.
 */
export function verifyPhotoSignature(
  path: string,
  expires: string | number,
  signature: string,
  secret: Buffer,
  now: Date,
): boolean {
  const expiresText = String(expires);
  if (!EXPIRES.test(expiresText) || !SIGNATURE.test(signature)) return false;
  const expiresAt = Number(expiresText);
  if (now.getTime() >= expiresAt * 1000) return false;
  return timingSafeEqual(Buffer.from(hmac(path, expiresAt, secret)), Buffer.from(signature));
}

/**
 * `{baseUrl}/storage/v1/object/sign/memory-photos/{path}?expires={unix seconds}&token={signature}`.
 * `expires` travels in clear because the server must know it to recompute the HMAC; `token` is the
 * name Supabase Storage uses for its signed-URL credential. Path segments are percent-encoded;
 * the signature covers the decoded key, which is what the route receives.
 */
export function signedPhotoUrl(baseUrl: string, path: string, secret: Buffer, now: Date, options?: SignOptions): string {
  return signedPhotoUrlExpiring(baseUrl, path, secret, photoUrlExpiry(now, options));
}

/** The signed URL with a given `expires` (from `photoUrlExpiry`): a pure function of its arguments, so it can be memoised. */
export function signedPhotoUrlExpiring(baseUrl: string, path: string, secret: Buffer, expires: number): string {
  if (!Number.isSafeInteger(expires) || expires <= 0) throw new RangeError("expires must be a positive integer.");
  const signature = hmac(path, expires, secret);
  const encodedPath = path.split("/").map(encodeURIComponent).join("/");
  return `${baseUrl.replace(/\/+$/, "")}/storage/v1/object/sign/${photoBucket}/${encodedPath}?expires=${expires}&token=${signature}`;
}

function hmac(path: string, expires: number, secret: Buffer): string {
  if (secret.length < MIN_SECRET_BYTES)
    throw new RangeError(`The photo URL secret must have at least ${MIN_SECRET_BYTES} bytes.`);
  return createHmac("sha256", secret).update(`${path}\n${expires}`).digest("base64url");
}
