import { Transform, type Readable } from "node:stream";
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
      zip = await yauzl.openPromise(file, {
        lazyEntries: true,
        autoClose: false,
        strictFileNames: true,
        validateEntrySizes: true,
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
          zip.readEntry();
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
