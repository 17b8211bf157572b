import fc from "fast-check";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { cameraExif, heicSample } from "./fixtures/test-images";
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
