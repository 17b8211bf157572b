import { randomBytes } from "node:crypto";
import { validateBlobKey } from "../../lib/blob-key";

/** The bucket name in photo URLs; callers put it in front of these keys where a path needs it. */
export const photoBucket = "memory-photos";

export type DerivativeKind = "thumbnail" | "preview";

const DERIVATIVE_SUFFIX: Record<DerivativeKind, string> = { thumbnail: "thumb.webp", preview: "preview.webp" };
const EXTENSION = /^[a-z0-9]{1,10}$/;

/**
 * `{userId}/{timestamp}-{random}.{extension}`: the spec's `{userId}/{timestamp}.{extension}` plus
 * a random suffix. BlobStore.put replaces an existing object and has no "only if absent", so two
 * uploads in the same millisecond (two tabs, a retried request, a batch) would silently overwrite
 * each other with the bare timestamp; 48 random bits make that practically impossible without
 * a read-before-write. Lower-case hex, so case-insensitive file systems cannot alias two keys.
 * Keys still sort by upload time, and nobody can guess a neighbour's key.
 */
export function originalPhotoKey(userId: string, now: Date, extension: string): string {
  const timestamp = now.getTime();
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new TypeError("Photo keys need a valid date.");
  if (userId.includes("/")) throw new TypeError("A user id cannot contain '/'.");
  if (!EXTENSION.test(extension)) throw new TypeError(`Invalid photo extension ${JSON.stringify(extension)}.`);
  const key = `${userId}/${timestamp}-${randomBytes(6).toString("hex")}.${extension}`;
  validateBlobKey(key);
  return key;
}

/** `{userId}/{timestamp}-{random}.thumb.webp` or `.preview.webp`, next to the original. */
export function derivativeKey(originalKey: string, kind: DerivativeKind): string {
  return `${stemOf(originalKey)}.${DERIVATIVE_SUFFIX[kind]}`;
}

/** `{userId}/{timestamp}-{random}.display.{extension}`: the metadata-free full-size copy photo URLs serve. */
export function displayKey(originalKey: string, extension: string): string {
  if (!EXTENSION.test(extension)) throw new TypeError(`Invalid photo extension ${JSON.stringify(extension)}.`);
  return `${stemOf(originalKey)}.display.${extension}`;
}

/**
 * `{userId}/{timestamp}-{random}.web.mp4` (or `.web.webm`): the metadata-free copy of a video, or
 * of a Live Photo's motion, that plays in browsers (ADR 0055).
 */
export function webKey(originalKey: string, extension: "mp4" | "webm"): string {
  return `${stemOf(originalKey)}.web.${extension}`;
}

/** `{userId}/{timestamp}-{random}.motion.{extension}`: a Live Photo's clip as uploaded, next to its still; never served. */
export function motionKey(stillKey: string, extension: string): string {
  if (!EXTENSION.test(extension)) throw new TypeError(`Invalid video extension ${JSON.stringify(extension)}.`);
  return `${stemOf(stillKey)}.motion.${extension}`;
}

const SERVED_KEY = /\.(?:thumb\.webp|preview\.webp|display\.[a-z0-9]{1,10}|web\.(?:mp4|webm))$/;
const WEB_COPY_KEY = /\.web\.(?:mp4|webm)$/;

/**
 * Whether photo URLs may serve this key: the renditions only, and the web copies of videos. An
 * original as uploaded (a photo, a video, a Live Photo's motion) carries its camera's metadata
 * (GPS, serial numbers) and is never served through a photo URL (ADR 0017, ADR 0055).
 */
export function isServedPhotoKey(key: string): boolean {
  return SERVED_KEY.test(key);
}

/** Whether the key is a video's web copy, which is served only once ready, and while unattached only to its uploader. */
export function isWebCopyKey(key: string): boolean {
  return WEB_COPY_KEY.test(key);
}

function stemOf(originalKey: string): string {
  const lastSlash = originalKey.lastIndexOf("/");
  const lastDot = originalKey.lastIndexOf(".");
  return lastDot > lastSlash + 1 ? originalKey.slice(0, lastDot) : originalKey;
}
