/**
 * The capture time from a raw EXIF block (what sharp's `metadata().exif` returns). The block comes
 * from an untrusted upload, so every read is bounds-checked and anything unexpected yields null:
 * this function never throws and never loops (it follows IFD0 and the Exif IFD, no chains).
 */

const TAG_DATE_TIME = 0x0132; // IFD0: last modification, edited by software; the last resort
const TAG_EXIF_IFD = 0x8769;
const TAG_DATE_TIME_ORIGINAL = 0x9003;
const TAG_DATE_TIME_DIGITIZED = 0x9004;
const TAG_OFFSET_TIME = 0x9010;
const TAG_OFFSET_TIME_ORIGINAL = 0x9011;
const TAG_OFFSET_TIME_DIGITIZED = 0x9012;

const TYPE_ASCII = 2;
const ENTRY_SIZE = 12;
// Real IFDs have a few dozen entries; a huge count is garbage and would only cost time.
const MAX_ENTRIES = 1000;

// Each date tag with the EXIF 2.31 tag holding its UTC offset, in order of preference.
// DateTimeDigitized is the capture time for cameras and the scan time for scans.
const DATE_TAGS = [
  { date: TAG_DATE_TIME_ORIGINAL, offset: TAG_OFFSET_TIME_ORIGINAL },
  { date: TAG_DATE_TIME_DIGITIZED, offset: TAG_OFFSET_TIME_DIGITIZED },
  { date: TAG_DATE_TIME, offset: TAG_OFFSET_TIME },
] as const;

/**
 * `DateTimeOriginal` (falling back to `DateTimeDigitized`, then `DateTime`) as ISO-8601.
 * EXIF dates are local wall time without a zone, so the result is "YYYY-MM-DDTHH:MM:SS", with the
 * matching `OffsetTime*` tag appended ("+02:00") only when the camera recorded one.
 */
export function parseExifDate(exif: Uint8Array | undefined): string | null {
  if (exif === undefined) return null;
  const tiff = locateTiff(exif);
  if (tiff === null) return null;

  const ifd0 = readIfd(tiff, tiff.u32(4));
  if (ifd0 === null) return null;
  const exifIfdPointer = ifd0.get(TAG_EXIF_IFD);
  const exifIfd = exifIfdPointer === undefined ? null : readIfd(tiff, tiff.u32(exifIfdPointer + 8));
  const lookup = (tag: number) => exifIfd?.get(tag) ?? ifd0.get(tag);

  for (const { date, offset } of DATE_TAGS) {
    const entry = lookup(date);
    const wallTime = entry === undefined ? null : parseDateTime(readAscii(tiff, entry));
    if (wallTime === null) continue;
    const offsetEntry = lookup(offset);
    const zone = offsetEntry === undefined ? null : parseOffset(readAscii(tiff, offsetEntry));
    return zone === null ? wallTime : wallTime + zone;
  }
  return null;
}

interface Tiff {
  readonly length: number;
  u16(at: number): number | null;
  u32(at: number): number | null;
  bytes(at: number, length: number): Uint8Array | null;
}

/**
 * Finds the TIFF header ("II*\0" or "MM\0*") in the shapes sharp hands over: bare TIFF (PNG eXIf,
 * HEIF), "Exif\0\0" + TIFF (JPEG APP1, some WebP), or HEIF's 4-byte big-endian header offset.
 */
function locateTiff(data: Uint8Array): Tiff | null {
  const candidates = [0, 6];
  if (data.length >= 4) candidates.push(4 + (((data[0]! << 24) | (data[1]! << 16) | (data[2]! << 8) | data[3]!) >>> 0));
  for (const start of candidates) {
    if (start + 8 > data.length) continue;
    const a = data[start];
    const b = data[start + 1];
    if (a !== b || (a !== 0x49 && a !== 0x4d)) continue; // "II" little-endian, "MM" big-endian
    const tiff = tiffReader(data.subarray(start), a === 0x49);
    if (tiff.u16(2) === 42) return tiff;
  }
  return null;
}

function tiffReader(data: Uint8Array, littleEndian: boolean): Tiff {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const fits = (at: number, size: number) => Number.isSafeInteger(at) && at >= 0 && at + size <= data.length;
  return {
    length: data.length,
    u16: (at) => (fits(at, 2) ? view.getUint16(at, littleEndian) : null),
    u32: (at) => (fits(at, 4) ? view.getUint32(at, littleEndian) : null),
    bytes: (at, length) => (fits(at, length) ? data.subarray(at, at + length) : null),
  };
}

/** Tag → position of its 12-byte entry; entries past the end of the block are ignored. */
function readIfd(tiff: Tiff, offset: number | null): Map<number, number> | null {
  if (offset === null) return null;
  const count = tiff.u16(offset);
  if (count === null) return null;
  const entries = new Map<number, number>();
  const available = Math.floor((tiff.length - offset - 2) / ENTRY_SIZE);
  for (let i = 0; i < Math.min(count, available, MAX_ENTRIES); i++) {
    const entry = offset + 2 + i * ENTRY_SIZE;
    const tag = tiff.u16(entry);
    // The first entry wins, as in exiftool: a duplicate cannot override what was read.
    if (tag !== null && !entries.has(tag)) entries.set(tag, entry);
  }
  return entries;
}

/** An ASCII entry's text up to the first NUL, or null when the entry is not a plausible string. */
function readAscii(tiff: Tiff, entry: number): string | null {
  if (tiff.u16(entry + 2) !== TYPE_ASCII) return null;
  const count = tiff.u32(entry + 4);
  // Dates are 20 bytes and offsets 7; anything long is not what we are looking for.
  if (count === null || count === 0 || count > 64) return null;
  const at = count <= 4 ? entry + 8 : tiff.u32(entry + 8);
  const bytes = at === null ? null : tiff.bytes(at, count);
  if (bytes === null) return null;
  const end = bytes.indexOf(0);
  return Buffer.from(bytes.subarray(0, end === -1 ? bytes.length : end)).toString("latin1");
}

// "YYYY:MM:DD HH:MM:SS" per the spec; some writers use '-' in the date or a 'T' separator.
const DATE_TIME = /^(\d{4})[:-](\d{2})[:-](\d{2})[ T](\d{2}):(\d{2}):(\d{2})/;
const OFFSET = /^([+-])(\d{2}):(\d{2})$/;

function parseDateTime(text: string | null): string | null {
  const match = text === null ? null : DATE_TIME.exec(text.trim());
  if (!match) return null;
  const [y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0] = match.slice(1).map(Number);
  // Unset clocks write "0000:00:00 00:00:00"; years before photography are clock errors too.
  if (y < 1826 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) return null;
  return `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}`;
}

function parseOffset(text: string | null): string | null {
  const match = text === null ? null : OFFSET.exec(text.trim());
  if (!match) return null;
  const [hours = 0, minutes = 0] = match.slice(2).map(Number);
  if (hours > 14 || minutes > 59) return null;
  return `${match[1] === "-" ? "-" : "+"}${pad(hours)}:${pad(minutes)}`;
}

const pad = (value: number, width = 2) => String(value).padStart(width, "0");

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
