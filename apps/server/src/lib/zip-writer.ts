import { once } from "node:events";
import type { Readable, Writable } from "node:stream";
import zlib from "node:zlib";

/**
 * A streaming ZIP writer (PKWARE APPNOTE 6.3) for archives of any size: entries are written one
 * after the other as their bytes arrive, each followed by a data descriptor (so nothing is
 * buffered or written twice), with ZIP64 records wherever an offset, a size or the number of
 * entries outgrows the classic fields. Names are UTF-8 (flag bit 11).
 *
 * Ours rather than a library's (ADR 0027): an export is mostly photos stored as they are, so its
 * pace is the CRC-32's and the stream plumbing's; this one uses zlib's native CRC-32 (ten times
 * the JavaScript one) and passes each chunk straight to the output with its backpressure.
 */
export interface ZipEntryOptions {
  mtime: Date;
  /** Deflate the bytes (text); false stores them as they are (photos, already compressed). */
  compress: boolean;
  /** The exact byte count when known beforehand: checked, and an entry of 4 GiB or more gets ZIP64 fields. */
  size?: number;
}

interface CentralRecord {
  /**
   * Kept as text until the directory is written: a small Buffer is a view of a shared 64 KiB
   * slab, and each name kept for the directory would keep its whole slab alive (slabs the
   * deflated pages fill quickly): tens of kilobytes an entry, gigabytes for a lifetime's archive.
   */
  name: string;
  method: number;
  dosTime: number;
  dosDate: number;
  crc: number;
  compressedSize: number;
  size: number;
  offset: number;
  zip64Descriptor: boolean;
}

/** Small writes are gathered up to this many bytes before the output gets them. */
const gatheredBytes = 256 * 1024;
/** Bytes deflated in one call on the event loop's thread; larger ones go through a stream (libuv's pool). */
const deflatedAtOnceBytes = 64 * 1024;
/**
 * The smallest deflate window that still reaches back over all of `length` bytes (zlib keeps 262
 * of it for look-ahead): the same output, and for a page of a few kilobytes a state a fraction
 * of the default 32 KiB window's to set up and clear (22 µs a page against 38).
 */
function windowBitsFor(length: number): number {
  return Math.min(15, Math.max(9, Math.ceil(Math.log2(length + 262))));
}
const u32Max = 0xffffffff;
const u16Max = 0xffff;
const versionNeeded = 20;
const versionNeededZip64 = 45;
/** Made by UNIX (3), specification 6.3: the external attributes carry a UNIX mode. */
const versionMadeBy = (3 << 8) | 63;
const flagDataDescriptor = 1 << 3;
const flagUtf8 = 1 << 11;
const methodStored = 0;
const methodDeflated = 8;
const regularFileMode = 0o100644;

export class ZipWriter {
  private offset = 0;
  private readonly records: CentralRecord[] = [];
  private busy = false;
  private finished = false;
  private gathered: Buffer[] = [];
  private gatheredLength = 0;

  private readonly forceZip64: boolean;
  private readonly releaseChunk: ((chunk: Buffer) => void) | undefined;

  constructor(
    private readonly output: Writable,
    options: {
      /** Tests only: ZIP64 fields on every entry and at the end, as an archive past 4 GiB has them. */
      forceZip64?: boolean;
      /**
       * Called with each chunk of a stored entry once the output has called back for it, so its
       * buffer can be reused. Only for an output that is done with a chunk when it calls back (a
       * file, a socket, an HTTP response), never a transform that passes chunks on to a reader.
       */
      releaseChunk?: (chunk: Buffer) => void;
    } = {},
  ) {
    this.forceZip64 = options.forceZip64 ?? false;
    this.releaseChunk = options.releaseChunk;
  }

  /** Writes one entry from its bytes; resolves once they are all handed to the output. Entries are added one at a time. */
  async add(name: string, content: Readable | AsyncIterable<Buffer | string> | Buffer, options: ZipEntryOptions): Promise<void> {
    if (this.busy || this.finished) throw new Error("one entry at a time, and none after finish()");
    this.busy = true;
    try {
      await this.writeEntry(name, content, options);
    } finally {
      this.busy = false;
    }
  }

