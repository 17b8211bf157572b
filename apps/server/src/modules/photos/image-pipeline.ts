import type { GeoPoint } from "@memory-box/contract";
import sharp, { type Metadata, type ResizeOptions, type Sharp, type SharpOptions } from "sharp";
import { rgbaToThumbHash } from "thumbhash";
import { AppError } from "../../errors";
import { parseExifDate } from "./exif-date";
import { decodeHeicInWorker } from "./heic-worker";
import { readImageLocation } from "./photo-location";

/**
 * The image half of a photo upload: sniff, bound, decode once, re-encode. No HTTP, no storage.
 *
 * Order matters for safety (security checklist §3): the type comes from magic bytes, the pixel
 * count from the header, and only then are pixels decoded, straight into a downscaled rendition.
 * Every rendition is re-encoded without metadata, so no EXIF, GPS, XMP or maker note leaves this
 * function except the capture date and the GPS position, which are returned separately (ADR 0017,
 * ADR 0058), and the capture date written again into the display copy (ADR 0064). The uploaded bytes
 * themselves are kept by the caller as the pristine original and never served.
 */

export type ImageFormat = "jpeg" | "png" | "webp" | "gif" | "avif" | "heic";

export interface Derivative {
  data: Buffer;
  width: number;
  height: number;
  contentType: "image/webp";
}

/** The full-size copy that photo URLs serve instead of the original: upright, colour profile kept, nothing else. */
export interface DisplayCopy {
  data: Buffer;
  width: number;
  height: number;
  contentType: string;
  /** Without a dot, e.g. "jpg". */
  extension: string;
}

export interface ProcessedImage {
  format: ImageFormat;
  /** Of the original, e.g. "image/jpeg". */
  contentType: string;
  /** Of the original, without a dot, e.g. "jpg". */
  extension: string;
  /** Display orientation, i.e. after the EXIF rotation. */
  width: number;
  height: number;
  /** See `parseExifDate`: "YYYY-MM-DDTHH:MM:SS" local wall time, "+HH:MM" appended when recorded. */
  takenAt: string | null;
  /** Where it was taken, from its EXIF GPS position; null when absent or not a valid position. */
  location: GeoPoint | null;
  /** ThumbHash, base64. */
  placeholder: string;
  /** Longest side at most 400 px, never upscaled. */
  thumbnail: Derivative;
  /** Longest side at most 1600 px, never upscaled. */
  preview: Derivative;
  /** Full size, in display orientation, re-encoded with its capture date and no other metadata. */
  display: DisplayCopy;
}

export interface ProcessImageOptions {
  /** Width × height above which an image is refused before decoding. */
  maxPixels?: number;
}

/**
 * 50 MP: the 48–50 MP modes of current phones pass (8160 × 6120 ≈ 49.9 MP), 100 MP and up are
 * refused. Lower than the checklist's 100 MP because a HEIC is decoded in full into WebAssembly
 * memory (4 bytes per pixel: 200 MB at 50 MP), held by its worker thread until the decode ends.
 */
export const DEFAULT_MAX_PIXELS = 50_000_000;

const FORMATS: Record<ImageFormat, { contentType: string; extension: string }> = {
  jpeg: { contentType: "image/jpeg", extension: "jpg" },
  png: { contentType: "image/png", extension: "png" },
  webp: { contentType: "image/webp", extension: "webp" },
  gif: { contentType: "image/gif", extension: "gif" },
  avif: { contentType: "image/avif", extension: "avif" },
  heic: { contentType: "image/heic", extension: "heic" },
};

/** The MIME type of a rendition by its key's extension ("jpg", "webp", …). */
export function contentTypeOfExtension(extension: string): string {
  return Object.values(FORMATS).find((format) => format.extension === extension)?.contentType ?? "application/octet-stream";
}

/**
 * libwebp's effort (its "method", 0 to 6; sharp's default is 4). Measured on seven photographs
 * (ADR 0088): at 2 a 1600 px preview encodes 2.3 × faster and a 400 px thumbnail 1.9 × faster,
 * for files 3–4 % larger and 0.2 dB less PSNR. These encodes are most of an upload's CPU, and of
 * an import's, which renders every photo of an archive again.
 */
