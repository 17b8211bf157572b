import path from "node:path";
import { describe, expect, it } from "vitest";
import { StorageUrlError } from "../../lib/storage-url";
import { createBlobStore } from "./create-blob-store";
import { LocalBlobStore } from "./local-blob-store";
import { S3BlobStore } from "./s3-blob-store";

describe("createBlobStore", () => {
  it("stores under {dataDir}/storage when no URL is set", () => {
    const store = createBlobStore(undefined, "/var/lib/memory-box");
    expect(store).toBeInstanceOf(LocalBlobStore);
    expect((store as LocalBlobStore).rootDir).toBe(path.join("/var/lib/memory-box", "storage"));
  });

  it("uses the folder of a file: URL", () => {
    const store = createBlobStore("file:///mnt/photos", "/var/lib/memory-box");
    expect((store as LocalBlobStore).rootDir).toBe("/mnt/photos");
  });

  it("builds an S3 store for an s3: URL", async () => {
    const store = createBlobStore("s3://photos?endpoint=http://127.0.0.1:9000&region=us-east-1", "/var/lib/memory-box");
    expect(store).toBeInstanceOf(S3BlobStore);
    expect((store as S3BlobStore).bucket).toBe("photos");
    await store.close();
  });

  it("refuses an invalid URL", () => {
    expect(() => createBlobStore("s3://Bad_Bucket", "/data")).toThrow(StorageUrlError);
  });
});
