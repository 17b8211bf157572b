import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Photo } from "@memory-box/contract";
import exifr from "exifr";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember } from "../../../test/members";
import { multipartContentType, multipartPayload } from "../../../test/multipart";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";
import { filmTestClip } from "../../../test/video-clips";
import { heicGpsPoint, heicGpsSample } from "./fixtures/test-images";
import { openDatabase } from "../../db/database";
import { MemoriesRepository } from "../memories";
import { PhotosRepository } from "./photos.repository";

// Where a photo or video was taken (issue #32): read from the original at upload, given with every
// photo the API serves, and never in a file it serves.

const sintra = { latitude: 38.797, longitude: -9.39 };
/** Sintra in EXIF's degrees, minutes and seconds: 38° 47′ 49.2″ N, 9° 23′ 24″ W. */
const sintraGps = { GPSLatitudeRef: "N", GPSLatitude: "38/1 47/1 492/10", GPSLongitudeRef: "W", GPSLongitude: "9/1 23/1 24/1" };
const jpeg = (gps?: Record<string, string>) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: "#3a7" } })
    .withExif({ IFD0: { Make: "TestCam" }, ...(gps ? { IFD3: gps } : {}) })
    .jpeg()
    .toBuffer();

let dir: string;
const clips: Record<string, Buffer> = {};

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "photo-location-"));
  await Promise.all([
    filmTestClip(path.join(dir, "android.mp4"), { extra: ["-metadata", "location=+38.7970-009.3900/"] }),
    // As iPhones write it: QuickTime's metadata key, with an altitude.
    filmTestClip(path.join(dir, "iphone.mov"), {
      extra: ["-movflags", "use_metadata_tags", "-metadata", "com.apple.quicktime.location.ISO6709=-33.8688+151.2093+012.500/"],
    }),
    filmTestClip(path.join(dir, "nowhere.mp4")),
    filmTestClip(path.join(dir, "garbled.mp4"), { extra: ["-metadata", "location=+99.0000+500.0000/"] }),
  ]);
  for (const name of ["android.mp4", "iphone.mov", "nowhere.mp4", "garbled.mp4"])
    clips[name] = await readFile(path.join(dir, name));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.each(testEngines())("a photo's location on %s", (engine) => {
  let testApp: TestApp;
  let ann: TestMember;

  beforeAll(async () => {
    testApp = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
  });
  afterAll(() => testApp.close());

  const upload = async (filename: string, data: Buffer, url = "/api/v1/photos") => {
    const response = await testApp.app.inject({
      method: "POST",
      url,
      payload: multipartPayload([{ name: "file", filename, contentType: "application/octet-stream", data }]),
      headers: { "content-type": multipartContentType, ...ann.headers },
    });
    expect(response.statusCode, response.body).toBe(response.statusCode === 200 ? 200 : 201);
    return response.json<Photo>();
  };
  const get = (url: string, member = ann) => testApp.app.inject({ method: "GET", url, headers: member.headers });
  const expectAt = (
    location: { latitude: number | null; longitude: number | null } | null,
    point: { latitude: number; longitude: number },
  ) => {
    expect(location).not.toBeNull();
    expect(Math.abs(location!.latitude! - point.latitude)).toBeLessThan(1e-6);
    expect(Math.abs(location!.longitude! - point.longitude)).toBeLessThan(1e-6);
  };

  it("is read from a still's GPS at upload and given wherever the photo is served", async () => {
    const photo = await upload("IMG_0001.JPG", await jpeg(sintraGps));
    expectAt(photo.location, sintra);
    expectAt((await get(`/api/v1/photos/${photo.id}`)).json<Photo>().location, sintra);

    // In a memory: the list's photos come from one JSON aggregate per memory (each engine's own),
    // an edit's from the photo rows; both carry the position as numbers.
    const database = openDatabase(testApp.config.database);
    try {
      const memories = new MemoriesRepository(database.db, engine);
      const memoryId = randomUUID();
      await memories.transaction(async (trx) => {
        const fields = { title: "Sintra", content: null, memory_date: null, tags: [] };
        await memories.insert({ id: memoryId, userId: ann.userId, createdAt: new Date().toISOString(), ...fields }, trx);
        await new PhotosRepository(database.db).attach(memoryId, [photo.id], trx);
      });
      const [listed] = await memories.findManyInOrder([memoryId]);
      expectAt(listed!.photos[0]!, sintra);
      expectAt((await memories.findById(memoryId))!.photos[0]!, sintra);
    } finally {
      await database.destroy();
    }
  });

  it("stays out of every file served: display copy, preview and thumbnail", async () => {
    const photo = await upload("IMG_0002.JPG", await jpeg(sintraGps));
    for (const url of [photo.url, photo.preview_url, photo.thumbnail_url]) {
      const served = await get(url);
      expect(served.statusCode).toBe(200);
      const { exif, xmp } = await sharp(served.rawPayload).metadata();
      expect([exif, xmp]).toEqual([undefined, undefined]);
      expect(served.rawPayload.includes("TestCam")).toBe(false);
    }
    // The display copy is a JPEG, as the original: an EXIF reader finds no position in it.
    expect(photo.content_type).toBe("image/jpeg");
    expect(await exifr.gps((await get(photo.url)).rawPayload)).toBeUndefined();
  });

  it("is read from a HEIC's GPS at upload, and stays out of the JPEG copies served for it", async () => {
    const photo = await upload("IMG_0006.HEIC", heicGpsSample());
    expectAt(photo.location, heicGpsPoint);
    expectAt((await get(`/api/v1/photos/${photo.id}`)).json<Photo>().location, heicGpsPoint);
    for (const url of [photo.preview_url, photo.thumbnail_url]) {
      const served = await get(url);
      expect(served.statusCode).toBe(200);
      expect((await sharp(served.rawPayload).metadata()).exif).toBeUndefined();
    }
    // Its display copy is a JPEG with its capture date only (ADR 0064): an EXIF reader finds no position in it.
    expect((await get(photo.url)).rawPayload.includes("GPS")).toBe(false);
    expect(await exifr.gps((await get(photo.url)).rawPayload)).toBeUndefined();
  });

  it("is null for a photo without GPS, or with a position that is no position", async () => {
    expect((await upload("plain.jpg", await jpeg())).location).toBeNull();
    const garbled = await jpeg({
      GPSLatitudeRef: "N",
      GPSLatitude: "999/1 0/1 0/1",
      GPSLongitudeRef: "E",
      GPSLongitude: "1/0 0/0 0/0",
    });
    expect((await upload("garbled.jpg", garbled)).location).toBeNull();
    const noFix = await jpeg({
      GPSLatitudeRef: "N",
      GPSLatitude: "0/1 0/1 0/1",
      GPSLongitudeRef: "E",
      GPSLongitude: "0/1 0/1 0/1",
    });
    expect((await upload("no-fix.jpg", noFix)).location).toBeNull();
  });

  it("is read from a video's location tag, MP4 or QuickTime, and null without a valid one", async () => {
    expectAt((await upload("VID_0001.mp4", clips["android.mp4"]!)).location, sintra);
    expectAt((await upload("IMG_0003.MOV", clips["iphone.mov"]!)).location, { latitude: -33.8688, longitude: 151.2093 });
    expect((await upload("clip.mp4", clips["nowhere.mp4"]!)).location).toBeNull();
    expect((await upload("garbled.mp4", clips["garbled.mp4"]!)).location).toBeNull();
  });

  it("of a Live Photo is its still's, or its clip's when the still had none", async () => {
    const placed = await upload("IMG_0004.JPG", await jpeg(sintraGps));
    const withClip = await upload("IMG_0004.MOV", clips["iphone.mov"]!, `/api/v1/photos/${placed.id}/motion`);
    expect(withClip.kind).toBe("live");
    expectAt(withClip.location, sintra);

    const unplaced = await upload("IMG_0005.JPG", await jpeg());
    const live = await upload("IMG_0005.MOV", clips["iphone.mov"]!, `/api/v1/photos/${unplaced.id}/motion`);
    expect(live.kind).toBe("live");
    expectAt(live.location, { latitude: -33.8688, longitude: 151.2093 });
    expectAt((await get(`/api/v1/photos/${unplaced.id}`)).json<Photo>().location, { latitude: -33.8688, longitude: 151.2093 });
  });
});
