import exifr from "exifr";
import fs from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import type { Memory, Photo } from "@memory-box/contract";
import Sqlite from "better-sqlite3";
import { DatabaseError } from "pg";
import sharp from "sharp";
import { S3ServiceException } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createMember, type TestMember } from "../../../test/members";
import { multipartContentType, multipartPayload } from "../../../test/multipart";
import { startTestS3Server, type TestS3Server } from "../../../test/s3-test-server";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";
import { openDatabase } from "../../db/database";
import { type BlobStore, createBlobStore, LocalBlobStore, S3BlobStore } from "../storage";
import { PhotosRepository } from "./photos.repository";
import { heicSample, pngBomb, rotatedCameraJpeg, twoTone } from "./fixtures/test-images";

/** A multipart/form-data body with one file, as a browser sends it. */
function multipart(filename: string, contentType: string, data: Buffer, field = "file") {
  return {
    payload: multipartPayload([{ name: field, filename, contentType, data }]),
    headers: { "content-type": multipartContentType },
  };
}

/** What a write to a full disk throws, as node:fs reports it. */
const noSpaceLeft = () =>
  Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", errno: -28, syscall: "write" });
/** What the AWS SDK throws when a MinIO server is out of space. */
const s3StorageFull = () =>
  new S3ServiceException({
    name: "XMinioStorageFull",
    $fault: "server",
    $metadata: { httpStatusCode: 507 },
    message: "Storage backend has reached its minimum free drive threshold. Please delete a few objects to proceed.",
  });

const storages = ["local disk", "S3 (s3rver)"] as const;
const combinations = testEngines().flatMap((engine) => storages.map((storage) => [engine, storage] as const));

