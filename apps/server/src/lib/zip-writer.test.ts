import { spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { PassThrough, Readable, Writable } from "node:stream";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { ZipWriter } from "./zip-writer";

const mtime = new Date(2026, 10, 24, 13, 45, 30);

/** Collects what the writer writes. */
function sink(): { stream: Writable; bytes: () => Buffer } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return { stream, bytes: () => Buffer.concat(chunks) };
}

interface ReadEntry {
  name: string;
  bytes: Buffer;
  compressed: boolean;
  mtime: Date;
}

/** Reads a ZIP with an independent reader (yauzl), checking every size and CRC-32 as it goes. */
async function read(zip: Buffer): Promise<ReadEntry[]> {
  const file = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(zip, { lazyEntries: true, validateEntrySizes: true, strictFileNames: true }, (error, opened) =>
      error ? reject(error) : resolve(opened),
    ),
  );
  const entries: ReadEntry[] = [];
  await new Promise<void>((resolve, reject) => {
    file.on("error", reject);
    file.on("end", () => resolve());
    file.on("entry", (entry: yauzl.Entry) => {
      file.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("error", reject);
        stream.on("end", () => {
          entries.push({
            name: entry.fileName,
            bytes: Buffer.concat(chunks),
            compressed: entry.compressionMethod === 8,
            mtime: entry.getLastModDate(),
          });
          file.readEntry();
        });
      });
    });
    file.readEntry();
  });
  return entries;
}

/** The names in a ZIP's central directory, as yauzl reads them (ZIP64 end records included), without reading the bytes. */
async function listNames(zip: Buffer): Promise<string[]> {
  const file = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(zip, { lazyEntries: false, strictFileNames: true }, (error, opened) =>
      error ? reject(error) : resolve(opened),
    ),
  );
  const names: string[] = [];
  await new Promise<void>((resolve, reject) => {
    file.on("error", reject);
    file.on("entry", (entry: yauzl.Entry) => names.push(entry.fileName));
    file.on("end", () => resolve());
  });
  return names;
}

interface PythonEntry {
  name: string;
  compressed: boolean;
  size: number;
  /** Null for an entry whose bytes were not read (`readWithPython`'s `every`). */
  sha256: string | null;
  /** Year, month, day, hours, minutes, seconds. */
  mtime: number[];
}

/**
 * Reads a ZIP with a second independent reader, Python's zipfile module (python3 on the machine;
 * ZIP64 included): every entry of the central directory, and the bytes of every `every`th entry
 * and the last, whose CRC-32 it checks as it reads them (reading costs it 0.1 ms an entry).
 */
