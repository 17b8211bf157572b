import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import crypto, { type BinaryLike, type CipherKey } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TransformOptions } from "node:stream";
import S3rver from "s3rver";
import type { S3BlobStoreOptions } from "../src/modules/storage/s3-blob-store";

export interface TestS3Server {
  /** Connection options for S3BlobStore (bucket created, s3rver's fixed credentials). */
  connection: S3BlobStoreOptions;
  /** The same as a STORAGE_URL. */
  storageUrl: string;
  stop(): Promise<void>;
}

/** A real S3-compatible server (s3rver) on loopback, port chosen by the system, with one bucket. */
export async function startTestS3Server(bucket = "memory-box-test"): Promise<TestS3Server> {
  const restoreCrypto = letS3rverUseDes();
  const dir = await mkdtemp(path.join(os.tmpdir(), "memory-box-s3-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: dir });
  const { port } = await server.run();
  const connection: S3BlobStoreOptions = {
    bucket,
    endpoint: `http://127.0.0.1:${port}`,
    region: "us-east-1",
    forcePathStyle: true,
    // s3rver checks signatures against these fixed credentials.
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
  };
  const admin = new S3Client({ ...connection, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
  await admin.send(new CreateBucketCommand({ Bucket: bucket }));
  admin.destroy();
  return {
    connection,
    storageUrl: `s3://S3RVER:S3RVER@${bucket}?endpoint=${encodeURIComponent(connection.endpoint ?? "")}&region=us-east-1&forcePathStyle=true`,
    stop: async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
      restoreCrypto();
    },
  };
}

/**
 * s3rver builds its ListObjectsV2 continuation tokens with single DES, which Node 20's OpenSSL no
 * longer offers. Triple DES with the key three times is the same cipher, so it stands in while
 * s3rver runs.
 */
function letS3rverUseDes(): () => void {
  const { createCipheriv, createDecipheriv } = crypto;
  const tripled = (key: CipherKey) => Buffer.concat([key, key, key] as Buffer[]);
  crypto.createCipheriv = ((algorithm: string, key: CipherKey, iv: BinaryLike | null, options?: TransformOptions) =>
    algorithm === "des"
      ? createCipheriv("des-ede3-cbc", tripled(key), iv, options)
      : createCipheriv(algorithm, key, iv, options)) as typeof createCipheriv;
  crypto.createDecipheriv = ((algorithm: string, key: CipherKey, iv: BinaryLike | null, options?: TransformOptions) =>
    algorithm === "des"
      ? createDecipheriv("des-ede3-cbc", tripled(key), iv, options)
      : createDecipheriv(algorithm, key, iv, options)) as typeof createDecipheriv;
  return () => {
    crypto.createCipheriv = createCipheriv;
    crypto.createDecipheriv = createDecipheriv;
  };
}
