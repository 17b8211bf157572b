import fs from "node:fs";
import { Readable, Transform } from "node:stream";
import { promisify } from "node:util";
import zlib from "node:zlib";
import yauzl from "yauzl";

/** A ZIP that cannot be read safely: damaged, not a ZIP, or built to harm its reader. Its message says why. */
export class InvalidZipError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidZipError";
  }
}

export interface ZipEntryInfo {
  name: string;
  /** Uncompressed size as the central directory states it; reading enforces it. */
  size: number;
}

/** Directory entries read between two turns of the event loop: a few milliseconds' work. */
const entriesPerTurn = 500;

/**
 * Reads a ZIP file from disk by entry name, for archives nobody vouches for: the whole central
 * directory is read and checked first (names that climb out with `..`, absolute or backslashed
 * names, duplicates, encrypted entries, too many entries), and each entry's bytes are held to the
 * size and CRC-32 the directory states, so a bomb that lies about its size or a damaged entry
 * fails while it is read instead of filling the disk or passing for good bytes. Nothing is ever
 * written under an entry's name.
 */
export class ZipReader {
  private constructor(
    private readonly zip: yauzl.ZipFile,
    private readonly byName: Map<string, yauzl.Entry>,
  ) {}

  /**
   * `keep`: the entries the caller will look up or read; the others are checked as every entry
   * is, then dropped (each held entry takes most of a kilobyte, and an archive of a lifetime
   * has a million and a half, most of them pages no import reads). All of them by default.
   */
  static async open(file: string, options: { maxEntries: number; keep?: (name: string) => boolean }): Promise<ZipReader> {
    let zip: yauzl.ZipFile;
    try {
      const reader = await ReadAheadFile.open(file);
      zip = await yauzl
        .fromRandomAccessReaderPromise(reader, reader.size, {
          lazyEntries: true,
          autoClose: false,
          strictFileNames: true,
          validateEntrySizes: true,
        })
        .catch((error: unknown) => {
          reader.close(() => undefined);
          throw error;
        });
    } catch {
      // What yauzl says is for developers; the member is told what it means.
      throw new InvalidZipError("it is not a ZIP file, or it is incomplete (cut off while it was copied or downloaded)");
    }
    try {
      if (zip.entryCount > options.maxEntries)
        throw new InvalidZipError(`it holds ${zip.entryCount} files, more than ${options.maxEntries}`);
      const byName = new Map<string, yauzl.Entry>();
      const dropped = new Set<string>();
      await new Promise<void>((resolve, reject) => {
        zip.on("error", (error: Error) => reject(error instanceof InvalidZipError ? error : new InvalidZipError(error.message)));
        zip.on("end", () => resolve());
        zip.on("entry", (entry: yauzl.Entry) => {
          if (entry.isEncrypted()) return reject(new InvalidZipError(`${entry.fileName} is encrypted`));
          if (byName.has(entry.fileName) || dropped.has(entry.fileName))
            return reject(new InvalidZipError(`${entry.fileName} is in it twice`));
          if (options.keep === undefined || options.keep(entry.fileName)) byName.set(entry.fileName, entry);
          else dropped.add(entry.fileName);
          // The directory is read ahead in large blocks, so most entries come without a wait:
          // a turn of the event loop every so often lets a server answer meanwhile.
          if ((byName.size + dropped.size) % entriesPerTurn === 0) setImmediate(() => zip.readEntry());
          else zip.readEntry();
        });
        zip.readEntry();
      });
      return new ZipReader(zip, byName);
    } catch (error) {
      zip.close();
      throw error;
    }
  }

  /** Every entry kept (see `open`), folders included, in the directory's order. */
  entries(): ZipEntryInfo[] {
    return [...this.byName.values()].map((entry) => ({ name: entry.fileName, size: entry.uncompressedSize }));
  }

  entry(name: string): ZipEntryInfo | undefined {
    const entry = this.byName.get(name);
    return entry && { name: entry.fileName, size: entry.uncompressedSize };
  }