const WEBP_EFFORT = 2;
const PREVIEW = { size: 1600, quality: 80 };
const THUMBNAIL = { size: 400, quality: 70 };
// rgbaToThumbHash accepts at most 100 × 100.
const PLACEHOLDER_SIZE = 100;

export class UnsupportedImageError extends AppError {
  constructor() {
    super("unsupported_image_type");
    this.name = "UnsupportedImageError";
  }
}

export class ImageTooLargeError extends AppError {
  constructor(maxPixels: number, width?: number, height?: number) {
    const size = width !== undefined && height !== undefined ? `${width} × ${height} pixels` : "larger than that";
    super("image_too_large", { message: `The image may have at most ${maxPixels / 1_000_000} megapixels; this one is ${size}.` });
    this.name = "ImageTooLargeError";
  }
}

export class CorruptImageError extends AppError {
  constructor(options?: ErrorOptions) {
    super("corrupt_image", options);
    this.name = "CorruptImageError";
  }
}

const JPEG_MAGIC = [0xff, 0xd8, 0xff];
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const AVIF_BRANDS = new Set(["avif", "avis"]);
const HEIC_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis"]);
// Generic HEIF brands say nothing about the codec; they count only when no specific brand is listed.
const GENERIC_HEIF_BRANDS = new Set(["mif1", "msf1"]);
// An ftyp box lists a handful of brands; reading more than this is pointless.
const MAX_BRANDS = 32;

/**
 * The format by magic bytes alone; file names and client MIME types are never consulted.
 * Anything else, SVG, PDF, TIFF and HTML included, is null. `head` may be just the first bytes.
 */