  /** Writes the central directory and ends the output once it has taken every byte. */
  async finish(): Promise<void> {
    if (this.busy || this.finished) throw new Error("finish() while an entry is being written, or twice");
    this.finished = true;
    const directoryStart = this.offset;
    for (const record of this.records) await this.write(centralHeader(record, this.forceZip64));
    const directorySize = this.offset - directoryStart;
    const needsZip64 = this.forceZip64 || this.records.length >= u16Max || directorySize >= u32Max || directoryStart >= u32Max;
    if (needsZip64) {
      const zip64EndOffset = this.offset;
      await this.write(zip64End(this.records.length, directorySize, directoryStart));
      await this.write(zip64Locator(zip64EndOffset));
    }
    await this.write(end(this.records.length, directorySize, directoryStart, needsZip64));
    await this.flush();
    this.output.end();
    await once(this.output, "finish");
  }

  private async writeEntry(name: string, content: Readable | AsyncIterable<Buffer | string> | Buffer, options: ZipEntryOptions) {
    if (Buffer.byteLength(name, "utf8") > u16Max) throw new Error("entry name is too long");
    const { dosTime, dosDate } = dosDateTime(options.mtime);
    const method = options.compress ? methodDeflated : methodStored;
    // A descriptor's sizes are 8 bytes when the local header announced ZIP64; with no size known
    // beforehand, an entry is taken to stay under 4 GiB (the archive's JSON and pages do).
    const zip64Descriptor = this.forceZip64 || (options.size ?? 0) >= u32Max;
    const record: CentralRecord = {
      name,
      method,
      dosTime,
      dosDate,
      crc: 0,
      compressedSize: 0,
      size: 0,
      offset: this.offset,
      zip64Descriptor,
    };
    await this.write(localHeader(record));

    let crc = 0;
    let size = 0;
    let compressedSize = 0;
    const source: Iterable<Buffer | string> | AsyncIterable<Buffer | string> = Buffer.isBuffer(content) ? [content] : content;
    if (method === methodDeflated && Buffer.isBuffer(content) && content.length <= deflatedAtOnceBytes) {
      // A page at hand: deflated in one call, without a stream's machinery per entry (an export
      // writes a page for each of a million memories); a few kilobytes hold the thread for
      // tens of microseconds.
      crc = zlib.crc32(content);
      size = content.length;
      const deflated = zlib.deflateRawSync(content, { windowBits: windowBitsFor(content.length) });
      compressedSize = deflated.length;
      await this.write(deflated);
    } else if (method === methodStored) {
      for await (const chunk of source) {
        const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
        crc = zlib.crc32(bytes, crc);
        size += bytes.length;
        await this.write(bytes, this.releaseChunk);
      }
      compressedSize = size;
    } else {
      const deflate = zlib.createDeflateRaw();
      const fed = (async () => {
        try {
          for await (const chunk of source) {
            const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
            crc = zlib.crc32(bytes, crc);
            size += bytes.length;
            if (!deflate.write(bytes)) await once(deflate, "drain");
          }
          deflate.end();
        } catch (error) {
          deflate.destroy(error as Error);
        }
      })();
      for await (const chunk of deflate as AsyncIterable<Buffer>) {
        compressedSize += chunk.length;
        await this.write(chunk);
      }
      await fed;
    }
    if (options.size !== undefined && options.size !== size)
      throw new Error(`entry ${name} has ${size} bytes where ${options.size} were announced`);
    if (!zip64Descriptor && (size >= u32Max || compressedSize >= u32Max)) throw new Error(`entry ${name} reached 4 GiB`);
    Object.assign(record, { crc, size, compressedSize });
    await this.write(dataDescriptor(record));
    this.records.push(record);
  }