function readWithPython(zip: Buffer, { every = 1 }: { every?: number } = {}): PythonEntry[] {
  const reader = `
import hashlib, io, json, sys, zipfile
every = int(sys.argv[1])
with zipfile.ZipFile(io.BytesIO(sys.stdin.buffer.read())) as archive:
    infos = archive.infolist()
    entries = []
    for index, info in enumerate(infos):
        read = index % every == 0 or index == len(infos) - 1
        entries.append({"name": info.filename, "compressed": info.compress_type == zipfile.ZIP_DEFLATED,
                        "size": info.file_size, "mtime": info.date_time,
                        "sha256": hashlib.sha256(archive.read(info)).hexdigest() if read else None})
    json.dump(entries, sys.stdout)
`;
  const result = spawnSync("python3", ["-c", reader, String(every)], { input: zip, maxBuffer: 256 * 1024 * 1024 });
  if (result.error) throw new Error(`python3 is needed to read the archives with a second reader: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`Python's zipfile refused the archive: ${result.stderr.toString()}`);
  return JSON.parse(result.stdout.toString()) as PythonEntry[];
}

const sha256 = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");
const pythonMtime = [2026, 11, 24, 13, 45, 30];

describe("ZipWriter", () => {
  it("writes stored and deflated entries that another reader takes back byte for byte, with UTF-8 names and their time", async () => {
    const output = sink();
    const zip = new ZipWriter(output.stream);
    const photo = randomBytes(300_000);
    const text = "Café in Lisbon. ".repeat(5_000);
    await zip.add("photos/café.jpg", Readable.from([photo.subarray(0, 1000), photo.subarray(1000)]), { mtime, compress: false });
    await zip.add("pages/day.html", Readable.from([text]), { mtime, compress: true });
    await zip.add("empty.txt", Buffer.alloc(0), { mtime, compress: true });
    await zip.add("sized.bin", Buffer.from("four"), { mtime, compress: false, size: 4 });
    await zip.finish();

    const zipped = output.bytes();
    const entries = await read(zipped);
    expect(entries.map((entry) => entry.name)).toEqual(["photos/café.jpg", "pages/day.html", "empty.txt", "sized.bin"]);
    expect(entries[0]!.bytes.equals(photo)).toBe(true);
    expect(entries[0]!.compressed).toBe(false);
    expect(entries[1]!.bytes.toString()).toBe(text);
    expect(entries[1]!.compressed).toBe(true);
    expect(entries[2]!.bytes).toHaveLength(0);
    expect(entries[3]!.bytes.toString()).toBe("four");
    expect(entries[0]!.mtime).toEqual(mtime);
    // Text shrinks; photos are stored once, not twice.
    expect(zipped.length).toBeLessThan(photo.length + text.length / 10);
    expect(readWithPython(zipped)).toEqual([
      { name: "photos/café.jpg", compressed: false, size: photo.length, sha256: sha256(photo), mtime: pythonMtime },
      { name: "pages/day.html", compressed: true, size: Buffer.byteLength(text), sha256: sha256(text), mtime: pythonMtime },
      { name: "empty.txt", compressed: true, size: 0, sha256: sha256(""), mtime: pythonMtime },
      { name: "sized.bin", compressed: false, size: 4, sha256: sha256("four"), mtime: pythonMtime },
    ]);
  });

  it("deflates a page as small as zlib's default window would, whatever its length (a window fitted to the page)", async () => {
    // Its end repeats its beginning, from nearly the page's length back: a window too small for
    // the whole page misses that.
    const pageOf = (length: number) => {
      const body = randomBytes(length)
        .toString("base64")
        .slice(0, Math.max(0, length - 60));
      return Buffer.from((body + body.slice(0, 60)).slice(0, length).padEnd(length, "x"));
    };
    for (const length of [1, 200, 3_000, 3_900, 4_000, 9_000, 40_000, 64 * 1024]) {
      const page = pageOf(length);
      const output = sink();
      const zip = new ZipWriter(output.stream);
      await zip.add("page.html", page, { mtime, compress: true });
      await zip.finish();
      const zipped = output.bytes();
      const [entry] = await read(zipped);
      expect(entry!.bytes.equals(page)).toBe(true);
      // Local header (30 + name), the deflated bytes, the descriptor (16), the directory (46 + name) and its end (22).
      const deflatedBytes = zipped.length - (30 + 9) - 16 - (46 + 9) - 22;
      expect(deflatedBytes, `a page of ${length} bytes`).toBe(zlib.deflateRawSync(page).length);
    }
  });

  it("writes ZIP64 fields and end records that a reader follows, as an archive past 4 GiB needs", async () => {
    const output = sink();
    const zip = new ZipWriter(output.stream, { forceZip64: true });
    const photo = randomBytes(70_000);
    await zip.add("a.jpg", photo, { mtime, compress: false });
    await zip.add("b.txt", Buffer.from("second entry ".repeat(100)), { mtime, compress: true });
    await zip.finish();

    const zipped = output.bytes();
    // The ZIP64 end of central directory record and its locator are there.
    expect(zipped.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(true);
    expect(zipped.includes(Buffer.from([0x50, 0x4b, 0x06, 0x07]))).toBe(true);
    const entries = await read(zipped);
    expect(entries.map((entry) => entry.name)).toEqual(["a.jpg", "b.txt"]);
    expect(entries[0]!.bytes.equals(photo)).toBe(true);
    expect(entries[1]!.bytes.toString()).toBe("second entry ".repeat(100));
    expect(readWithPython(zipped)).toEqual([
      { name: "a.jpg", compressed: false, size: photo.length, sha256: sha256(photo), mtime: pythonMtime },
      { name: "b.txt", compressed: true, size: 1300, sha256: sha256("second entry ".repeat(100)), mtime: pythonMtime },
    ]);
  });

  it("moves to ZIP64 on its own past 65,534 entries", async () => {
    const output = sink();
    const zip = new ZipWriter(output.stream);
    const count = 65_536;
    for (let i = 0; i < count; i++) await zip.add(`n/${i}`, Buffer.from([i & 0xff]), { mtime, compress: false });
    await zip.finish();

    const zipped = output.bytes();
    // yauzl follows the ZIP64 records to every name (opening 65,536 entries one by one would take it
    // twenty seconds); Python's zipfile lists every entry and reads the bytes of one in 97 and the
    // last, past the 65,535th, checking their CRC-32 (all of them took it seven seconds).
    const names = await listNames(zipped);
    expect(names).toHaveLength(count);
    expect(names.every((name, i) => name === `n/${i}`)).toBe(true);
    const byteHashes = Array.from({ length: 256 }, (_, byte) => sha256(Buffer.from([byte])));
    const pythonEntries = readWithPython(zipped, { every: 97 });
    expect(pythonEntries).toHaveLength(count);
    expect(pythonEntries.every((entry, i) => entry.name === `n/${i}` && entry.size === 1)).toBe(true);
    const read = pythonEntries.flatMap((entry, i) => (entry.sha256 === null ? [] : [{ entry, i }]));
    expect(read.length).toBeGreaterThan(600);
    expect(read.at(-1)!.i).toBe(count - 1);
    expect(read.every(({ entry, i }) => entry.sha256 === byteHashes[i & 0xff])).toBe(true);
  }, 120_000);

  it("refuses an entry whose bytes are not the size announced, and a source that fails, without ending the output", async () => {
    const output = sink();
    const zip = new ZipWriter(output.stream);
    await expect(zip.add("short.bin", Buffer.from("abc"), { mtime, compress: false, size: 4 })).rejects.toThrow(
      /3 bytes where 4/,
    );

    const failing = new ZipWriter(sink().stream);
    const source = new Readable({
      read() {
        this.destroy(new Error("disk read failed"));
      },
    });
    await expect(failing.add("broken.txt", source, { mtime, compress: true })).rejects.toThrow("disk read failed");
    expect(output.stream.writableEnded).toBe(false);
  });

  it("stops, rather than waiting for ever, when the output is closed mid-way (a cancelled download)", async () => {
    // Nobody reads it: once more than the writer's buffer waits in it, the writer waits for a drain that never comes.
    const output = new PassThrough({ highWaterMark: 1024 });
    const zip = new ZipWriter(output);
    const chunk = randomBytes(1024 * 1024);
    const writing = zip.add("big.bin", Readable.from(Array.from({ length: 20 }, () => chunk)), { mtime, compress: false });
    setTimeout(() => output.destroy(), 10);
    await expect(writing).rejects.toThrow();
  });

  it("takes one entry at a time and nothing after finish", async () => {
    const zip = new ZipWriter(sink().stream);
    const slow = new PassThrough();
    const first = zip.add("slow.txt", slow, { mtime, compress: true });
    await expect(zip.add("second.txt", Buffer.from("x"), { mtime, compress: true })).rejects.toThrow(/one entry at a time/);
    slow.end("done");
    await first;
    await zip.finish();
    await expect(zip.add("late.txt", Buffer.from("x"), { mtime, compress: true })).rejects.toThrow(/after finish/);
  });
});