export function detectImageFormat(head: Uint8Array): ImageFormat | null {
  if (startsWith(head, JPEG_MAGIC)) return "jpeg";
  if (startsWith(head, PNG_MAGIC)) return "png";
  const ascii = (start: number, end: number) => Buffer.from(head.subarray(start, end)).toString("latin1");
  if (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a") return "gif";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "webp";
  if (ascii(4, 8) !== "ftyp" || head.length < 12) return null;

  // ISO-BMFF: size, "ftyp", major brand, minor version, compatible brands up to the box's end.
  const boxSize = ((head[0]! << 24) | (head[1]! << 16) | (head[2]! << 8) | head[3]!) >>> 0;
  const end = Math.min(boxSize, head.length, 16 + MAX_BRANDS * 4);
  const brands = [ascii(8, 12)];
  for (let at = 16; at + 4 <= end; at += 4) brands.push(ascii(at, at + 4));
  const specific = brands.find((brand) => AVIF_BRANDS.has(brand) || HEIC_BRANDS.has(brand));
  if (specific !== undefined) return AVIF_BRANDS.has(specific) ? "avif" : "heic";
  return brands.some((brand) => GENERIC_HEIF_BRANDS.has(brand)) ? "heic" : null;
}

function startsWith(data: Uint8Array, magic: readonly number[]): boolean {
  return data.length >= magic.length && magic.every((byte, i) => data[i] === byte);
}

/**
 * Blocks every libvips loader except the five this pipeline reads from buffers (checklist §3.4):
 * bytes that slipped past the sniffing still cannot reach the SVG, PDF, TIFF or Magick decoders.
 * Process-wide, so call it once at start-up; it restricts every other sharp user too.
 */
export function restrictImageDecoders(): void {
  sharp.block({ operation: ["VipsForeignLoad"] });
  sharp.unblock({
    operation: [
      "VipsForeignLoadJpegBuffer",
      "VipsForeignLoadPngBuffer",
      "VipsForeignLoadWebpBuffer",
      "VipsForeignLoadNsgifBuffer",
      "VipsForeignLoadHeifBuffer",
    ],
  });
}

/**
 * Turns off libvips' cache of recent operations (by default up to 50 MB and 100 operations):
 * every photo the server reads is a new one, so the cache only holds memory a long-running
 * process never gets back (issue #37's soak). Process-wide, once at start-up.
 */
export function keepNoImageCache(): void {
  sharp.cache(false);
}

/**
 * Validates an upload and renders its derivatives. Throws UnsupportedImageError (415) for anything
 * that is not an allowed image, ImageTooLargeError (422) above `maxPixels`, CorruptImageError (422)
 * for data that does not decode cleanly (a truncated file included).
 */
export async function processImage(input: Buffer, options: ProcessImageOptions = {}): Promise<ProcessedImage> {
  return decodeChecked(input, options, async ({ format, metadata, source, maxPixels }) => {
    const { preview, thumbnail, placeholder } = await renderDerivatives(source.image.clone());
    const takenAt = parseExifDate(metadata.exif);
    const display = await renderDisplayCopy(input, format, source, maxPixels, takenAt);
    return {
      format,
      ...FORMATS[format],
      width: source.width,
      height: source.height,
      takenAt,
      location: await readImageLocation(input),
      placeholder,
      thumbnail,
      preview,
      display,
    };
  });
}

/**
 * Only the display copy of an image already accepted once (photos uploaded before display copies
 * existed): the same checks, no derivatives.
 */
export async function renderDisplayCopyOf(input: Buffer, options: ProcessImageOptions = {}): Promise<DisplayCopy> {
  return decodeChecked(input, options, ({ format, metadata, source, maxPixels }) =>
    renderDisplayCopy(input, format, source, maxPixels, parseExifDate(metadata.exif)),
  );
}

interface Decoded {
  format: ImageFormat;
  metadata: Metadata;
  source: Source;
  maxPixels: number;
}

/** The checks every decode goes through, in their safe order, then `render`; any failure as our own error. */
async function decodeChecked<T>(
  input: Buffer,
  options: ProcessImageOptions,
  render: (decoded: Decoded) => Promise<T>,
): Promise<T> {
  const maxPixels = options.maxPixels ?? DEFAULT_MAX_PIXELS;
  const detected = detectImageFormat(input);
  if (detected === null) throw new UnsupportedImageError();
  try {
    const { format, metadata } = await readHeader(input, detected, maxPixels);
    const source = format === "heic" ? await decodeHeicSource(input, maxPixels) : sharpSource(input, metadata, maxPixels);
    return await render({ format, metadata, source, maxPixels });
  } catch (error) {
    throw asImageError(error, maxPixels);
  }
}

// What libvips calls each format; both HEIF flavours are "heif", told apart by their codec.
const SHARP_FORMAT: Record<ImageFormat, string> = {
  jpeg: "jpeg",
  png: "png",
  webp: "webp",
  gif: "gif",
  avif: "heif",
  heic: "heif",
};
const HEIF_CODECS: Partial<Record<string, ImageFormat>> = { av1: "avif", hevc: "heic" };

/**
 * Header only, no pixels: libvips must agree with the magic bytes (a polyglot that one decoder
 * reads differently is refused), and the pixel count is checked before anything is decoded.
 * For HEIF the codec decides: AV1 is AVIF whatever the brands say, HEVC is HEIC.
 */
async function readHeader(
  input: Buffer,
  detected: ImageFormat,
  maxPixels: number,
): Promise<{ format: ImageFormat; metadata: Metadata }> {
  // No limitInputPixels here: reading the header is cheap, and our own check can name the size.
  const metadata = await sharp(input, { ...decodeOptions(maxPixels), limitInputPixels: false }).metadata();
  if (metadata.format !== SHARP_FORMAT[detected]) throw new UnsupportedImageError();
  const format = metadata.format === "heif" ? HEIF_CODECS[metadata.compression ?? ""] : detected;
  if (format === undefined) throw new UnsupportedImageError();
  assertWithinPixelLimit(metadata.width, metadata.height, maxPixels);
  return { format, metadata };
}

function assertWithinPixelLimit(width: number, height: number, maxPixels: number): void {
  if (width * height > maxPixels) throw new ImageTooLargeError(maxPixels, width, height);
}

function decodeOptions(maxPixels: number): SharpOptions {
  return {
    // sharp's own guard too, in case the header we checked is not what libvips decodes.
    limitInputPixels: maxPixels,
    // "error" refuses truncated and undecodable data; "warning" would also refuse the harmless
    // libjpeg warnings ("extraneous bytes before marker") that some cameras' files carry.
    failOn: "error",
    sequentialRead: true,
    // Animated GIF/WebP: the first frame only.
    pages: 1,
  };
}

interface Source {
  /** Decoded pixels in display orientation, not yet resized. */
  image: Sharp;
  width: number;
  height: number;
}

function sharpSource(input: Buffer, metadata: Metadata, maxPixels: number): Source {
  return { image: sharp(input, decodeOptions(maxPixels)).autoOrient(), ...metadata.autoOrient };
}

/**
 * sharp's prebuilt libvips reads HEIF containers but has no HEVC decoder (patents), and the
 * checklist's alternatives are a system libvips we cannot use or an external converter process.
 * heic-decode is libheif + libde265 compiled to WebAssembly: no native build, and it applies the
 * container's rotation and mirroring (irot/imir) itself, so its pixels are already in display
 * orientation. It decodes at full size (4 bytes per pixel), in a worker thread (heic-worker.ts).
 */
async function decodeHeicSource(input: Buffer, maxPixels: number): Promise<Source> {
  const decoded = await decodeHeicInWorker(input, maxPixels);
  // The image whose pixels the worker would allocate, whatever the header sharp read said.
  if ("refused" in decoded) throw new ImageTooLargeError(maxPixels, decoded.refused.width, decoded.refused.height);
  const { width, height, rgba } = decoded;
  // Always RGBA; an all-opaque alpha channel is dropped by the WebP encoder.
  return { image: sharp(rgba, { raw: { width, height, channels: 4 } }), width, height };
}

const fitInside = (size: number): ResizeOptions => ({ width: size, height: size, fit: "inside", withoutEnlargement: true });

/**
 * One decode: the source is rendered once at preview size into raw sRGB, and the thumbnail and the
 * placeholder are cut from that small buffer instead of decoding the original again.
 */
async function renderDerivatives(image: Sharp): Promise<{ preview: Derivative; thumbnail: Derivative; placeholder: string }> {
  const base = await image
    .resize(fitInside(PREVIEW.size))
    .toColourspace("srgb")
    .raw({ depth: "uchar" })
    .toBuffer({ resolveWithObject: true });
  const fromBase = () =>
    sharp(base.data, { raw: { width: base.info.width, height: base.info.height, channels: base.info.channels } });

  const [preview, thumbnail, placeholder] = await Promise.all([
    encodeWebp(fromBase(), PREVIEW.quality),
    encodeWebp(fromBase().resize(fitInside(THUMBNAIL.size)), THUMBNAIL.quality),
    fromBase().resize(fitInside(PLACEHOLDER_SIZE)).ensureAlpha().raw().toBuffer({ resolveWithObject: true }),
  ]);
  const hash = rgbaToThumbHash(placeholder.info.width, placeholder.info.height, placeholder.data);
  return { preview, thumbnail, placeholder: Buffer.from(hash).toString("base64") };
}

/**
 * The preview, thumbnail and placeholder of a frame that is already decoded (a video's poster
 * frame): raw sRGB pixels in display orientation, which carry no metadata to leave behind.
 */
export function renderFrameDerivatives(
  pixels: Buffer,
  frame: { width: number; height: number; channels: 3 | 4 },
): Promise<{ preview: Derivative; thumbnail: Derivative; placeholder: string }> {
  return renderDerivatives(sharp(pixels, { raw: frame }));
}

/**
 * What each format's display copy is encoded as. Lossless sources stay lossless (PNG) and WebP and
 * GIF keep their format; JPEG stays JPEG at a quality where re-encoding is invisible. AVIF and
 * HEIC become JPEG: every browser shows it, and encoding AVIF at full size takes seconds.
 */
const DISPLAY_ENCODING: Record<ImageFormat, "jpeg" | "png" | "webp" | "gif"> = {
  jpeg: "jpeg",
  png: "png",
  webp: "webp",
  gif: "gif",
  avif: "jpeg",
  heic: "jpeg",
};
const DISPLAY_QUALITY = 90;

/**
 * The EXIF a display copy carries (ADR 0064): when it was taken, as the original says
 * (`DateTimeOriginal`, and `OffsetTimeOriginal` when the camera recorded its zone), and that it is
 * upright (`Orientation` 1, its pixels already turned). Nothing else of the original's EXIF: no GPS
 * position, camera serial, owner or maker note. Undefined without a capture date.
 */
export function captureExif(takenAt: string | null): Record<string, Record<string, string>> | undefined {
  const match = takenAt === null ? null : /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2}:\d{2})([+-]\d{2}:\d{2})?$/.exec(takenAt);
  if (!match) return undefined;
  const [, year, month, day, time, offset] = match;
  return {
    IFD0: { Orientation: "1" },
    IFD2: {
      DateTimeOriginal: `${year}:${month}:${day} ${time}`,
      ...(offset === undefined ? {} : { OffsetTimeOriginal: offset }),
    },
  };
}

