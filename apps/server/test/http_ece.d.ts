// http_ece ships no types: the part the tests' push service uses to decrypt a message (RFC 8188, 8291).
declare module "http_ece" {
  import type { ECDH } from "node:crypto";

  export interface DecryptParams {
    version?: "aes128gcm" | "aesgcm";
    /** The receiver's key pair (the subscription's), for Web Push. */
    privateKey?: ECDH;
    /** The subscription's auth secret. */
    authSecret?: Buffer | string;
  }

  export function decrypt(buffer: Buffer, params: DecryptParams): Buffer;
}
