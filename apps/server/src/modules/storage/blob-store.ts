import type { Readable } from "node:stream";
import { AppError } from "../../errors";
import type { BufferPool } from "../../lib/buffer-pool";
import type { ByteRange, ByteRangeRequest } from "./byte-range";

export type { ByteRange, ByteRangeRequest } from "./byte-range";

export interface BlobInfo {
  key: string;
  size: number;
  contentType?: string | undefined;
  lastModified: Date;
}

export interface PutBlobOptions {
  contentType?: string;
}

export interface GetBlobOptions {
  /** Inclusive on both ends, like an HTTP `Range: bytes=start-end`; `end` past the last byte is clamped. */
  range?: ByteRangeRequest;
  /**
   * How much one read from disk takes (local storage only; 64 KiB by default): a whole-file copy
   * such as the export goes several times faster with 1 MiB, at that much memory per open read.
   */
  readChunkBytes?: number;
  /**
   * Local storage only: whole-file reads go into buffers of this pool (of its size), and the
   * reader gives each chunk back once it is done with its bytes (`BufferPool.release`).
   */
  bufferPool?: BufferPool;
  /**
   * Local storage only: the content type is not read (its sidecar file is not opened), and
   * `info.contentType` is undefined: a copy of the bytes such as the export's does without it.
   */
  withoutContentType?: boolean;
  /**
   * Local storage only, for a process with nothing else to serve (the operator's export): the
   * open, its checks and the reads are made on the calling thread, each blocking it. Each of the
   * five a file takes otherwise is a hand-off to libuv's pool and back, which on a virtual machine
   * costs more than reading a small file (ADR 0083). Never in the server: a slow disk would hold
   * every request.
   */
  blocking?: boolean;
}

export interface BlobContent {
  /** The caller must consume or destroy it: it holds a file descriptor or an HTTP connection. */
  body: Readable;
  /** Describes the whole object: `size` is the full size even for a range read. */
  info: BlobInfo;
  /** The bytes actually returned, present only when a range was asked for. */
  range?: ByteRange;
}

/**
 * Where media bytes live. Keys are relative '/'-separated paths (see `validateBlobKey`);
 * both implementations accept and reject exactly the same keys, so code written against
 * the local store behaves the same on S3.
 */
export interface BlobStore {
  /** Replaces any existing object; readers see the old bytes or the new ones, never a mix. */
  put(key: string, body: Readable | Buffer, options?: PutBlobOptions): Promise<BlobInfo>;
  /** Throws BlobNotFoundError when the key is absent, BlobRangeNotSatisfiableError for a range past the end. */
  get(key: string, options?: GetBlobOptions): Promise<BlobContent>;
  stat(key: string): Promise<BlobInfo | null>;
  /** Deleting a missing key succeeds. */
  delete(key: string): Promise<void>;
  /**
   * Every object whose key starts with `prefix` (a plain string prefix, like S3: "media/1"
   * also matches "media/10/a"). Order is unspecified and `contentType` is not filled in,
   * because S3 listings do not carry it; use `stat` for that.
   */
  list(prefix: string): AsyncIterable<BlobInfo>;
  /** Cheap probe for the health endpoint; throws when the storage cannot be used. */
  check(): Promise<void>;
  /** Bytes still free for new objects, or null where the storage does not say (S3). */
  freeBytes(): Promise<number | null>;
  /** Releases connections at shutdown; the store is unusable afterwards. */
  close(): Promise<void>;
}

export class BlobNotFoundError extends AppError {
  constructor(readonly key: string) {
    super("object_not_found", { message: `No stored object has the key "${key}".` });
    this.name = "BlobNotFoundError";
  }
}
