import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pngBomb } from "../../src/modules/photos/fixtures/test-images";
import { createBlobStore } from "../../src/modules/storage";
import { dayOnePhoto, momentLine, tinyJpeg, writeDayOneExport, writeZip } from "../dayone-export";
import { createMember, type TestMember } from "../members";
import { multipartContentType, multipartPayload } from "../multipart";
import { createTestApp, type TestApp } from "../test-app";
import { testEngines } from "../test-database";

// Security suite, hostile input family: archives and uploads built to harm are refused whole,
// quickly, and leave nothing behind: no memory, no stored file, nothing outside the data folder.
// Issue #29 item 9 (imports bounded), issue #11 item 9 (an upload of two files), and the checklist's
// content sniffing, pixel bombs and file names. (Each refusal in full: archive/archive-importer.test.ts,
// photos/photos.routes.test.ts, photos/image-pipeline.test.ts.)

describe.each(testEngines())("hostile archives and uploads, on %s", (engine) => {
  let testApp: TestApp;
  let owner: TestMember;
  let workDir: string;
  let jpeg: Buffer;

  beforeAll(async () => {
    testApp = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
    // The first member of an instance is its owner, who alone may import.
    owner = await createMember(testApp, "ann@memory-box.test", "Ann");
    workDir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-hostile-"));
    jpeg = await tinyJpeg();
  });
  afterAll(async () => {
    await testApp?.close();
    await fs.rm(workDir, { recursive: true, force: true });
  });

  /** Every photo file the instance holds. */
  async function storedObjects() {
    const store = createBlobStore(testApp.config.storageUrl, testApp.config.dataDir);
    const keys: string[] = [];
    for await (const object of store.list("memory-photos/")) keys.push(object.key);
    await store.close();
    return keys.sort();
  }

  const memoryCount = async () =>
    (await testApp.app.inject({ method: "GET", url: "/api/v1/memories", headers: owner.headers })).json<{ total: number }>()
      .total;

  /** Imports the ZIP `entries` (or a file already written) and expects it refused in words, changing nothing. */
  async function expectImportRefused(
    archive: [string, Buffer | string][] | string,
    from: "memory-box" | "dayone",
    reason: RegExp,
  ) {
    let file = archive as string;
    if (typeof archive !== "string") {
      file = path.join(workDir, `${from}-${Math.random().toString(36).slice(2)}.zip`);
      await writeZip(file, archive);
    }
    const before = { memories: await memoryCount(), objects: await storedObjects() };
    const response = await testApp.app.inject({
      method: "POST",
      url: `/api/v1/account/import?from=${from}`,
      headers: { ...owner.headers, "content-type": "application/zip" },
      payload: await fs.readFile(file),
    });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toMatchObject({ code: "archive_refused", message: expect.stringMatching(reason) as unknown });
    expect({ memories: await memoryCount(), objects: await storedObjects() }).toEqual(before);
    expect(await fs.readdir(path.join(testApp.config.dataDir, "uploads")).catch(() => [])).toEqual([]);
  }

  const manifest = (memories = "[]") => `{"format":"memory-box","version":2,"members":[],"memories":${memories}}`;

  it("#29.9 a manifest built to exhaust the server: a value of megabytes, nesting hundreds deep", async () => {
    const started = performance.now();
    await expectImportRefused(
      [["memory-box.json", manifest(`[{"title":"${"a".repeat(2 * 1024 * 1024)}"}]`)]],
      "memory-box",
      /holds a value longer than 1,048,576 characters/,
    );
    await expectImportRefused(
      [["memory-box.json", manifest(`${"[".repeat(500)}${"]".repeat(500)}`)]],
      "memory-box",
      /nested more than 32 levels deep/,
    );
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("#29.9 a zip bomb: a manifest that inflates to far more than the archive's directory says", async () => {
    const file = path.join(workDir, "bomb.zip");
    await writeZip(file, [["memory-box.json", manifest(`[]${" ".repeat(4_000_000)}`)]]);
    const zip = await fs.readFile(file);
    // The central directory's record of memory-box.json: its uncompressed size becomes 1,000 bytes.
    const directory = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip.writeUInt32LE(1_000, directory + 24);
    await fs.writeFile(file, zip);
    await expectImportRefused(file, "memory-box", /cannot be read safely: memory-box\.json: too many bytes/);
  });

  it("#checklist an archive entry whose name climbs out of the archive (path traversal)", async () => {
    await expectImportRefused(
      [
        ["memory-box.json", manifest()],
        ["../../outside.txt", "x"],
      ],
      "memory-box",
      /invalid relative path: \.\.\/\.\.\/outside\.txt/,
    );
    await expect(fs.access(path.join(testApp.config.dataDir, "..", "outside.txt"))).rejects.toThrow();
  });

  it("#checklist an archive's photo that is not an image, under an image's name", async () => {
    const photo = dayOnePhoto(Buffer.from("%PDF-1.7 not a photo at all".padEnd(2_000, " ")));
    const file = path.join(workDir, "fake-photo.zip");
    await writeDayOneExport(file, {
      "Journal.json": [{ creationDate: "2021-06-01T18:30:00Z", text: `Lisbon\n${momentLine(photo)}`, photos: [photo] }],
    });
    await expectImportRefused(file, "dayone", /cannot be imported: The file is not a supported image/);
  });

  /** Uploads `parts` as the memory form does; the answer, and whether anything was stored. */
  async function upload(...parts: { filename: string; contentType: string; data: Buffer }[]) {
    const before = await storedObjects();
    const response = await testApp.app.inject({
      method: "POST",
      url: "/api/v1/photos",
      headers: { ...owner.headers, "content-type": multipartContentType },
      payload: multipartPayload(parts.map((part) => ({ name: "file", ...part }))),
    });
    const stored = (await storedObjects()).filter((key) => !before.includes(key));
    return { status: response.statusCode, code: response.json<{ code?: string }>().code, stored };
  }

  it("#checklist an upload that is not an image, under an image's name and type", async () => {
    for (const data of [Buffer.from("<html><script>alert(1)</script></html>"), Buffer.from("<svg onload='alert(1)'/>")]) {
      expect(await upload({ filename: "IMG_0001.JPG", contentType: "image/jpeg", data })).toEqual({
        status: 415,
        code: "unsupported_image_type",
        stored: [],
      });
    }
  });

  it("#checklist a pixel bomb: a valid PNG of a few dozen KB that decodes to 1.6 GB", async () => {
    const started = performance.now();
    expect(await upload({ filename: "bomb.png", contentType: "image/png", data: pngBomb(20_000, 20_000) })).toEqual({
      status: 422,
      code: "image_too_large",
      stored: [],
    });
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("#11.9 an upload carrying two files: refused whole, storing neither", async () => {
    const photo = { filename: "a.jpg", contentType: "image/jpeg", data: jpeg };
    const answer = await upload(photo, { ...photo, filename: "b.jpg" });
    expect({ status: answer.status, stored: answer.stored }).toEqual({ status: 400, stored: [] });
  });

  it("#checklist an upload whose file name climbs out of the folder: stored under a name the server made", async () => {
    const answer = await upload({ filename: "../../../../outside.jpg", contentType: "image/jpeg", data: jpeg });
    expect(answer.status).toBe(201);
    expect(answer.stored.length).toBeGreaterThan(0);
    for (const key of answer.stored) expect(key).toMatch(/^memory-photos\/[\w./-]+$/);
    expect(answer.stored.join(" ")).not.toMatch(/outside|\.\./);
    await expect(fs.access(path.join(testApp.config.dataDir, "..", "outside.jpg"))).rejects.toThrow();
  });
});
