import exifr from "exifr";
import fc from "fast-check";
import sharp from "sharp";
import { thumbHashToAverageRGBA, thumbHashToRGBA } from "thumbhash";
import { beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../errors";
import {
  animatedGif,
  BLUE,
  ftyp,
  heicSample,
  jpegClaiming,
  photoLike,
  pngBomb,
  pngHeaderOnly,
  RED,
  rotatedCameraJpeg,
  twoTone,
  cameraExif,
} from "./fixtures/test-images";
import {
  CorruptImageError,
  detectImageFormat,
  ImageTooLargeError,
  processImage,
  UnsupportedImageError,
  type Derivative,
  type ImageFormat,
  type ProcessedImage,
} from "./image-pipeline";

const pixelAt = async (image: Pick<Derivative, "data">, x: number, y: number) => {
  const { data, info } = await sharp(image.data).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return { r: data[at]!, g: data[at + 1]!, b: data[at + 2]! };
};

const expectColour = (actual: { r: number; g: number; b: number }, expected: { r: number; g: number; b: number }) => {
  for (const channel of ["r", "g", "b"] as const) expect(Math.abs(actual[channel] - expected[channel])).toBeLessThan(40);
};

const notText = [
  ["HTML named .jpg", Buffer.from("<!doctype html><html><script>alert(1)</script></html>")],
  [
    "SVG",
    Buffer.from(
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>',
    ),
  ],
  ["SVG without a prolog", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
  ["PDF", Buffer.from("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF")],
  ["plain text", Buffer.from("just some words, not a picture")],
  ["an empty file", Buffer.alloc(0)],
  ["a JPEG cut after two bytes", Buffer.from([0xff, 0xd8])],
  ["an MP4 video", ftyp("isom", ["isom", "iso2", "avc1", "mp41"], Buffer.alloc(64))],
] as const;

describe("detectImageFormat", () => {
  const samples: Array<[ImageFormat, () => Promise<Buffer>]> = [
    ["jpeg", () => twoTone(20, 10).jpeg().toBuffer()],
    ["png", () => twoTone(20, 10).png().toBuffer()],
    ["webp", () => twoTone(20, 10).webp().toBuffer()],
    ["gif", () => twoTone(20, 10).gif().toBuffer()],
    ["avif", () => twoTone(20, 10).heif({ compression: "av1" }).toBuffer()],
    ["heic", async () => heicSample()],
  ];

  it.each(samples)("recognises %s by its bytes", async (format, make) => {
    const bytes = await make();
    expect(detectImageFormat(bytes)).toBe(format);
    // Only the head is needed, so a caller can sniff before buffering the whole upload.
    expect(detectImageFormat(bytes.subarray(0, 64))).toBe(format);
  });

  it("knows GIF87a as well as GIF89a", () => {
    expect(detectImageFormat(Buffer.from("GIF87a\x01\x00\x01\x00", "latin1"))).toBe("gif");
  });

  it.each(["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"])("takes the ftyp brand %s for HEIC", (brand) => {
    expect(detectImageFormat(ftyp(brand, ["mif1", brand]))).toBe("heic");
  });

  it.each(["avif", "avis"])("takes the ftyp brand %s for AVIF", (brand) => {
    expect(detectImageFormat(ftyp(brand, ["mif1", "miaf"]))).toBe("avif");
  });

  it("prefers a specific compatible brand to a generic major brand", () => {
    expect(detectImageFormat(ftyp("mif1", ["mif1", "miaf", "avif"]))).toBe("avif");
    expect(detectImageFormat(ftyp("mif1", ["mif1", "heic"]))).toBe("heic");
  });

  it("ignores brands past the end of the ftyp box", () => {
    const box = ftyp("isom", ["mp41"]);
    expect(detectImageFormat(Buffer.concat([box, Buffer.from("heicavif")]))).toBeNull();
  });

  it.each(notText)("refuses %s", (_name, bytes) => {
    expect(detectImageFormat(bytes)).toBeNull();
  });

  it("refuses TIFF, which libvips could decode but we do not allow", async () => {
    expect(detectImageFormat(await twoTone(20, 10).tiff().toBuffer())).toBeNull();
  });
});

describe("processImage", () => {
  describe("a 12 MP phone photo held upright (JPEG, EXIF orientation 6, GPS)", () => {
    let result: ProcessedImage;

    beforeAll(async () => {
      result = await processImage(await rotatedCameraJpeg(photoLike(4000, 3000)));
    });

    it("reports the original's type and its size in display orientation", () => {
      expect(result).toMatchObject({ format: "jpeg", contentType: "image/jpeg", extension: "jpg", width: 3000, height: 4000 });
    });

    it("renders a 1600 px preview and a 400 px thumbnail in WebP, upright", async () => {
      expect(result.preview).toMatchObject({ width: 1200, height: 1600, contentType: "image/webp" });
      expect(result.thumbnail).toMatchObject({ width: 300, height: 400, contentType: "image/webp" });
      for (const derivative of [result.preview, result.thumbnail]) {
        const metadata = await sharp(derivative.data).metadata();
        expect(metadata).toMatchObject({ format: "webp", width: derivative.width, height: derivative.height });
      }
    });

    it("strips EXIF, GPS and every other metadata block from the derivatives", async () => {
      for (const derivative of [result.preview, result.thumbnail]) {
        const metadata = await sharp(derivative.data).metadata();
        expect(metadata.exif).toBeUndefined();
        expect(metadata.xmp).toBeUndefined();
        expect(metadata.icc).toBeUndefined();
        expect(metadata.orientation).toBeUndefined();
        expect(derivative.data.includes("TestCam")).toBe(false);
        expect(derivative.data.includes("Serial-0042")).toBe(false);
      }
    });

    it("keeps the capture time with its offset, not the later modification time", () => {
      expect(result.takenAt).toBe("2023-07-14T18:30:05+02:00");
    });

    it("paints a placeholder that decodes with the original's aspect ratio", () => {
      const { w, h, rgba } = thumbHashToRGBA(Buffer.from(result.placeholder, "base64"));
      expect(rgba).toHaveLength(w * h * 4);
      expect(h).toBeGreaterThan(w);
    });
  });

  it("turns a 400 × 200 image with orientation 6 upright: the left edge becomes the top", async () => {
    const result = await processImage(await rotatedCameraJpeg(twoTone(400, 200)));

    expect(result).toMatchObject({ width: 200, height: 400 });
    expect(result.preview).toMatchObject({ width: 200, height: 400 });
    expect(result.thumbnail).toMatchObject({ width: 200, height: 400 });
    expectColour(await pixelAt(result.preview, 100, 20), RED);
    expectColour(await pixelAt(result.preview, 100, 380), BLUE);
  });

  it("never upscales a small image", async () => {
    const result = await processImage(await twoTone(120, 80).png().toBuffer());

    expect(result).toMatchObject({ width: 120, height: 80 });
    expect(result.preview).toMatchObject({ width: 120, height: 80 });
    expect(result.thumbnail).toMatchObject({ width: 120, height: 80 });
  });

  it("scales a mid-sized image to 400 px for the thumbnail only", async () => {
    const result = await processImage(await photoLike(1000, 500).webp().toBuffer());

    expect(result).toMatchObject({ format: "webp", contentType: "image/webp", extension: "webp", width: 1000, height: 500 });
    expect(result.preview).toMatchObject({ width: 1000, height: 500 });
    expect(result.thumbnail).toMatchObject({ width: 400, height: 200 });
  });

  it("copes with extreme shapes", async () => {
    const dot = await processImage(
      await sharp({ create: { width: 1, height: 1, channels: 3, background: "#f00" } })
        .png()
        .toBuffer(),
    );
    expect(dot.thumbnail).toMatchObject({ width: 1, height: 1 });

    const strip = await processImage(await twoTone(6000, 3).png().toBuffer());
    expect(strip.preview).toMatchObject({ width: 1600, height: 1 });
    expect(strip.thumbnail).toMatchObject({ width: 400, height: 1 });
  });

  it("keeps a PNG's transparency in its derivatives", async () => {
    const png = await sharp({ create: { width: 300, height: 200, channels: 4, background: { r: 0, g: 0, b: 255, alpha: 0.25 } } })
      .png()
      .toBuffer();
    const result = await processImage(png);

    expect(result).toMatchObject({ format: "png", contentType: "image/png", extension: "png", takenAt: null });
    expect((await sharp(result.thumbnail.data).metadata()).hasAlpha).toBe(true);
    expect(thumbHashToAverageRGBA(Buffer.from(result.placeholder, "base64")).a).toBeLessThan(0.5);
  });

  it("reads a 16-bit greyscale PNG", async () => {
    const grey = await sharp({ create: { width: 64, height: 32, channels: 3, background: "#808080" } })
      .toColourspace("grey16")
      .png()
      .toBuffer();
    const result = await processImage(grey);

    expect(result).toMatchObject({ format: "png", width: 64, height: 32 });
    expectColour(await pixelAt(result.preview, 10, 10), { r: 128, g: 128, b: 128 });
  });

  it("keeps the date a PNG carries in an eXIf chunk", async () => {
    const png = await twoTone(40, 20)
      .withExif({ IFD2: { DateTimeOriginal: "2021:12:31 23:59:59" } })
      .png()
      .toBuffer();
    expect((await processImage(png)).takenAt).toBe("2021-12-31T23:59:59");
  });

  it("uses only the first frame of an animated GIF", async () => {
    const gif = await animatedGif(["#00ff00", "#ff0000", "#0000ff"]);
    expect((await sharp(gif).metadata()).pages).toBe(3);

    const result = await processImage(gif);

    expect(result).toMatchObject({ format: "gif", contentType: "image/gif", width: 60, height: 40 });
    expectColour(await pixelAt(result.preview, 30, 20), { r: 0, g: 255, b: 0 });
  });

  it("decodes AVIF through sharp", async () => {
    const avif = await twoTone(96, 64).heif({ compression: "av1", quality: 80 }).toBuffer();
    const result = await processImage(avif);

    expect(result).toMatchObject({ format: "avif", contentType: "image/avif", extension: "avif", width: 96, height: 64 });
    expectColour(await pixelAt(result.preview, 10, 32), RED);
  });

  it("decodes a real HEVC HEIC through heic-decode, with its EXIF date", async () => {
    const result = await processImage(heicSample());

    expect(result).toMatchObject({ format: "heic", contentType: "image/heic", extension: "heic", width: 96, height: 64 });
    expect(result.takenAt).toBe("2023-07-14T18:30:05");
    expect(result.preview).toMatchObject({ width: 96, height: 64 });
    expect((await sharp(result.preview.data).metadata()).hasAlpha).toBe(false);
    expectColour(await pixelAt(result.preview, 10, 32), RED);
    expectColour(await pixelAt(result.preview, 86, 32), BLUE);
    expect(thumbHashToRGBA(Buffer.from(result.placeholder, "base64")).w).toBeGreaterThan(0);
  });

  describe("renders a full-size display copy with its capture date and no location or device metadata (served instead of the original)", () => {
    const xmp =
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
      '<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" dc:creator="Owner Name Dave"/></rdf:RDF></x:xmpmeta>';
    const tagged = (image: ReturnType<typeof twoTone>) => image.withExif(cameraExif).withXmp(xmp);

    /**
     * Of the original's metadata, only its capture date (ADR 0064), read back by exifr as a photo
     * program would: `DateTimeOriginal` (and its zone when recorded) and Orientation 1, nothing of
     * the camera, its owner or its position.
     */
    const expectNoIdentifyingMetadata = async (
      data: Buffer,
      taken: { DateTimeOriginal: string; OffsetTimeOriginal?: string } = {
        DateTimeOriginal: "2023:07:14 18:30:05",
        OffsetTimeOriginal: "+02:00",
      },
    ) => {
      const metadata = await sharp(data).metadata();
      expect(metadata.xmp).toBeUndefined();
      expect(metadata.iptc).toBeUndefined();
      expect(metadata.orientation).toBe(1);
      for (const text of ["TestCam", "Serial-0042", "Owner Name Dave", "GPS", "2024:01:02"])
        expect(data.includes(text)).toBe(false);
      // The EXIF block as the file holds it (exifr does not open WebP itself): its TIFF structure.
      const block = metadata.exif!;
      const tiff = block.subarray(0, 4).toString("latin1") === "Exif" ? block.subarray(6) : block;
      const exif = (await exifr.parse(tiff, {
        tiff: true,
        exif: true,
        gps: true,
        reviveValues: false,
        translateValues: false,
      })) as Record<string, unknown>;
      expect(exif).toMatchObject({ ...taken, Orientation: 1 });
      if (!("OffsetTimeOriginal" in taken)) expect(exif.OffsetTimeOriginal).toBeUndefined();
      for (const tag of ["Make", "Model", "DateTime", "GPSLatitude", "GPSLongitude", "latitude", "Artist", "Copyright"])
        expect(exif[tag]).toBeUndefined();
    };

    it("JPEG: upright at full size, its colour profile kept, no EXIF, GPS, serial or owner", async () => {
      const original = await tagged(twoTone(400, 200).withIccProfile("p3")).withMetadata({ orientation: 6 }).jpeg().toBuffer();
      expect(original.includes("Serial-0042")).toBe(true);

      const { display, takenAt } = await processImage(original);

      expect(display).toMatchObject({ contentType: "image/jpeg", extension: "jpg", width: 200, height: 400 });
      await expectNoIdentifyingMetadata(display.data);
      expect((await sharp(display.data).metadata()).icc).toEqual((await sharp(original).metadata()).icc);
      expectColour(await pixelAt(display, 100, 20), RED);
      expectColour(await pixelAt(display, 100, 380), BLUE);
      expect(takenAt).toBe("2023-07-14T18:30:05+02:00");
    });

    it("PNG stays a lossless PNG, transparency included", async () => {
      const png = await tagged(twoTone(120, 80, 4))
        .png()
        .toBuffer();
      const { display } = await processImage(png);

      expect(display).toMatchObject({ contentType: "image/png", extension: "png", width: 120, height: 80 });
      await expectNoIdentifyingMetadata(display.data);
      const pixels = await sharp(display.data).raw().toBuffer();
      expect(pixels.equals(await sharp(png).raw().toBuffer())).toBe(true);
    });

    it("WebP stays WebP", async () => {
      const { display } = await processImage(await tagged(twoTone(120, 80)).webp().toBuffer());

      expect(display).toMatchObject({ contentType: "image/webp", extension: "webp", width: 120, height: 80 });
      await expectNoIdentifyingMetadata(display.data);
      expectColour(await pixelAt(display, 10, 40), RED);
    });

    it("AVIF and HEIC become JPEG, which every browser shows", async () => {
      const avif = await tagged(twoTone(96, 64)).heif({ compression: "av1", quality: 80 }).toBuffer();
      for (const [original, taken] of [
        [avif, { DateTimeOriginal: "2023:07:14 18:30:05", OffsetTimeOriginal: "+02:00" }],
        // The HEIC sample's camera recorded no zone: none is made up.
        [heicSample(), { DateTimeOriginal: "2023:07:14 18:30:05" }],
      ] as const) {
        const { display } = await processImage(original);
        expect(display).toMatchObject({ contentType: "image/jpeg", extension: "jpg", width: 96, height: 64 });
        await expectNoIdentifyingMetadata(display.data, taken);
        expectColour(await pixelAt(display, 10, 32), RED);
        expectColour(await pixelAt(display, 86, 32), BLUE);
      }
    });

    it("an animated GIF keeps its frames", async () => {
      const { display } = await processImage(await animatedGif(["#00ff00", "#ff0000", "#0000ff"]));

      expect(display).toMatchObject({ contentType: "image/gif", extension: "gif", width: 60, height: 40 });
      expect((await sharp(display.data).metadata()).pages).toBe(3);
    });

    it("a photo without a capture date gets none, and no EXIF at all", async () => {
      const { display, takenAt } = await processImage(await twoTone(120, 80).jpeg().toBuffer());
      expect(takenAt).toBeNull();
      const metadata = await sharp(display.data).metadata();
      expect(metadata.exif).toBeUndefined();
      expect(metadata.orientation).toBeUndefined();
    });
  });

  describe("refuses what is not an allowed image, before any decoding", () => {
    it.each(notText)("%s", async (_name, bytes) => {
      await expect(processImage(bytes)).rejects.toBeInstanceOf(UnsupportedImageError);
    });

    it("TIFF", async () => {
      await expect(processImage(await twoTone(20, 10).tiff().toBuffer())).rejects.toBeInstanceOf(UnsupportedImageError);
    });

    it("answers 415 with a stable code", async () => {
      await expect(processImage(Buffer.from("<svg/>"))).rejects.toMatchObject({
        statusCode: 415,
        code: "unsupported_image_type",
      });
    });
  });

  describe("refuses pixel bombs from the header, fast and without decoding", () => {
    const expectRefusedQuickly = async (bytes: Buffer, maxPixels?: number) => {
      const rssBefore = process.memoryUsage.rss();
      const started = performance.now();
      const error: unknown = await processImage(bytes, { maxPixels }).catch((caught: unknown) => caught);
      const elapsed = performance.now() - started;

      expect(error).toBeInstanceOf(ImageTooLargeError);
      expect(error).toMatchObject({ statusCode: 422, code: "image_too_large" });
      expect(elapsed).toBeLessThan(1000);
      expect(process.memoryUsage.rss() - rssBefore).toBeLessThan(100 * 1024 * 1024);
    };

    it("a valid 20000 × 20000 PNG of a few dozen KB (400 MP, 1.6 GB as RGBA)", async () => {
      const bomb = pngBomb(20_000, 20_000);
      expect(bomb.length).toBeLessThan(200_000);
      expect(await sharp(bomb, { limitInputPixels: false }).metadata()).toMatchObject({ width: 20_000, height: 20_000 });

      await expectRefusedQuickly(bomb);
    });

    it("a PNG header claiming 100000 × 100000", async () => {
      await expectRefusedQuickly(pngHeaderOnly(100_000, 100_000));
    });

    it("a JPEG whose frame header claims 60000 × 60000", async () => {
      await expectRefusedQuickly(await jpegClaiming(60_000, 60_000));
    });

    it("anything over a lower limit given by the caller, HEIC included", async () => {
      await expectRefusedQuickly(await twoTone(40, 30).jpeg().toBuffer(), 1_000);
      await expectRefusedQuickly(heicSample(), 96 * 64 - 1);
    });

    it("says how large the image is and what the limit is", async () => {
      await expect(processImage(pngHeaderOnly(10_000, 6_000))).rejects.toThrow(
        "The image may have at most 50 megapixels; this one is 10000 × 6000 pixels.",
      );
    });

    it("accepts an image exactly at the limit", async () => {
      await expect(processImage(await twoTone(40, 25).png().toBuffer(), { maxPixels: 1_000 })).resolves.toMatchObject({
        width: 40,
      });
    });
  });

  describe("refuses damaged data as corrupt", () => {
    const expectCorrupt = async (bytes: Buffer) => {
      await expect(processImage(bytes)).rejects.toMatchObject({ statusCode: 422, code: "corrupt_image" });
      await expect(processImage(bytes)).rejects.toBeInstanceOf(CorruptImageError);
    };

    it("a JPEG cut in half", async () => {
      const jpeg = await photoLike(800, 600).jpeg().toBuffer();
      await expectCorrupt(jpeg.subarray(0, jpeg.length / 2));
    });

    it("a JPEG cut right after its header", async () => {
      const jpeg = await photoLike(800, 600).jpeg().toBuffer();
      await expectCorrupt(jpeg.subarray(0, 700));
    });

    it("a PNG cut in half", async () => {
      const png = await photoLike(300, 200).png().toBuffer();
      await expectCorrupt(png.subarray(0, png.length / 2));
    });

    it("JPEG magic bytes followed by garbage", async () => {
      await expectCorrupt(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(500, 0x41)]));
    });

    it("a GIF/JavaScript polyglot", async () => {
      await expectCorrupt(Buffer.from("GIF89a=1;alert(document.domain);//", "latin1"));
    });

    it("a HEIC whose valid ftyp box is followed by garbage", async () => {
      await expectCorrupt(ftyp("heic", ["mif1", "heic"], Buffer.alloc(400, 0x5a)));
    });

    it("a WebP behind a HEIC file type box", async () => {
      await expectCorrupt(Buffer.concat([ftyp("heic", ["mif1", "heic"]), await twoTone(20, 10).webp().toBuffer()]));
    });

    it("a HEIC cut in half", async () => {
      const heic = heicSample();
      await expectCorrupt(heic.subarray(0, heic.length / 2));
    });
  });

  it("never fails with anything but its own errors on mutated images (fuzz)", async () => {
    const seeds = await Promise.all([
      twoTone(48, 32).jpeg().toBuffer(),
      twoTone(48, 32).png().toBuffer(),
      twoTone(48, 32).webp().toBuffer(),
      twoTone(48, 32).gif().toBuffer(),
    ]);
    const mutation = fc.record({
      seed: fc.constantFrom(...seeds),
      edits: fc.array(fc.record({ at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }), { minLength: 1, maxLength: 8 }),
      cut: fc.option(fc.nat(), { nil: undefined }),
    });

    await fc.assert(
      fc.asyncProperty(mutation, async ({ seed, edits, cut }) => {
        const bytes = Buffer.from(seed);
        // Keep the magic bytes mostly intact so the decoders, not the sniffer, see the damage.
        for (const { at, byte } of edits) bytes[8 + (at % (bytes.length - 8))] = byte;
        const input = cut === undefined ? bytes : bytes.subarray(0, cut % bytes.length);
        try {
          const result = await processImage(input);
          expect(result.preview.data.length).toBeGreaterThan(0);
        } catch (error) {
          expect(error).toBeInstanceOf(AppError);
          expect([415, 422]).toContain((error as AppError).statusCode);
        }
      }),
      { numRuns: 300 },
    );
  }, 60_000);
});