  /** The bytes of one entry; the stream fails with an InvalidZipError if they are not the size and CRC-32 stated. */
  async open(name: string): Promise<Readable> {
    const entry = this.byName.get(name);
    if (!entry) throw new InvalidZipError(`${name} is not in it`);
    let stream: Readable;
    try {
      stream = await new Promise<Readable>((resolve, reject) =>
        this.zip.openReadStream(entry, (error, opened) => (error ? reject(error) : resolve(opened))),
      );
    } catch (error) {
      throw new InvalidZipError(`${name} cannot be read (${(error as Error).message})`);
    }
    let crc = 0;
    const checked = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        crc = zlib.crc32(chunk, crc);
        done(null, chunk);
      },
      flush(done) {
        done(crc >>> 0 === entry.crc32 >>> 0 ? null : new InvalidZipError(`${name} is damaged (its checksum does not match)`));
      },
    });
    stream.on("error", (error: Error) =>
      checked.destroy(error instanceof InvalidZipError ? error : new InvalidZipError(`${name}: ${error.message}`)),
    );
    return stream.pipe(checked);
  }

  close(): void {
    this.zip.close();
  }
}

/** What a read that follows the previous one reads at once (the central directory's entries are read one after the other). */
const readAheadBytes = 1024 * 1024;
/** What one read of an entry's bytes takes. */
const entryChunkBytes = 256 * 1024;

/**
 * The ZIP file as yauzl reads it, with a read-ahead for reads that follow on from the previous
 * one: yauzl reads the central directory an entry at a time, two reads of a few dozen bytes
 * each, and a lifetime's archive has a million and a half entries: three million calls into
 * libuv's pool, each a thread woken and waking back (most of two minutes on a virtual machine),
 * against one a megabyte. A read elsewhere (an entry's local header) reads only what it asks.
 * Entries' bytes are streamed from the descriptor as yauzl's own reader streams them.
 */
class ReadAheadFile extends yauzl.RandomAccessReader {
  private window: Buffer = Buffer.alloc(0);
  private windowStart = 0;
  private nextPosition = -1;

  private constructor(
    private readonly fd: number,
    readonly size: number,
  ) {
    super();
  }

  static async open(file: string): Promise<ReadAheadFile> {
    const fd = await promisify(fs.open)(file, "r");
    try {
      const { size } = await promisify(fs.fstat)(fd);
      return new ReadAheadFile(fd, size);
    } catch (error) {
      fs.close(fd, () => undefined);
      throw error;
    }
  }

  override read(buffer: Buffer, offset: number, length: number, position: number, callback: (error: Error | null) => void): void {
    const done = (error: Error | null) => queueMicrotask(() => callback(error));
    const from = position - this.windowStart;
    if (from >= 0 && from + length <= this.window.length) {
      this.window.copy(buffer, offset, from, from + length);
      this.nextPosition = position + length;
      return done(null);
    }
    const sequential = position === this.nextPosition;
    const size = sequential ? Math.max(length, readAheadBytes) : length;
    const target = sequential ? Buffer.allocUnsafe(size) : buffer;
    fs.read(this.fd, target, sequential ? 0 : offset, size, position, (error, bytesRead) => {
      if (error) return done(error);
      if (bytesRead < length) return done(new Error("unexpected EOF"));
      if (sequential) {
        this.window = target.subarray(0, bytesRead);
        this.windowStart = position;
        target.copy(buffer, offset, 0, length);
      }
      this.nextPosition = position + length;
      done(null);
    });
  }

  /**
   * Reads at positions of their own, never closing the descriptor (yauzl closes the reader once
   * done with it). Not `fs.createReadStream({ fd, autoClose: false })`: destroying that stream
   * still closes the descriptor, and yauzl destroys each entry's stream when it is read.
   */
  override _readStreamForRange(start: number, end: number): Readable {
    const fd = this.fd;
    let position = start;
    return new Readable({
      highWaterMark: entryChunkBytes,
      read() {
        const length = Math.min(entryChunkBytes, end - position);
        if (length <= 0) {
          this.push(null);
          return;
        }
        const chunk = Buffer.allocUnsafe(length);
        fs.read(fd, chunk, 0, length, position, (error, bytesRead) => {
          if (error) return this.destroy(error);
          // Cut short (the file shrank): yauzl counts the bytes and fails the entry.
          if (bytesRead === 0) return this.push(null);
          position += bytesRead;
          this.push(chunk.subarray(0, bytesRead));
        });
      },
    });
  }

  override close(callback: (error: Error | null) => void): void {
    fs.close(this.fd, (error) => callback(error ?? null));
  }
}
