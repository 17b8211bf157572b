import path from "node:path";
import { parseStorageUrl } from "../../lib/storage-url";
import type { BlobStore } from "./blob-store";
import { LocalBlobStore } from "./local-blob-store";
import { S3BlobStore } from "./s3-blob-store";

/** `storageUrl` unset means files under `{dataDir}/storage`. */
export function createBlobStore(storageUrl: string | undefined, dataDir: string): BlobStore {
  if (storageUrl === undefined) return new LocalBlobStore(path.join(dataDir, "storage"));
  const location = parseStorageUrl(storageUrl);
  switch (location.kind) {
    case "local":
      return new LocalBlobStore(location.rootDir);
    case "s3": {
      const { kind: _kind, region, ...options } = location;
      // S3-compatible servers ignore the region, but the SDK requires one to sign requests.
      return new S3BlobStore({ ...options, region: region ?? process.env.AWS_REGION ?? "us-east-1" });
    }
  }
}
