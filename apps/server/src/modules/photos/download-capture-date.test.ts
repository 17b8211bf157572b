import type { Memory } from "@memory-box/contract";
import exifr from "exifr";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember } from "../../../test/members";
import { multipartContentType, multipartPayload } from "../../../test/multipart";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";
import { cameraExif, heicSample, rotatedCameraJpeg, twoTone } from "./fixtures/test-images";

// Issue #34 (ADR 0064): "Download full size" saves the photo's full-size copy (`url`), never the
// original as uploaded. That copy is re-encoded without the original's metadata; it carries the
// capture date again, so a photo program sorts the saved file by when it was taken, and nothing
// else of the original: no position, no camera, no owner.

/** The EXIF of a downloaded file as a photo program reads it (exifr; WebP's block through sharp, which exifr does not open). */
async function exifOf(data: Buffer): Promise<Record<string, unknown> | undefined> {
  const { format, exif } = await sharp(data).metadata();
  if (format !== "webp")
    return (await exifr.parse(data, {
      tiff: true,
      exif: true,
      gps: true,
      xmp: true,
      iptc: true,
      reviveValues: false,
      translateValues: false,
    })) as Record<string, unknown> | undefined;
  if (exif === undefined) return undefined;
  const tiff = exif.subarray(0, 4).toString("latin1") === "Exif" ? exif.subarray(6) : exif;
  return (await exifr.parse(tiff, { tiff: true, exif: true, gps: true, reviveValues: false, translateValues: false })) as Record<
    string,
    unknown
  >;
}

const identifying = ["Make", "Model", "DateTime", "GPSLatitude", "GPSLongitude", "latitude", "longitude", "creator", "Artist"];

describe.each(testEngines())("the download's capture date on %s", (engine) => {
  let testApp: TestApp;
  let ann: TestMember;
  let ben: TestMember;
  let memory: Memory;

  const upload = async (filename: string, contentType: string, data: Buffer) => {
    const response = await testApp.app.inject({
      method: "POST",
      url: "/api/v1/photos",
      headers: { ...ann.headers, "content-type": multipartContentType },
      payload: multipartPayload([{ name: "file", filename, contentType, data }]),
    });
    expect(response.statusCode).toBe(201);
    return response.json<{ id: string }>().id;
  };
  const download = async (url: string, member: TestMember) => {
    const response = await testApp.app.inject({ method: "GET", url, headers: member.headers });
    expect(response.statusCode).toBe(200);
    return { bytes: response.rawPayload, contentType: response.headers["content-type"] };
  };

  beforeAll(async () => {
    testApp = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
    ann = await createMember(testApp, "ann.download@memory-box.test", "Ann");
    ben = await createMember(testApp, "ben.download@memory-box.test", "Ben");
    const ids = [
      await upload("IMG_0001.JPG", "image/jpeg", await rotatedCameraJpeg(twoTone(400, 200))),
      await upload("scan.png", "image/png", await twoTone(120, 80).withExif(cameraExif).png().toBuffer()),
      await upload("edit.webp", "image/webp", await twoTone(120, 80).withExif(cameraExif).webp().toBuffer()),
      await upload("IMG_0002.HEIC", "image/heic", heicSample()),
      await upload("screenshot.png", "image/png", await twoTone(60, 40).png().toBuffer()),
    ];
    const created = await testApp.app.inject({
      method: "POST",
      url: "/api/v1/memories",
      headers: ann.headers,
      payload: { title: "Picnic by the lake", photo_ids: ids },
    });
    expect(created.statusCode).toBe(201);
    memory = created.json<Memory>();
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it("JPEG, PNG and WebP: the full-size copy another member saves carries the capture date with its zone, upright, and nothing else", async () => {
    for (const [index, type] of [
      [0, "image/jpeg"],
      [1, "image/png"],
      [2, "image/webp"],
    ] as const) {
      const photo = memory.photos[index]!;
      expect(photo.taken_at).toBe("2023-07-14T18:30:05+02:00");
      const saved = await download(photo.url, ben);
      expect(saved.contentType).toBe(type);
      expect(saved.contentType).toBe(photo.content_type);
      const exif = await exifOf(saved.bytes);
      expect(exif).toMatchObject({ DateTimeOriginal: "2023:07:14 18:30:05", OffsetTimeOriginal: "+02:00", Orientation: 1 });
      for (const tag of identifying) expect(exif?.[tag]).toBeUndefined();
      for (const text of ["TestCam", "Serial-0042"]) expect(saved.bytes.includes(text)).toBe(false);
    }
    // Upright, as shown: the phone's 400 × 200 sensor image held on its side is 200 × 400.
    const { width, height } = await sharp((await download(memory.photos[0]!.url, ben)).bytes).metadata();
    expect([width, height]).toEqual([200, 400]);
  });

  it("HEIC: the JPEG copy saved carries the date the iPhone recorded (no zone in this one: none is made up)", async () => {
    const photo = memory.photos[3]!;
    expect(photo.taken_at).toBe("2023-07-14T18:30:05");
    const saved = await download(photo.url, ann);
    expect(saved.contentType).toBe("image/jpeg");
    const exif = await exifOf(saved.bytes);
    expect(exif).toMatchObject({ DateTimeOriginal: "2023:07:14 18:30:05", Orientation: 1 });
    expect(exif?.OffsetTimeOriginal).toBeUndefined();
    for (const tag of identifying) expect(exif?.[tag]).toBeUndefined();
  });

  it("a photo without a capture date is saved without any EXIF, and signed out there is nothing to save", async () => {
    const photo = memory.photos[4]!;
    expect(photo.taken_at).toBeNull();
    const saved = (await download(photo.url, ann)).bytes;
    expect((await sharp(saved).metadata()).exif).toBeUndefined();
    expect((await exifOf(saved))?.DateTimeOriginal).toBeUndefined();
    const signedOut = await testApp.app.inject({ method: "GET", url: photo.url });
    expect(signedOut.statusCode).toBe(401);
  });
});
