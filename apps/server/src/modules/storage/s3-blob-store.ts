import type * as ClientS3 from "@aws-sdk/client-s3";
import type { S3Client } from "@aws-sdk/client-s3";
import type { Upload } from "@aws-sdk/lib-storage";
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

type S3Sdk = typeof ClientS3;
type S3Upload = typeof Upload;

/**
 * The AWS SDK, loaded on first use: it is a tenth of a second of start-up for every process, and
 * an instance on local storage, or an operator command that touches no photo, never needs it.
 */
let sdk: Promise<{ s3: S3Sdk; Upload: S3Upload }> | undefined;
const loadSdk = () =>
  (sdk ??= Promise.all([import("@aws-sdk/client-s3"), import("@aws-sdk/lib-storage")]).then(([s3, storage]) => ({
    s3,
    Upload: storage.Upload,
  })));

export class S3BlobStore implements BlobStore {
  readonly bucket: string;
  private connection: Promise<{ client: S3Client; s3: S3Sdk; Upload: S3Upload }> | undefined;
  private readonly keyPrefix: string;
  private readonly listPageSize: number | undefined;

  constructor(private readonly options: S3BlobStoreOptions) {
    this.bucket = options.bucket;
    this.keyPrefix = normalizeKeyPrefix(options.prefix);
    this.listPageSize = options.listPageSize;
  }

  /** The SDK's client, made on first use. */
  private s3() {
    this.connection ??= loadSdk().then(({ s3, Upload }) => ({ client: this.createClient(s3.S3Client), s3, Upload }));
    return this.connection;
  }

  private createClient(Client: typeof S3Client): S3Client {
    const options = this.options;
    return new Client({
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
    const { client, Upload } = await this.s3();
    // Upload (not PutObject) because a stream's length is usually unknown: it sends one
    // request for small bodies and a multipart upload, aborted on failure, for large ones.
    const upload = new Upload({
      client,
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
    const { client, s3 } = await this.s3();
    let output;
    try {
      output = await client.send(
        new s3.GetObjectCommand({
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
    const { client, s3 } = await this.s3();
    try {
      const head = await client.send(new s3.HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
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
    const { client, s3 } = await this.s3();
    await client.send(new s3.DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  async *list(prefix: string): AsyncIterable<BlobInfo> {
    validateBlobPrefix(prefix);
    const { client, s3 } = await this.s3();
    let continuationToken: string | undefined;
    do {
      const page = await client.send(
        new s3.ListObjectsV2Command({
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
    const { client, s3 } = await this.s3();
    try {
      await client.send(new s3.HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      // A HEAD answer has no body, so the SDK's own message is often just "UnknownError".
      const status = statusOf(error);
      const detail = status === undefined ? (error as Error).message : `HTTP ${status}`;
      throw new Error(`S3 bucket "${this.bucket}" is not usable: ${detail}`, { cause: error });
    }
  }

  /** Closes the SDK's pooled connections, for a clean shutdown. */
  async close(): Promise<void> {
    (await this.connection)?.client.destroy();
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

/** The HTTP status of an S3 service error (every one carries `$metadata`), undefined for other failures. */
function statusOf(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null || !("$metadata" in error)) return undefined;
  return (error as { $metadata: { httpStatusCode?: number } }).$metadata.httpStatusCode;
}
