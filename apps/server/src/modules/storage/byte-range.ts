import { AppError } from "../../errors";

/** As asked for: `end` is inclusive and optional ("to the end"), like HTTP `bytes=start-[end]`. */
export interface ByteRangeRequest {
  start: number;
  end?: number | undefined;
}

/** As served: both ends inclusive and inside the object. */
export interface ByteRange {
  start: number;
  end: number;
}

export function validateByteRange(range: ByteRangeRequest): void {
  if (!Number.isSafeInteger(range.start) || range.start < 0) {
    throw new InvalidByteRangeError("start must be a non-negative integer");
  }
  if (range.end === undefined) return;
  if (!Number.isSafeInteger(range.end) || range.end < range.start) {
    throw new InvalidByteRangeError("end must be an integer no smaller than start");
  }
}

/** Fits a validated request to an object of `size` bytes, with HTTP's rules (RFC 9110 §14.1.2). */
export function resolveByteRange(key: string, range: ByteRangeRequest, size: number): ByteRange {
  if (range.start >= size) throw new BlobRangeNotSatisfiableError(key, size);
  const lastByte = size - 1;
  return { start: range.start, end: Math.min(range.end ?? lastByte, lastByte) };
}

export function toRangeHeader(range: ByteRangeRequest): string {
  return `bytes=${range.start}-${range.end ?? ""}`;
}

/** Reads `Content-Range: bytes 0-99/1234`; undefined for anything else (including `bytes * /1234`). */
export function parseContentRange(header: string | undefined): (ByteRange & { size: number }) | undefined {
  const match = header === undefined ? null : /^bytes (\d+)-(\d+)\/(\d+)$/.exec(header.trim());
  if (!match) return undefined;
  return { start: Number(match[1]), end: Number(match[2]), size: Number(match[3]) };
}

export class InvalidByteRangeError extends AppError {
  constructor(reason: string) {
    super("invalid_range", { message: `Invalid byte range: ${reason}.` });
    this.name = "InvalidByteRangeError";
  }
}

export class BlobRangeNotSatisfiableError extends AppError {
  constructor(
    readonly key: string,
    /** Full object size, for the `Content-Range: bytes * /size` header of a 416 answer. */
    readonly size: number | undefined,
  ) {
    super("range_not_satisfiable", { message: `The requested range lies outside the object "${key}".` });
    this.name = "BlobRangeNotSatisfiableError";
  }
}
