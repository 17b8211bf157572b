import { AppError } from "../errors";

const MAX_KEY_BYTES = 1024;
// Most file systems cap a single name at 255 bytes; enforcing it everywhere keeps S3 and
// the local store accepting the same keys.
const MAX_SEGMENT_BYTES = 255;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/**
 * The one key rule shared by every BlobStore. Keys become file paths in the local store,
 * so anything that could climb out of its root or alias another key is refused.
 */
export function validateBlobKey(key: string): void {
  if (key === "") throw new InvalidBlobKeyError(key, "it is empty");
  checkCharacters(key);
  if (key.startsWith("/")) throw new InvalidBlobKeyError(key, "it must be relative, not start with '/'");
  for (const segment of key.split("/")) checkSegment(key, segment);
}

/** For keys found in storage rather than given by a caller (listing skips foreign ones). */
export function isValidBlobKey(key: string): boolean {
  try {
    validateBlobKey(key);
    return true;
  } catch {
    return false;
  }
}

/**
 * A list prefix is a key cut anywhere, so its last segment may be partial or empty
 * ("media/", "media/ab"); everything before the last '/' must be valid key segments.
 */
export function validateBlobPrefix(prefix: string): void {
  if (prefix === "") return;
  checkCharacters(prefix);
  if (prefix.startsWith("/")) throw new InvalidBlobKeyError(prefix, "a prefix must be relative, not start with '/'");
  const segments = prefix.split("/");
  const partialSegment = segments.pop() ?? "";
  for (const segment of segments) checkSegment(prefix, segment);
  if (Buffer.byteLength(partialSegment) > MAX_SEGMENT_BYTES) {
    throw new InvalidBlobKeyError(prefix, `a segment is longer than ${MAX_SEGMENT_BYTES} bytes`);
  }
}

/** The folder part of a prefix ("a/b/c" → "a/b", "a/b/" → "a/b", "abc" → ""). */
export function prefixDirectory(prefix: string): string {
  const lastSlash = prefix.lastIndexOf("/");
  return lastSlash === -1 ? "" : prefix.slice(0, lastSlash);
}

function checkCharacters(value: string): void {
  if (Buffer.byteLength(value) > MAX_KEY_BYTES) throw new InvalidBlobKeyError(value, `it is longer than ${MAX_KEY_BYTES} bytes`);
  if (value.includes("\\")) throw new InvalidBlobKeyError(value, "it contains a backslash");
  if (CONTROL_CHARACTER.test(value)) throw new InvalidBlobKeyError(value, "it contains a control character");
}

function checkSegment(key: string, segment: string): void {
  if (segment === "") throw new InvalidBlobKeyError(key, "it has an empty segment ('//' or a trailing '/')");
  if (segment === "." || segment === "..") throw new InvalidBlobKeyError(key, `it has a '${segment}' segment`);
  if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) {
    throw new InvalidBlobKeyError(key, `a segment is longer than ${MAX_SEGMENT_BYTES} bytes`);
  }
}

export class InvalidBlobKeyError extends AppError {
  constructor(key: string, reason: string) {
    // JSON.stringify makes control characters in a rejected key visible in logs.
    super("invalid_key", { message: `Invalid storage key ${JSON.stringify(key)}: ${reason}.` });
    this.name = "InvalidBlobKeyError";
  }
}
