export type { BlobContent, BlobInfo, BlobStore, ByteRange, ByteRangeRequest, GetBlobOptions, PutBlobOptions } from "./blob-store";
export { BlobNotFoundError } from "./blob-store";
export { BlobRangeNotSatisfiableError, InvalidByteRangeError } from "./byte-range";
export { createBlobStore } from "./create-blob-store";
export { LocalBlobStore } from "./local-blob-store";
export { S3BlobStore, type S3BlobStoreOptions } from "./s3-blob-store";
export { BucketsRepository } from "./buckets.repository";
export { BucketsService } from "./buckets.service";
export { storageRoutes } from "./storage.routes";
