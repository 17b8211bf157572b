import exifr from "exifr";
import fc from "fast-check";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { cameraExif, heicGpsPoint, heicGpsSample, heicSample } from "./fixtures/test-images";
import { heifExifTiff } from "./heif-exif";
import { geoPointOf, parseIso6709, readImageLocation } from "./photo-location";

const jpegWith = (gps?: Record<string, string>) =>
  sharp({ create: { width: 16, height: 12, channels: 3, background: "#808080" } })
    .withExif(gps ? { IFD3: gps } : {})
    .jpeg()
    .toBuffer();

describe("a still's GPS position", () => {
  it("is read from its EXIF, south and west negative", async () => {
    const jpeg = await jpegWith({
      GPSLatitudeRef: "S",
      GPSLatitude: "38/1 48/1 12345/1000",
      GPSLongitudeRef: "W",
      GPSLongitude: "9/1 22/1 30/1",
    });
    const location = await readImageLocation(jpeg);
    expect(location!.latitude).toBeCloseTo(-(38 + 48 / 60 + 12.345 / 3600), 9);
    expect(location!.longitude).toBeCloseTo(-(9 + 22 / 60 + 30 / 3600), 9);
    const phone = await readImageLocation(await jpegWith(cameraExif.IFD3));
    expect(phone!.latitude).toBeCloseTo(51.5, 9);
    expect(phone!.longitude).toBeCloseTo(7 / 60, 9);
  });

  it("is read from a HEIC's EXIF item, as libheif writes it (a base offset exifr alone misses)", async () => {
    const location = await readImageLocation(heicGpsSample());
    expect(location!.latitude).toBeCloseTo(heicGpsPoint.latitude, 9);
    expect(location!.longitude).toBeCloseTo(heicGpsPoint.longitude, 9);
    // The same HEIC as an iPhone lays it out (iloc version 1, no base offset, the position in
    // the extent): exifr reads that one by itself.
    const iphone = withoutBaseOffsets(heicGpsSample());
    const byExifr = (await exifr.gps(iphone)) as { latitude: number } | undefined;
    expect(byExifr?.latitude).toBeCloseTo(heicGpsPoint.latitude, 9);
    expect(await readImageLocation(iphone)).toEqual(location);
  });

  it("finds no EXIF item in a HEIC without one, a damaged one or anything else, and never throws", async () => {
    expect(heifExifTiff(heicSample())).not.toBeNull();
    expect(heifExifTiff(Buffer.from("not an image at all"))).toBeNull();
    const heic = heicGpsSample();
    for (let end = 0; end < heic.length; end += 7) expect(() => heifExifTiff(heic.subarray(0, end))).not.toThrow();
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 64 }), fc.nat(), async (noise, at) => {
        const damaged = Buffer.from(heic);
        damaged.set(noise.subarray(0, Math.max(0, damaged.length - (at % damaged.length))), at % damaged.length);
        const tiff = heifExifTiff(damaged);
        if (tiff) expect(tiff.byteLength).toBeLessThanOrEqual(damaged.length);
        const location = await readImageLocation(damaged);
        if (location !== null) expect(Math.abs(location.latitude)).toBeLessThanOrEqual(90);
      }),
      { numRuns: 300 },
    );
  });

  it("is null when absent, half there, out of range, not a number or at 0, 0", async () => {
    expect(await readImageLocation(await jpegWith())).toBeNull();
    expect(await readImageLocation(heicSample())).toBeNull();
    const positions: Record<string, string>[] = [
      { GPSLatitudeRef: "N", GPSLatitude: "38/1 0/1 0/1" },
      { GPSLatitudeRef: "N", GPSLatitude: "999/1 0/1 0/1", GPSLongitudeRef: "E", GPSLongitude: "9/1 0/1 0/1" },
      { GPSLatitudeRef: "N", GPSLatitude: "38/1 0/1 0/1", GPSLongitudeRef: "E", GPSLongitude: "1/0 0/0 0/0" },
      { GPSLatitudeRef: "N", GPSLatitude: "0/1 0/1 0/1", GPSLongitudeRef: "E", GPSLongitude: "0/1 0/1 0/1" },
      { GPSLatitudeRef: "N", GPSLatitude: "north", GPSLongitudeRef: "E", GPSLongitude: "east" },
    ];
    for (const gps of positions) {
      expect(await readImageLocation(await jpegWith(gps)), JSON.stringify(gps)).toBeNull();
    }
  });

  it("never throws, whatever the bytes", async () => {
    const jpeg = await jpegWith(cameraExif.IFD3);
    expect(await readImageLocation(jpeg.subarray(0, 60))).toBeNull();
    expect(await readImageLocation(Buffer.from("not an image at all"))).toBeNull();
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 400 }), fc.nat(), async (noise, at) => {
        const damaged = Buffer.from(jpeg);
        damaged.set(noise.subarray(0, Math.max(0, damaged.length - (at % damaged.length))), at % damaged.length);
        const location = await readImageLocation(damaged);
        if (location !== null) {
          expect(Math.abs(location.latitude)).toBeLessThanOrEqual(90);
          expect(Math.abs(location.longitude)).toBeLessThanOrEqual(180);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("ISO 6709 positions (video location tags)", () => {
  it.each([
    ["+38.7970-009.3900/", { latitude: 38.797, longitude: -9.39 }],
    ["-33.8688+151.2093+012.500/", { latitude: -33.8688, longitude: 151.2093 }],
    ["+48.8577+002.2950", { latitude: 48.8577, longitude: 2.295 }],
    ["+90-180/", { latitude: 90, longitude: -180 }],
  ])("reads %s", (text, point) => {
    expect(parseIso6709(text)).toEqual(point);
  });

  it.each([
    [undefined],
    [""],
    ["+91.0000+000.0000/"],
    ["+38.7970-189.3900/"],
    ["+00.0000+000.0000/"],
    ["38.7970,-9.3900"],
    ["+3848-00923/x"],
    ["+NaN-Infinity/"],
    [`+38.${"7".repeat(200)}-009.39/`],
  ])("refuses %j", (text) => {
    expect(parseIso6709(text)).toBeNull();
  });

  it("keeps only finite points on the earth", () => {
    expect(geoPointOf(Number.NaN, 1)).toBeNull();
    expect(geoPointOf(1, Number.POSITIVE_INFINITY)).toBeNull();
    expect(geoPointOf("38", "-9")).toBeNull();
    expect(geoPointOf(-90, 180)).toEqual({ latitude: -90, longitude: 180 });
  });
});

/**
 * A HEIC's `iloc` rewritten as iPhones write it: each item's base offset (libheif's 4 bytes)
 * moved into its single extent's offset and the field dropped; the 4 bytes an item takes out of `meta`
 * shift the later `mdat`, so every offset moves back by them all.
 */
function withoutBaseOffsets(heic: Buffer): Buffer {
  const iloc = heic.indexOf("iloc") - 4;
  const ilocSize = heic.readUInt32BE(iloc);
  const itemCount = heic.readUInt16BE(iloc + 14);
  expect([heic[iloc + 8], heic[iloc + 12], heic[iloc + 13]]).toEqual([0, 0x44, 0x40]);
  const items: Buffer[] = [];
  for (let item = 0, at = iloc + 16; item < itemCount; item += 1, at += 18) {
    expect(heic.readUInt16BE(at + 8)).toBe(1);
    const entry = Buffer.alloc(14);
    entry.writeUInt16BE(heic.readUInt16BE(at), 0); // item_ID
    entry.writeUInt16BE(heic.readUInt16BE(at + 2), 2); // data_reference_index
    entry.writeUInt16BE(1, 4); // one extent
    entry.writeUInt32BE(heic.readUInt32BE(at + 4) + heic.readUInt32BE(at + 10) - 4 * itemCount, 6);
    entry.writeUInt32BE(heic.readUInt32BE(at + 14), 10);
    items.push(entry);
  }
  const header = Buffer.from(heic.subarray(iloc, iloc + 16));
  header.writeUInt32BE(ilocSize - 4 * itemCount, 0);
  header[13] = 0x00; // no base offset
  const rewritten = Buffer.concat([heic.subarray(0, iloc), header, ...items, heic.subarray(iloc + ilocSize)]);
  const meta = rewritten.indexOf("meta") - 4;
  rewritten.writeUInt32BE(rewritten.readUInt32BE(meta) - 4 * itemCount, meta);
  return rewritten;
}
