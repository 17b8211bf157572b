import fs from "node:fs";
import { Writable } from "node:stream";

/**
 * A file written with blocking calls on the calling thread, synced to disk when ended: for a
 * command with nothing else to serve (the operator's export). `fs.createWriteStream` hands each
 * write to libuv's pool and back, which costs a process writing hundreds of thousands of pieces
 * more than the writes themselves on a virtual machine (ADR 0083). Never in the server.
 */
export function blockingFileWriter(file: string): Writable {
  let fd: number | undefined;
  return new Writable({
    highWaterMark: 1024 * 1024,
    construct(callback) {
      try {
        fd = fs.openSync(file, "w", 0o600);
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
    writev(chunks, callback) {
      try {
        for (const { chunk } of chunks) writeWhole(fd!, chunk as Buffer);
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
    final(callback) {
      try {
        fs.fsyncSync(fd!);
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
    destroy(error, callback) {
      if (fd !== undefined) fs.closeSync(fd);
      fd = undefined;
      callback(error);
    },
  });
}

function writeWhole(fd: number, chunk: Buffer): void {
  let written = 0;
  while (written < chunk.length) written += fs.writeSync(fd, chunk, written, chunk.length - written);
}
