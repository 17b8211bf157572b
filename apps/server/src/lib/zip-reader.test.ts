import fs from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { InvalidZipError, ZipReader } from "./zip-reader";
import { ZipWriter } from "./zip-writer";

const mtime = new Date("2026-11-24T13:45:30Z");

/** A ZIP of `count` small entries, each named and filled after its number. */
async function zipOf(count: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  const zip = new ZipWriter(output);
  for (let index = 0; index < count; index += 1)
    await zip.add(`pages/${index}.html`, Buffer.from(`page ${index} `.repeat(1 + (index % 7))), {
      mtime,
      compress: index % 2 === 0,
    });
  await zip.finish();
  return Buffer.concat(chunks);
}

describe("ZipReader", () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), "memory-box-zip-reader-"));
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(folder, { recursive: true, force: true });
  });

  it("reads a directory of 20,000 entries in a few dozen reads of the file, not two an entry", async () => {
    const file = path.join(folder, "archive.zip");
    await writeFile(file, await zipOf(20_000));
    const reads = vi.spyOn(fs, "read");
    const reader = await ZipReader.open(file, { maxEntries: 100_000 });
    try {
      expect(reader.entries()).toHaveLength(20_000);
      expect(reads.mock.calls.length).toBeLessThan(40);
    } finally {
      reader.close();
    }
  });

  it("gives each entry's bytes wherever it lies, in any order", async () => {
    const file = path.join(folder, "archive.zip");
    await writeFile(file, await zipOf(3_000));
    const reader = await ZipReader.open(file, { maxEntries: 100_000 });
    try {
      for (const index of [2_999, 0, 1_500, 1, 2_998, 777]) {
        const bytes = await buffer(await reader.open(`pages/${index}.html`));
        expect(bytes.toString()).toBe(`page ${index} `.repeat(1 + (index % 7)));
      }
    } finally {
      reader.close();
    }
  });

  it("refuses a ZIP cut off before its directory, and leaves no file open", async () => {
    const file = path.join(folder, "cut.zip");
    const whole = await zipOf(100);
    await writeFile(file, whole.subarray(0, whole.length - 200));
    const before = fs.readdirSync("/proc/self/fd").length;
    await expect(ZipReader.open(file, { maxEntries: 100_000 })).rejects.toBeInstanceOf(InvalidZipError);
    // The descriptor is closed on the next turn of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fs.readdirSync("/proc/self/fd").length).toBe(before);
  });
});
