export type { BlobContent, BlobInfo, BlobStore, ByteRange, ByteRangeRequest, GetBlobOptions, PutBlobOptions } from "./blob-store";
export { BlobNotFoundError, BlobRangeNotSatisfiableError, InvalidBlobKeyError, InvalidByteRangeError } from "./blob-store";
export { isValidBlobKey, validateBlobKey } from "./blob-key";
export { createBlobStore, parseStorageUrl, StorageUrlError, type StorageLocation } from "./create-blob-store";
export { LocalBlobStore } from "./local-blob-store";
export { S3BlobStore, type S3BlobStoreOptions } from "./s3-blob-store";
