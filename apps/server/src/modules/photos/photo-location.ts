import type { GeoPoint } from "@memory-box/contract";
import exifr from "exifr";
import { heifExifTiff } from "./heif-exif";

/**
 * Where a photo or video was taken, as its original says (issue #32). Read once, at upload, from
 * the bytes kept as the original; the files served never carry it (they are re-encoded without
 * metadata). Everything here reads untrusted bytes: a position that is absent, malformed, out of
 * range or not a number is no position, and nothing here throws.
 */

/**
 * A point from two numbers a file claimed, or null. Exactly 0, 0 is what cameras write when they
 * had no fix (a point in the Gulf of Guinea nobody photographs from): no position either.
 */
export function geoPointOf(latitude: unknown, longitude: unknown): GeoPoint | null {
  if (typeof latitude !== "number" || typeof longitude !== "number") return null;
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  if (latitude === 0 && longitude === 0) return null;
  return { latitude, longitude };
}

/**
 * The GPS position in a still's EXIF (JPEG, HEIC, PNG, WebP, AVIF), or null. A HEIC whose EXIF
 * exifr cannot place (libheif's layout, `heif-exif.ts`) is read again from its EXIF item's TIFF.
 */
export async function readImageLocation(image: Uint8Array): Promise<GeoPoint | null> {
  const gpsOf = async (bytes: Uint8Array) => {
    try {
      const gps = (await exifr.gps(bytes)) as { latitude?: unknown; longitude?: unknown } | undefined;
      return geoPointOf(gps?.latitude, gps?.longitude);
    } catch {
      return null;
    }
  };
  const point = await gpsOf(image);
  if (point) return point;
  const tiff = heifExifTiff(image);
  return tiff ? gpsOf(tiff) : null;
}

// ISO 6709 as phones and FFmpeg write it in a video's `location` tag: signed degrees of latitude
// (2 integer digits) and longitude (3), an optional altitude, a closing slash ("+38.7970-009.3900/",
// "+38.7970-009.3900+012.345/"). The degrees-minutes forms of the standard are not written by them.
const iso6709 = /^([+-]\d{2}(?:\.\d+)?)([+-]\d{3}(?:\.\d+)?)(?:[+-]\d+(?:\.\d+)?)?(?:CRS[A-Z0-9_]+)?\/?$/;

/** A position written as ISO 6709 decimal degrees, or null. */
export function parseIso6709(text: unknown): GeoPoint | null {
  if (typeof text !== "string" || text.length > 100) return null;
  const match = iso6709.exec(text.trim());
  if (!match) return null;
  return geoPointOf(Number(match[1]), Number(match[2]));
}