/**
 * The original at full size, as a browser would show it and as "Download full size" saves it:
 * turned upright, its ICC colour profile kept as is (a phone's Display P3 is not squeezed into
 * sRGB), its capture date (captureExif: JPEG, PNG and WebP carry EXIF; GIF has nowhere to put it),
 * and nothing else: sharp writes no other EXIF, XMP or IPTC unless asked, so GPS positions, serial
 * numbers, owner names and maker notes stay behind in the pristine original. An animated GIF
 * keeps its frames when they fit the pixel limit together.
 */
async function renderDisplayCopy(
  input: Buffer,
  format: ImageFormat,
  source: Source,
  maxPixels: number,
  takenAt: string | null,
): Promise<DisplayCopy> {
  const encoding = DISPLAY_ENCODING[format];
  let image = source.image.clone();
  if (format === "gif") {
    const animated = sharp(input, { ...decodeOptions(maxPixels), pages: -1 });
    const { pages = 1 } = await animated.metadata();
    if (pages > 1 && source.width * source.height * pages <= maxPixels) image = animated;
  }
  if (format !== "heic") image = image.keepIccProfile();
  const exif = encoding === "gif" ? undefined : captureExif(takenAt);
  if (exif !== undefined) image = image.withExif(exif);
  const encoded =
    encoding === "jpeg"
      ? // Without optimised Huffman tables: optimising keeps every coefficient of the image in memory
        // until the end (measured: 20 concurrent 12 MP uploads peaked at 700 MB with it, 390 MB without)
        // for files ~5% smaller.
        image.flatten({ background: "#ffffff" }).jpeg({ quality: DISPLAY_QUALITY, optimiseCoding: false })
      : encoding === "png"
        ? image.png()
        : encoding === "webp"
          ? image.webp({ quality: DISPLAY_QUALITY, effort: WEBP_EFFORT })
          : image.gif();
  const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
  const { contentType, extension } = FORMATS[encoding];
  return { data, width: info.width, height: info.pageHeight ?? info.height, contentType, extension };
}

// Encoded from raw pixels, which carry no metadata, and sharp adds none unless asked
// (keepMetadata/withMetadata): no EXIF, GPS, XMP or ICC profile can reach a derivative.
async function encodeWebp(image: Sharp, quality: number): Promise<Derivative> {
  const { data, info } = await image.webp({ quality, effort: WEBP_EFFORT }).toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, contentType: "image/webp" };
}

/** Our own errors pass through; sharp's and libheif's become the client's fault, as they are. */
function asImageError(error: unknown, maxPixels: number): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof Error && /exceeds pixel limit/i.test(error.message)) return new ImageTooLargeError(maxPixels);
  return new CorruptImageError({ cause: error });
}
