import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { animatedGif, heicSample, twoTone } from "./fixtures/test-images";
import { processImage, restrictImageDecoders } from "./image-pipeline";

// A file of its own: the block is process-wide, and Vitest gives each test file its own process.
describe("restrictImageDecoders", () => {
  beforeAll(() => {
    restrictImageDecoders();
  });

  it("leaves every allowed format working", async () => {
    const inputs = await Promise.all([
      twoTone(40, 20).jpeg().toBuffer(),
      twoTone(40, 20).png().toBuffer(),
      twoTone(40, 20).webp().toBuffer(),
      animatedGif(["#0f0", "#f00"]),
      twoTone(40, 20).heif({ compression: "av1" }).toBuffer(),
    ]);
    inputs.push(heicSample());
    const formats = await Promise.all(inputs.map(async (input) => (await processImage(input)).format));
    expect(formats).toEqual(["jpeg", "png", "webp", "gif", "avif", "heic"]);
  });

  it.each([
    ["TIFF", () => twoTone(40, 20).tiff().toBuffer()],
    [
      "SVG",
      async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>'),
    ],
  ])("stops %s inside sharp itself, past any sniffing", async (_name, make) => {
    await expect(sharp(await make()).metadata()).rejects.toThrow(/unsupported image format/);
  });
});
