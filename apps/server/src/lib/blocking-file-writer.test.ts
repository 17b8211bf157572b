import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { blockingFileWriter } from "./blocking-file-writer";

describe("blockingFileWriter", () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), "memory-box-blocking-writer-"));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("writes every chunk in order, readable by its owner only", async () => {
    const chunks = Array.from({ length: 50 }, (_, index) => randomBytes(index * 1_000 + 1));
    const file = path.join(folder, "archive.zip");
    await pipeline(Readable.from(chunks), blockingFileWriter(file));
    expect((await readFile(file)).equals(Buffer.concat(chunks))).toBe(true);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it("fails the stream when the file cannot be made", async () => {
    await expect(
      pipeline(Readable.from([Buffer.from("x")]), blockingFileWriter(path.join(folder, "no", "such", "folder.zip"))),
    ).rejects.toThrow(/ENOENT/);
  });
});