  /**
   * Small pieces (headers, descriptors, deflated pages) are gathered and handed on together: an
   * export of a million memories writes millions of them, and each write to a file is a call
   * into the kernel. A chunk to be released (a photo's) is handed on at once, after them.
   */
  private async write(bytes: Buffer, written?: (bytes: Buffer) => void): Promise<void> {
    this.offset += bytes.length;
    if (written === undefined && bytes.length < gatheredBytes) {
      this.gathered.push(bytes);
      this.gatheredLength += bytes.length;
      if (this.gatheredLength >= gatheredBytes) await this.flush();
      return;
    }
    await this.flush();
    await this.send(bytes, written);
  }

  private async flush(): Promise<void> {
    if (this.gathered.length === 0) return;
    const chunk = this.gathered.length === 1 ? this.gathered[0]! : Buffer.concat(this.gathered, this.gatheredLength);
    this.gathered = [];
    this.gatheredLength = 0;
    await this.send(chunk);
  }

  private async send(bytes: Buffer, written?: (bytes: Buffer) => void): Promise<void> {
    if (this.output.destroyed) throw new Error("the output was closed");
    this.output.write(bytes, written && (() => written(bytes)));
    // The output's own high-water mark (16 KiB for a file) would make every chunk wait a turn of the
    // event loop; up to `bufferedBytes` may wait in it instead, which still bounds the memory.
    if (this.output.writableLength > bufferedBytes) await drained(this.output);
  }
}

/** Most bytes left waiting in the output before the writer waits for it to drain. */
const bufferedBytes = 8 * 1024 * 1024;

/** Resolves when the output has drained; rejects when it fails or closes first (a download cancelled). */
function drained(output: Writable): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const settle = (error?: Error) => {
      output.off("drain", onDrain);
      output.off("error", onError);
      output.off("close", onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => settle();
    const onError = (error: Error) => settle(error);
    const onClose = () => settle(new Error("the output was closed"));
    output.on("drain", onDrain);
    output.on("error", onError);
    output.on("close", onClose);
  });
}