describe.each(combinations)("photos on %s with %s storage", (engine, storage) => {
  let testApp: TestApp;
  let s3: TestS3Server | undefined;
  let ann: TestMember;
  let jpeg: Buffer;

  beforeAll(async () => {
    s3 = storage === "S3 (s3rver)" ? await startTestS3Server() : undefined;
    testApp = await createTestApp(engine, {
      env: {
        AUTH_RATE_LIMITS: "false",
        PHOTO_MAX_UPLOAD_MB: "2",
        ...(s3 ? { STORAGE_URL: s3.storageUrl } : {}),
      },
    });
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
    jpeg = await rotatedCameraJpeg(twoTone(400, 200));
  });
  afterAll(async () => {
    await testApp.close();
    await s3?.stop();
  });

  const upload = (filename: string, contentType: string, data: Buffer, member: TestMember | null = ann) => {
    const body = multipart(filename, contentType, data);
    return testApp.app.inject({
      method: "POST",
      url: "/api/v1/photos",
      payload: body.payload,
      headers: { ...body.headers, ...(member ? member.headers : {}) },
    });
  };
  /** Every stored photo object, as keys under the bucket. */
  const storedObjects = async () => {
    const store = createBlobStore(testApp.config.storageUrl, testApp.config.dataDir);
    const keys: string[] = [];
    for await (const object of store.list("memory-photos/")) keys.push(object.key);
    await store.close();
    return keys.sort();
  };
  const photoRows = async () => {
    const database = openDatabase(testApp.config.database);
    try {
      return await database.db.selectFrom("photos").selectAll().execute();
    } finally {
      await database.destroy();
    }
  };
  /** A photo URL as an API client fetches it: with the member's bearer token (photo-access.test.ts covers the cookie). */
  const fetchUrl = (url: string, headers: Record<string, string> = {}) =>
    testApp.app.inject({ method: "GET", url, headers: { ...ann.headers, ...headers } });

  it("needs a signed-in member to upload", async () => {
    expect((await upload("a.jpg", "image/jpeg", jpeg, null)).statusCode).toBe(401);
  });

  it("stores a photo with its rotation applied, a thumbnail, a preview and a placeholder", async () => {
    const response = await upload("IMG_0001.JPG", "image/jpeg", jpeg);
    expect(response.statusCode, response.body).toBe(201);
    const photo = response.json<Photo>();
    expect(photo).toMatchObject({ content_type: "image/jpeg", width: 200, height: 400, taken_at: "2023-07-14T18:30:05+02:00" });
    expect(photo.placeholder.length).toBeGreaterThan(10);
    const [ownerId, file] = decodeURIComponent(
      new URL(photo.url, "http://x").pathname.replace("/storage/v1/object/authenticated/memory-photos/", ""),
    ).split("/");
    expect(ownerId).toBe(ann.userId);
    expect(file).toMatch(/^\d{13}-[0-9a-f]{12}\.display\.jpg$/);

    // The URL serves a display copy: upright, full size, without the camera's EXIF and GPS position.
    const display = await fetchUrl(photo.url);
    expect(display.statusCode).toBe(200);
    expect(display.headers).toMatchObject({
      "content-type": "image/jpeg",
      "x-content-type-options": "nosniff",
      "accept-ranges": "bytes",
    });
    expect(display.headers["cache-control"]).toBe("private, max-age=600");
    expect(display.headers["content-security-policy"]).toContain("sandbox");
    const displayMeta = await sharp(display.rawPayload).metadata();
    expect(displayMeta).toMatchObject({ format: "jpeg", width: 200, height: 400 });
    // Of the original's EXIF only the capture date (ADR 0064): no camera, serial or position.
    const displayExif = (await exifr.parse(display.rawPayload, {
      pick: ["Make", "Model", "GPSLatitude", "DateTimeOriginal"],
    })) as Record<string, unknown> | undefined;
    expect(Object.keys(displayExif ?? {})).toEqual(["DateTimeOriginal"]);
    expect(display.rawPayload.includes("Serial-0042")).toBe(false);

    // The original is kept exactly as uploaded, for the members' own export, and served by no URL.
    const [row] = (await photoRows()).filter((candidate) => candidate.display_key === `${ann.userId}/${file}`);
    expect(row?.object_key).toBe(`${ann.userId}/${file!.replace(".display.jpg", ".jpg")}`);
    const store = createBlobStore(testApp.config.storageUrl, testApp.config.dataDir);
    const stored = await store.get(`memory-photos/${row!.object_key}`);
    expect((await buffer(stored.body)).equals(jpeg)).toBe(true);
    await store.close();

    const thumbnail = await fetchUrl(photo.thumbnail_url);
    expect(thumbnail.headers["content-type"]).toBe("image/webp");
    const thumbnailMeta = await sharp(thumbnail.rawPayload).metadata();
    expect([thumbnailMeta.width, thumbnailMeta.height]).toEqual([200, 400]);
    expect(thumbnailMeta.exif).toBeUndefined();
    const preview = await fetchUrl(photo.preview_url);
    expect((await sharp(preview.rawPayload).metadata()).exif).toBeUndefined();
  });

  it("accepts HEIC from an iPhone", async () => {
    const response = await upload("IMG_0002.HEIC", "image/heic", heicSample());
    expect(response.statusCode, response.body).toBe(201);
    // Shown as JPEG, which every browser can; the HEIC itself is kept as uploaded.
    expect(response.json<Photo>()).toMatchObject({ content_type: "image/jpeg", width: 96, height: 64 });
  });

  it("serves byte ranges", async () => {
    const photo = (await upload("range.jpg", "image/jpeg", jpeg)).json<Photo>();
    const whole = (await fetchUrl(photo.url)).rawPayload;
    const partial = await fetchUrl(photo.url, { range: "bytes=2-9" });
    expect(partial.statusCode).toBe(206);
    expect(partial.headers["content-range"]).toBe(`bytes 2-9/${whole.length}`);
    expect(partial.rawPayload.equals(whole.subarray(2, 10))).toBe(true);
    const beyond = await fetchUrl(photo.url, { range: `bytes=${whole.length + 10}-` });
    expect(beyond.statusCode).toBe(416);
  });

  it.each([
    ["an HTML page named .jpg", "evil.jpg", "image/jpeg", Buffer.from("<!doctype html><script>alert(1)</script>"), 415],
    [
      "an SVG",
      "drawing.svg",
      "image/svg+xml",
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      415,
    ],
    ["a PDF named .png", "scan.png", "image/png", Buffer.from("%PDF-1.7\n%âãÏÓ\n1 0 obj<<>>endobj"), 415],
    ["an empty file", "empty.jpg", "image/jpeg", Buffer.alloc(0), 415],
  ])("refuses %s and stores nothing", async (_name, filename, type, data, status) => {
    const [objectsBefore, rowsBefore] = [await storedObjects(), (await photoRows()).length];
    const response = await upload(filename, type, data);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ code: "unsupported_image_type" });
    expect(await storedObjects()).toEqual(objectsBefore);
    expect((await photoRows()).length).toBe(rowsBefore);
  });

  it("refuses an upload carrying two files whole, storing neither", async () => {
    const [objectsBefore, rowsBefore] = [await storedObjects(), (await photoRows()).length];
    const second = await twoTone(40, 20).png().toBuffer();
    for (const parts of [
      [
        { name: "file", filename: "a.jpg", contentType: "image/jpeg", data: jpeg },
        { name: "file", filename: "b.png", contentType: "image/png", data: second },
      ],
      [
        { name: "file", filename: "a.jpg", contentType: "image/jpeg", data: jpeg },
        { name: "other", filename: "b.png", contentType: "image/png", data: second },
      ],
    ]) {
      const response = await testApp.app.inject({
        method: "POST",
        url: "/api/v1/photos",
        payload: multipartPayload(parts),
        headers: { "content-type": multipartContentType, ...ann.headers },
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ code: "one_file_per_upload" });
    }
    expect(await storedObjects()).toEqual(objectsBefore);
    expect((await photoRows()).length).toBe(rowsBefore);
    expect(await readdir(path.join(testApp.config.dataDir, "uploads")).catch(() => [])).toEqual([]);
  });

  it("refuses a truncated JPEG, a pixel bomb and an oversized file, leaving nothing behind", async () => {
    const objectsBefore = await storedObjects();
    const truncated = await upload("cut.jpg", "image/jpeg", jpeg.subarray(0, Math.floor(jpeg.length / 2)));
    expect(truncated.statusCode).toBe(422);
    expect(truncated.json()).toMatchObject({ code: "corrupt_image" });
    const started = performance.now();
    const bomb = await upload("bomb.png", "image/png", pngBomb(20_000, 20_000));
    expect(bomb.statusCode).toBe(422);
    expect(bomb.json()).toMatchObject({ code: "image_too_large" });
    expect(performance.now() - started).toBeLessThan(5000);
    const huge = await upload("huge.jpg", "image/jpeg", Buffer.concat([jpeg, Buffer.alloc(3 * 1024 * 1024)]));
    expect(huge.statusCode).toBe(413);
    // The refusal names the limit, so the form can tell the member what fits.
    const refusal = huge.json<{ code: string; message: string }>();
    expect(refusal.code).toBe("request_entity_too_large");
    expect(refusal.message).toMatch(/upload limit of \d+(\.\d)? MB/);
    expect(await storedObjects()).toEqual(objectsBefore);
    const leftovers = await readdir(path.join(testApp.config.dataDir, "uploads")).catch(() => []);
    expect(leftovers).toEqual([]);
  });

  it.each([
    ["the storage, storing the upload's second file", () => storeRefusesSecondPut()],
    ["the upload folder, receiving the file", () => uploadFolderFillsUp()],
    ["the database, writing the photo's row", () => databaseRefusesRow()],
  ])("answers a full disk in %s with 507 insufficient_storage, leaving nothing behind", async (_where, fillDisk) => {
    const [objectsBefore, rowsBefore] = [await storedObjects(), (await photoRows()).length];
    const restore = fillDisk();
    let response;
    try {
      response = await upload("full.jpg", "image/jpeg", jpeg);
    } finally {
      restore();
    }
    expect(response.statusCode, response.body).toBe(507);
    expect(response.json()).toEqual({
      code: "insufficient_storage",
      message: "The server's storage is full, so nothing was saved. Ask whoever runs Memory Box to free some space.",
    });
    expect(await storedObjects()).toEqual(objectsBefore);
    expect((await photoRows()).length).toBe(rowsBefore);
    expect(await readdir(path.join(testApp.config.dataDir, "uploads")).catch(() => [])).toEqual([]);
    if (!s3) expect(await readdir(path.join(testApp.config.dataDir, "storage", ".tmp"))).toEqual([]);
    // The next upload, with room again, goes through.
    expect((await upload("after.jpg", "image/jpeg", jpeg)).statusCode).toBe(201);
  });

  /**
   * The blob store's second write of an upload fails as a full store reports it: the file system's
   * ENOSPC on disk, an S3-compatible server's 507 (MinIO's XMinioStorageFull) on S3.
   */
  function storeRefusesSecondPut(): () => void {
    const prototype = s3 ? S3BlobStore.prototype : LocalBlobStore.prototype;
    const put = Object.getOwnPropertyDescriptor(prototype, "put")!.value as BlobStore["put"];
    let puts = 0;
    const spy = vi.spyOn(prototype, "put").mockImplementation(function (this: BlobStore, ...args) {
      puts += 1;
      if (puts === 2) return Promise.reject(s3 ? s3StorageFull() : noSpaceLeft());
      return put.apply(this, args);
    });
    return () => spy.mockRestore();
  }

  /** The photo's row meets a full disk, as each engine reports it, after every file is stored. */
  function databaseRefusesRow(): () => void {
    const full =
      engine === "sqlite"
        ? new Sqlite.SqliteError("database or disk is full", "SQLITE_FULL")
        : Object.assign(new DatabaseError("could not extend file: No space left on device", 0, "error"), { code: "53100" });
    const spy = vi.spyOn(PhotosRepository.prototype, "insert").mockRejectedValue(full);
    return () => spy.mockRestore();
  }

  /** The upload's temporary file takes its first bytes, then the disk is full. */
  function uploadFolderFillsUp(): () => void {
    const createWriteStream = fs.createWriteStream;
    const spy = vi.spyOn(fs, "createWriteStream").mockImplementation((...args: Parameters<typeof fs.createWriteStream>) => {
      const stream = createWriteStream(...args);
      const write = stream._write.bind(stream);
      stream._write = (chunk: Buffer, encoding, callback) =>
        write(chunk.subarray(0, 16), encoding, (error) => callback(error ?? noSpaceLeft()));
      stream._writev = undefined;
      return stream;
    });
    return () => spy.mockRestore();
  }

  it("attaches photos to a memory in order, removes dropped ones with their files, and deletes all with the memory", async () => {
    const photos: Photo[] = [];
    for (let i = 0; i < 3; i++) photos.push((await upload(`p${i}.jpg`, "image/jpeg", jpeg)).json<Photo>());
    const [first, second, third] = photos as [Photo, Photo, Photo];
    const created = await testApp.app.inject({
      method: "POST",
      url: "/api/v1/memories",
      headers: ann.headers,
      payload: { title: "With photos", photo_ids: [third.id, first.id, second.id] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const memory = created.json<Memory>();
    expect(memory.photos.map((photo) => photo.id)).toEqual([third.id, first.id, second.id]);
    expect(memory.photo_urls).toHaveLength(3);

    const otherMemory = await testApp.app.inject({
      method: "POST",
      url: "/api/v1/memories",
      headers: ann.headers,
      payload: { title: "Thief", photo_ids: [first.id] },
    });
    expect(otherMemory.statusCode).toBe(409);
    expect(otherMemory.json()).toMatchObject({ code: "photo_in_use" });

    const secondKey = decodeURIComponent(
      new URL(second.url, "http://x").pathname.replace("/storage/v1/object/authenticated/", ""),
    ).replace(".display.jpg", ".jpg");
    const edited = await testApp.app.inject({
      method: "PUT",
      url: `/api/v1/memories/${memory.id}`,
      headers: ann.headers,
      payload: { title: "With photos", photo_ids: [first.id, third.id] },
    });
    expect(edited.json<Memory>().photos.map((photo) => photo.id)).toEqual([first.id, third.id]);
    const objects = await storedObjects();
    expect(objects).not.toContain(secondKey);
    expect(objects.filter((key) => key.startsWith(secondKey.replace(/\.jpg$/, "")))).toEqual([]);
    expect((await fetchUrl(second.url)).statusCode).toBe(404);

    await testApp.app.inject({ method: "DELETE", url: `/api/v1/memories/${memory.id}`, headers: ann.headers });
    for (const photo of [first, third]) expect((await fetchUrl(photo.url)).statusCode).toBe(404);
    expect((await photoRows()).some((row) => row.id === first.id || row.id === third.id)).toBe(false);
  });
});
