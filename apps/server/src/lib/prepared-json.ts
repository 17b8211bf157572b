import { promisify } from "node:util";
import { gzip } from "node:zlib";

const gzipAsync = promisify(gzip);

/**
 * A response body serialized once and gzipped at most once, for answers that are sent many times
 * over (cached list pages). Compression runs on libuv's thread pool, off the event loop.
 */
export class PreparedJson {
  private gzipped: Promise<Buffer> | undefined;

  constructor(readonly bytes: Buffer) {}

  static of(value: unknown): PreparedJson {
    return new PreparedJson(Buffer.from(JSON.stringify(value)));
  }

  gzip(): Promise<Buffer> {
    this.gzipped ??= gzipAsync(this.bytes);
    return this.gzipped;
  }
}