function dosDateTime(date: Date): { dosTime: number; dosDate: number } {
  const year = Math.min(Math.max(date.getFullYear(), 1980), 2107);
  return {
    dosTime: (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1),
    dosDate: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

function localHeader(record: CentralRecord): Buffer {
  // CRC and sizes follow in the data descriptor; a ZIP64 entry says so with an extra field of zeros.
  const extra = record.zip64Descriptor ? zip64Extra([0, 0]) : Buffer.alloc(0);
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(record.zip64Descriptor ? versionNeededZip64 : versionNeeded, 4);
  header.writeUInt16LE(flagDataDescriptor | flagUtf8, 6);
  header.writeUInt16LE(record.method, 8);
  header.writeUInt16LE(record.dosTime, 10);
  header.writeUInt16LE(record.dosDate, 12);
  header.writeUInt32LE(0, 14);
  header.writeUInt32LE(record.zip64Descriptor ? u32Max : 0, 18);
  header.writeUInt32LE(record.zip64Descriptor ? u32Max : 0, 22);
  const name = Buffer.from(record.name, "utf8");
  header.writeUInt16LE(name.length, 26);
  header.writeUInt16LE(extra.length, 28);
  return Buffer.concat([header, name, extra]);
}

function dataDescriptor(record: CentralRecord): Buffer {
  if (!record.zip64Descriptor) {
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(record.crc, 4);
    descriptor.writeUInt32LE(record.compressedSize, 8);
    descriptor.writeUInt32LE(record.size, 12);
    return descriptor;
  }
  const descriptor = Buffer.alloc(24);
  descriptor.writeUInt32LE(0x08074b50, 0);
  descriptor.writeUInt32LE(record.crc, 4);
  descriptor.writeBigUInt64LE(BigInt(record.compressedSize), 8);
  descriptor.writeBigUInt64LE(BigInt(record.size), 16);
  return descriptor;
}

/** The ZIP64 extended information extra field (header 0x0001) with the given 8-byte values. */
function zip64Extra(values: number[]): Buffer {
  const extra = Buffer.alloc(4 + 8 * values.length);
  extra.writeUInt16LE(0x0001, 0);
  extra.writeUInt16LE(8 * values.length, 2);
  values.forEach((value, i) => extra.writeBigUInt64LE(BigInt(value), 4 + 8 * i));
  return extra;
}

function centralHeader(record: CentralRecord, forceZip64: boolean): Buffer {
  // Only the fields that do not fit are moved to the ZIP64 field, in the order the format fixes.
  const sizeTooLarge = forceZip64 || record.size >= u32Max;
  const compressedTooLarge = forceZip64 || record.compressedSize >= u32Max;
  const offsetTooLarge = forceZip64 || record.offset >= u32Max;
  const zip64Values = [
    ...(sizeTooLarge ? [record.size] : []),
    ...(compressedTooLarge ? [record.compressedSize] : []),
    ...(offsetTooLarge ? [record.offset] : []),
  ];
  const extra = zip64Values.length > 0 ? zip64Extra(zip64Values) : Buffer.alloc(0);
  const header = Buffer.alloc(46);
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE(versionMadeBy, 4);
  header.writeUInt16LE(zip64Values.length > 0 || record.zip64Descriptor ? versionNeededZip64 : versionNeeded, 6);
  header.writeUInt16LE(flagDataDescriptor | flagUtf8, 8);
  header.writeUInt16LE(record.method, 10);
  header.writeUInt16LE(record.dosTime, 12);
  header.writeUInt16LE(record.dosDate, 14);
  header.writeUInt32LE(record.crc, 16);
  header.writeUInt32LE(compressedTooLarge ? u32Max : record.compressedSize, 20);
  header.writeUInt32LE(sizeTooLarge ? u32Max : record.size, 24);
  const name = Buffer.from(record.name, "utf8");
  header.writeUInt16LE(name.length, 28);
  header.writeUInt16LE(extra.length, 30);
  header.writeUInt16LE(0, 32); // comment length
  header.writeUInt16LE(0, 34); // disk number
  header.writeUInt16LE(0, 36); // internal attributes
  header.writeUInt32LE((regularFileMode << 16) >>> 0, 38);
  header.writeUInt32LE(offsetTooLarge ? u32Max : record.offset, 42);
  return Buffer.concat([header, name, extra]);
}

function zip64End(entries: number, directorySize: number, directoryStart: number): Buffer {
  const record = Buffer.alloc(56);
  record.writeUInt32LE(0x06064b50, 0);
  record.writeBigUInt64LE(44n, 4); // size of the rest of this record
  record.writeUInt16LE(versionMadeBy, 12);
  record.writeUInt16LE(versionNeededZip64, 14);
  record.writeUInt32LE(0, 16); // this disk
  record.writeUInt32LE(0, 20); // disk with the directory
  record.writeBigUInt64LE(BigInt(entries), 24);
  record.writeBigUInt64LE(BigInt(entries), 32);
  record.writeBigUInt64LE(BigInt(directorySize), 40);
  record.writeBigUInt64LE(BigInt(directoryStart), 48);
  return record;
}

function zip64Locator(zip64EndOffset: number): Buffer {
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeUInt32LE(0, 4);
  locator.writeBigUInt64LE(BigInt(zip64EndOffset), 8);
  locator.writeUInt32LE(1, 16); // total disks
  return locator;
}

function end(entries: number, directorySize: number, directoryStart: number, zip64: boolean): Buffer {
  const record = Buffer.alloc(22);
  record.writeUInt32LE(0x06054b50, 0);
  record.writeUInt16LE(0, 4);
  record.writeUInt16LE(0, 6);
  record.writeUInt16LE(zip64 ? u16Max : entries, 8);
  record.writeUInt16LE(zip64 ? u16Max : entries, 10);
  record.writeUInt32LE(zip64 ? u32Max : directorySize, 12);
  record.writeUInt32LE(zip64 ? u32Max : directoryStart, 16);
  record.writeUInt16LE(0, 20); // comment length
  return record;
}
