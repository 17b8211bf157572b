import { describe, expect, it } from "vitest";
import { heicSample } from "./fixtures/test-images";
import { decodeHeicInWorker } from "./heic-worker";

describe("decodeHeicInWorker", () => {
  it("returns the photo's RGBA pixels", async () => {
    const decoded = await decodeHeicInWorker(heicSample(), 50_000_000);
    expect("refused" in decoded).toBe(false);
    if ("refused" in decoded) return;
    expect([decoded.width, decoded.height]).toEqual([96, 64]);
    expect(decoded.rgba.length).toBe(96 * 64 * 4);
    expect(decoded.rgba.some((byte) => byte !== 0)).toBe(true);
  });

  it("refuses a photo above the pixel limit, with the size its header gives", async () => {
    expect(await decodeHeicInWorker(heicSample(), 96 * 64 - 1)).toEqual({ refused: { width: 96, height: 64 } });
  });

  it("rejects a file that holds no decodable image, and leaves the caller's buffer as it was", async () => {
    const sample = heicSample();
    const truncated = sample.subarray(0, Math.floor(sample.length / 3));
    const before = Buffer.from(truncated);
    await expect(decodeHeicInWorker(truncated, 50_000_000)).rejects.toThrow();
    expect(truncated.equals(before)).toBe(true);
  });
});
