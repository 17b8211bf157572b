import { describe, expect, it } from "vitest";
import { isValidBlobKey } from "../../lib/blob-key";
import {
  derivativeKey,
  displayKey,
  isServedPhotoKey,
  isWebCopyKey,
  motionKey,
  originalPhotoKey,
  photoBucket,
  webKey,
} from "./photo-key";

const userId = "3f2b8c1e-6a9d-4e57-9b0a-1c2d3e4f5a6b";
const now = new Date("2025-06-01T12:00:00.123Z");

describe("originalPhotoKey", () => {
  it("is {userId}/{timestamp}-{random}.{extension}, a valid blob key", () => {
    const key = originalPhotoKey(userId, now, "jpg");

    expect(key).toMatch(new RegExp(`^${userId}/${now.getTime()}-[0-9a-f]{12}\\.jpg$`));
    expect(isValidBlobKey(key)).toBe(true);
  });

  it("does not collide for uploads in the same millisecond", () => {
    const keys = new Set(Array.from({ length: 1_000 }, () => originalPhotoKey(userId, now, "heic")));
    expect(keys.size).toBe(1_000);
  });

  it("sorts by upload time", () => {
    const earlier = originalPhotoKey(userId, new Date(now.getTime() - 1), "png");
    expect(earlier < originalPhotoKey(userId, now, "png")).toBe(true);
  });

  it("refuses a user id that would nest folders, odd extensions and invalid dates", () => {
    expect(() => originalPhotoKey("a/b", now, "jpg")).toThrow(TypeError);
    expect(() => originalPhotoKey("..", now, "jpg")).toThrow();
    expect(() => originalPhotoKey("", now, "jpg")).toThrow();
    for (const extension of ["", "JPG", ".jpg", "j/pg", "html "])
      expect(() => originalPhotoKey(userId, now, extension)).toThrow(TypeError);
    expect(() => originalPhotoKey(userId, new Date(Number.NaN), "jpg")).toThrow(TypeError);
  });
});

describe("derivativeKey", () => {
  it("puts the thumbnail and the preview next to the original", () => {
    const key = `${userId}/1748779200123-0a1b2c3d4e5f.heic`;

    expect(derivativeKey(key, "thumbnail")).toBe(`${userId}/1748779200123-0a1b2c3d4e5f.thumb.webp`);
    expect(derivativeKey(key, "preview")).toBe(`${userId}/1748779200123-0a1b2c3d4e5f.preview.webp`);
  });

  it("never lets two originals share a derivative", () => {
    const original = originalPhotoKey(userId, now, "jpg");
    const other = originalPhotoKey(userId, now, "png");
    expect(derivativeKey(original, "preview")).not.toBe(derivativeKey(other, "preview"));
    expect(derivativeKey(original, "thumbnail")).not.toBe(derivativeKey(original, "preview"));
  });

  it("only strips an extension from the last segment", () => {
    expect(derivativeKey("user.name/1748779200123", "thumbnail")).toBe("user.name/1748779200123.thumb.webp");
  });
});

it("names the photo bucket as the spec does", () => {
  expect(photoBucket).toBe("memory-photos");
});

describe("served keys", () => {
  const original = originalPhotoKey(userId, now, "jpg");

  it("puts the display copy next to the original, with the display copy's own extension", () => {
    expect(displayKey(original, "jpg")).toBe(original.replace(/\.jpg$/, ".display.jpg"));
    expect(displayKey(originalPhotoKey(userId, now, "heic"), "jpg")).toMatch(/-[0-9a-f]{12}\.display\.jpg$/);
  });

  it("serves the renditions and never the original as uploaded", () => {
    expect(isServedPhotoKey(derivativeKey(original, "thumbnail"))).toBe(true);
    expect(isServedPhotoKey(derivativeKey(original, "preview"))).toBe(true);
    expect(isServedPhotoKey(displayKey(original, "png"))).toBe(true);
    for (const extension of ["jpg", "png", "webp", "gif", "avif", "heic"]) {
      expect(isServedPhotoKey(originalPhotoKey(userId, now, extension))).toBe(false);
    }
    expect(isServedPhotoKey(`${original}/../x.thumb.webp.jpg`)).toBe(false);
  });

  it("serves a video's web copy and never a video's original or a Live Photo's motion (ADR 0055)", () => {
    for (const extension of ["mp4", "mov", "webm", "mkv"]) {
      const video = originalPhotoKey(userId, now, extension);
      expect(isServedPhotoKey(video)).toBe(false);
      expect(isServedPhotoKey(webKey(video, "mp4"))).toBe(true);
      expect(isWebCopyKey(webKey(video, "webm"))).toBe(true);
      expect(isServedPhotoKey(motionKey(original, extension))).toBe(false);
    }
    expect(webKey(original, "mp4")).toBe(original.replace(/\.jpg$/, ".web.mp4"));
    expect(motionKey(original, "mov")).toBe(original.replace(/\.jpg$/, ".motion.mov"));
    expect(isWebCopyKey(derivativeKey(original, "preview"))).toBe(false);
  });
});
