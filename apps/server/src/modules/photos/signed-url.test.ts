import { describe, expect, it } from "vitest";
import { signedPhotoUrl, signPhotoPath, verifyPhotoSignature } from "./signed-url";

const secret = Buffer.alloc(32, 7);
const otherSecret = Buffer.alloc(32, 8);
const path = "3f2b8c1e-6a9d-4e57-9b0a-1c2d3e4f5a6b/1748779200123-0a1b2c3d4e5f.preview.webp";
const at = (iso: string) => new Date(iso);
const now = at("2025-06-01T12:20:00Z");
const hour = 3600;

describe("signPhotoPath / verifyPhotoSignature", () => {
  it("round-trips, with the expiry as a number or as the query string's text", () => {
    const { expires, signature } = signPhotoPath(path, secret, now);

    expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(verifyPhotoSignature(path, expires, signature, secret, now)).toBe(true);
    expect(verifyPhotoSignature(path, String(expires), signature, secret, now)).toBe(true);
  });

  it("expires 6 to 7 hours later, on a full hour", () => {
    const { expires } = signPhotoPath(path, secret, now);

    expect(expires % hour).toBe(0);
    expect(new Date(expires * 1000).toISOString()).toBe("2025-06-01T19:00:00.000Z");
    expect(expires - now.getTime() / 1000).toBeGreaterThanOrEqual(6 * hour);
    expect(expires - now.getTime() / 1000).toBeLessThanOrEqual(7 * hour);
  });

  it("gives the same URL throughout an hour window, so browsers reuse their cached copy", () => {
    const first = signPhotoPath(path, secret, at("2025-06-01T12:00:01Z"));
    for (const time of ["2025-06-01T12:20:00Z", "2025-06-01T12:59:59Z", "2025-06-01T13:00:00Z"]) {
      expect(signPhotoPath(path, secret, at(time))).toEqual(first);
    }
    expect(signPhotoPath(path, secret, at("2025-06-01T13:00:01Z")).expires).toBe(first.expires + hour);
  });

  it("honours other lifetimes and roundings", () => {
    const { expires } = signPhotoPath(path, secret, now, { ttlSeconds: 300, roundToSeconds: 60 });
    expect(new Date(expires * 1000).toISOString()).toBe("2025-06-01T12:25:00.000Z");
    expect(() => signPhotoPath(path, secret, now, { ttlSeconds: 0 })).toThrow(RangeError);
    expect(() => signPhotoPath(path, secret, now, { roundToSeconds: 1.5 })).toThrow(RangeError);
  });

  it("rejects an altered path, expiry or signature", () => {
    const { expires, signature } = signPhotoPath(path, secret, now);
    const flipped = (signature[0] === "A" ? "B" : "A") + signature.slice(1);

    expect(verifyPhotoSignature(`${path}x`, expires, signature, secret, now)).toBe(false);
    expect(verifyPhotoSignature(path.replace("preview", "thumb"), expires, signature, secret, now)).toBe(false);
    expect(verifyPhotoSignature(path, expires + hour, signature, secret, now)).toBe(false);
    expect(verifyPhotoSignature(path, expires, flipped, secret, now)).toBe(false);
    expect(verifyPhotoSignature(path, expires, signature, otherSecret, now)).toBe(false);
  });

  it("rejects expiries and signatures that are not in canonical form", () => {
    const { expires, signature } = signPhotoPath(path, secret, now);

    for (const text of ["", "abc", `0${expires}`, `${expires}.0`, `${expires} `, `+${expires}`, "1e10", "-1", "9".repeat(20)]) {
      expect(verifyPhotoSignature(path, text, signature, secret, now)).toBe(false);
    }
    for (const bad of ["", signature.slice(1), `${signature}=`, `${signature}A`, signature.replace(/.$/, "+"), "x".repeat(43)]) {
      expect(verifyPhotoSignature(path, expires, bad, secret, now)).toBe(false);
    }
  });

  it("rejects a URL from the second it expires", () => {
    const { expires, signature } = signPhotoPath(path, secret, now);

    expect(verifyPhotoSignature(path, expires, signature, secret, new Date(expires * 1000 - 1))).toBe(true);
    expect(verifyPhotoSignature(path, expires, signature, secret, new Date(expires * 1000))).toBe(false);
    expect(verifyPhotoSignature(path, expires, signature, secret, at("2026-01-01T00:00:00Z"))).toBe(false);
  });

  it("changes every URL when the secret is rotated", () => {
    expect(signPhotoPath(path, otherSecret, now).signature).not.toBe(signPhotoPath(path, secret, now).signature);
  });

  it("refuses a secret shorter than 32 bytes", () => {
    expect(() => signPhotoPath(path, Buffer.alloc(16), now)).toThrow(RangeError);
  });
});

describe("signedPhotoUrl", () => {
  it("builds the storage route's URL with expires and token", () => {
    const url = new URL(signedPhotoUrl("https://box.example/", path, secret, now));

    expect(url.origin + url.pathname).toBe(`https://box.example/storage/v1/object/sign/memory-photos/${path}`);
    const expires = url.searchParams.get("expires") ?? "";
    const token = url.searchParams.get("token") ?? "";
    expect(verifyPhotoSignature(path, expires, token, secret, now)).toBe(true);
  });

  it("percent-encodes each segment but signs the decoded key", () => {
    const odd = "user/a b#c?.jpg";
    const url = new URL(signedPhotoUrl("http://127.0.0.1:3000", odd, secret, now));

    expect(url.pathname).toBe("/storage/v1/object/sign/memory-photos/user/a%20b%23c%3F.jpg");
    const key = decodeURIComponent(url.pathname.slice("/storage/v1/object/sign/memory-photos/".length));
    expect(
      verifyPhotoSignature(key, url.searchParams.get("expires") ?? "", url.searchParams.get("token") ?? "", secret, now),
    ).toBe(true);
  });
});
