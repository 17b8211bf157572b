import { createHash, randomBytes } from "node:crypto";
import { Readable } from "node:stream";

// Shared by the storage tests only; nothing in the server imports this file.

/** Random bytes produced on demand, hashed as they go, so nothing holds the whole body. */
export function generatedStream(totalBytes: number): { stream: Readable; digest: () => string } {
  const hash = createHash("sha256");
  async function* chunks() {
    for (let sent = 0; sent < totalBytes;) {
      const chunk = randomBytes(Math.min(64 * 1024, totalBytes - sent));
      hash.update(chunk);
      sent += chunk.length;
      yield chunk;
    }
  }
  return { stream: Readable.from(chunks()), digest: () => hash.digest("hex") };
}

/** Sends a few chunks, then fails the way a dropped client upload does. */
export function failingStream(chunksBeforeFailure: number): Readable {
  async function* chunks() {
    for (let index = 0; index < chunksBeforeFailure; index++) yield randomBytes(16 * 1024);
    throw new Error("connection lost");
  }
  return Readable.from(chunks());
}
