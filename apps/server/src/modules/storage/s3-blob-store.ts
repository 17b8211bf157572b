import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import type { Readable } from "node:stream";
import { isValidBlobKey, validateBlobKey, validateBlobPrefix } from "../../lib/blob-key";
import {
  BlobNotFoundError,
  type BlobContent,
  type BlobInfo,
  type BlobStore,
  type GetBlobOptions,
  type PutBlobOptions,
} from "./blob-store";
import { BlobRangeNotSatisfiableError, parseContentRange, toRangeHeader, validateByteRange } from "./byte-range";

export interface S3BlobStoreOptions {
  bucket: string;
  region: string;
  /** For S3-compatible servers (MinIO, Garage, R2…); unset means AWS. */
  endpoint?: string | undefined;
  /** `http://host/bucket/key` instead of `http://bucket.host/key`; most self-hosted servers need it. */
  forcePathStyle: boolean;
  /** Both or neither; when unset the SDK's default chain (environment, profile, role) applies. */
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  /** A folder inside the bucket that holds every key, so the bucket can be shared. */
  prefix?: string | undefined;
  /** Objects per ListObjectsV2 request (S3 caps it at 1000); tests lower it to cross pages. */
  listPageSize?: number | undefined;
}

export class S3BlobStore implements BlobStore {
  readonly bucket: string;
  private readonly client: S3Client;
  private readonly keyPrefix: string;
  private readonly listPageSize: number | undefined;

  constructor(options: S3BlobStoreOptions) {
    this.bucket = options.bucket;
    this.keyPrefix = normalizeKeyPrefix(options.prefix);
    this.listPageSize = options.listPageSize;
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials:
        options.accessKeyId !== undefined && options.secretAccessKey !== undefined
          ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
          : undefined,
      // Recent SDKs add CRC trailers to every upload by default, which many S3-compatible
      // servers reject; checksums only where the API demands them works everywhere.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  async put(key: string, body: Readable | Buffer, options: PutBlobOptions = {}): Promise<BlobInfo> {
    validateBlobKey(key);
    // Upload (not PutObject) because a stream's length is usually unknown: it sends one
    // request for small bodies and a multipart upload, aborted on failure, for large ones.
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.objectKey(key), Body: body, ContentType: options.contentType },
    });
    // When the body fails, Upload aborts the multipart upload and, should that abort fail
    // too, reports only the abort error; the body's own error says what really went wrong.
    let bodyError: unknown;
    const rememberBodyError = (error: unknown) => (bodyError = error);
    if (!Buffer.isBuffer(body)) body.once("error", rememberBodyError);
    try {
      await upload.done();
    } catch (error) {
      throw bodyError ?? error;
    } finally {
      if (!Buffer.isBuffer(body)) body.off("error", rememberBodyError);
    }
    // The upload answer carries neither size nor date; S3 is read-after-write consistent.
    const info = await this.stat(key);
    if (!info) throw new Error(`Object "${key}" is missing from bucket "${this.bucket}" right after it was uploaded.`);
    return info;
  }

  async get(key: string, options: GetBlobOptions = {}): Promise<BlobContent> {
    validateBlobKey(key);
    if (options.range) validateByteRange(options.range);
    let output;
    try {
      output = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.objectKey(key),
          Range: options.range && toRangeHeader(options.range),
        }),
      );
    } catch (error) {
      if (statusOf(error) === 404) throw new BlobNotFoundError(key);
      if (statusOf(error) === 416) throw new BlobRangeNotSatisfiableError(key, (await this.stat(key))?.size);
      throw error;
    }
    // In Node the SDK's body is an http.IncomingMessage, which is a Readable.
    const body = output.Body as Readable;
    const served = parseContentRange(output.ContentRange);
    if (options.range && !served) {
      body.destroy();
      throw new Error(`The storage server ignored the Range header for "${key}".`);
    }
    const info: BlobInfo = {
      key,
      size: served?.size ?? output.ContentLength ?? 0,
      contentType: output.ContentType,
      lastModified: output.LastModified ?? new Date(0),
    };
    return served ? { body, info, range: { start: served.start, end: served.end } } : { body, info };
  }

  async stat(key: string): Promise<BlobInfo | null> {
    validateBlobKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return {
        key,
        size: head.ContentLength ?? 0,
        contentType: head.ContentType,
        lastModified: head.LastModified ?? new Date(0),
      };
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    validateBlobKey(key);
    // S3 answers 204 for a missing key too, which is the contract.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  async *list(prefix: string): AsyncIterable<BlobInfo> {
    validateBlobPrefix(prefix);
    let continuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: this.keyPrefix + prefix,
          ContinuationToken: continuationToken,
          MaxKeys: this.listPageSize,
        }),
      );
      for (const object of page.Contents ?? []) {
        const key = object.Key?.slice(this.keyPrefix.length);
        // Skips objects other tools put there, such as the "folder/" markers of web consoles.
        if (key === undefined || !isValidBlobKey(key)) continue;
        yield { key, size: object.Size ?? 0, lastModified: object.LastModified ?? new Date(0) };
      }
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken !== undefined);
  }

  /** S3 has no "disk": its capacity is the provider's business. */
  async freeBytes(): Promise<null> {
    return null;
  }

  async check(): Promise<void> {
    // One request that proves the endpoint, the credentials and the bucket all work.
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      // A HEAD answer has no body, so the SDK's own message is often just "UnknownError".
      const status = statusOf(error);
      const detail = status === undefined ? (error as Error).message : `HTTP ${status}`;
      throw new Error(`S3 bucket "${this.bucket}" is not usable: ${detail}`, { cause: error });
    }
  }

  /** Closes the SDK's pooled connections, for a clean shutdown. */
  async close(): Promise<void> {
    this.client.destroy();
  }

  private objectKey(key: string): string {
    return this.keyPrefix + key;
  }
}

/** "photos", "/photos/" → "photos/"; unset → "". The prefix obeys the key rules too. */
function normalizeKeyPrefix(prefix: string | undefined): string {
  const trimmed = (prefix ?? "").replace(/^\/+|\/+$/g, "");
  if (trimmed === "") return "";
  validateBlobKey(trimmed);
  return `${trimmed}/`;
}

function statusOf(error: unknown): number | undefined {
  return error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
}
