/**
 * The EXIF (a TIFF structure) of a HEIF/HEIC still, found the way ISO/IEC 23008-12 places it: the
 * item of type `Exif` named in `meta`'s `iinf`, its bytes where `iloc` says, after the 4-byte
 * offset to its TIFF header. exifr finds it only when `iloc` puts the whole position in the
 * extent's offset (as iPhones write it); libheif 1.15 (with which GIMP, ImageMagick and libvips
 * write HEIC) writes a base offset and extents at 0, which exifr ignores (it then reads no EXIF
 * at all). Reading bytes
 * an upload sent: every length is checked against the buffer, nothing here throws, and anything
 * unexpected is null.
 */

interface Box {
  type: string;
  /** Where its content starts (after the header) and ends. */
  start: number;
  end: number;
}

/** The TIFF bytes of a HEIF still's EXIF item, or null (not HEIF, no EXIF item, malformed). */
export function heifExifTiff(bytes: Uint8Array): Uint8Array | null {
  try {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const top = boxes(view, 0, view.byteLength);
    if (top[0]?.type !== "ftyp") return null;
    const meta = top.find((box) => box.type === "meta");
    if (!meta) return null;
    // `meta` is a full box: version and flags first.
    const children = boxes(view, meta.start + 4, meta.end);
    const iinf = children.find((box) => box.type === "iinf");
    const iloc = children.find((box) => box.type === "iloc");
    if (!iinf || !iloc) return null;
    const itemId = exifItemId(view, iinf);
    if (itemId === undefined) return null;
    const idat = children.find((box) => box.type === "idat");
    const item = itemBytes(view, iloc, itemId, idat);
    if (!item || item.byteLength < 4) return null;
    const headerOffset = new DataView(item.buffer, item.byteOffset, item.byteLength).getUint32(0);
    if (4 + headerOffset >= item.byteLength) return null;
    return item.subarray(4 + headerOffset);
  } catch {
    // A read past the end of a lying box: no EXIF.
    return null;
  }
}

/** The boxes between `start` and `end`. */
function boxes(view: DataView, start: number, end: number): Box[] {
  const found: Box[] = [];
  for (let at = start; at + 8 <= end;) {
    let size = view.getUint32(at);
    const type = String.fromCharCode(view.getUint8(at + 4), view.getUint8(at + 5), view.getUint8(at + 6), view.getUint8(at + 7));
    let header = 8;
    if (size === 1) {
      size = Number(view.getBigUint64(at + 8));
      header = 16;
    } else if (size === 0) {
      size = end - at;
    }
    if (size < header || at + size > end) break;
    found.push({ type, start: at + header, end: at + size });
    at += size;
  }
  return found;
}

/** The id of the item of type `Exif` in `iinf` (item info entries of version 2 or 3 name a type). */
function exifItemId(view: DataView, iinf: Box): number | undefined {
  const version = view.getUint8(iinf.start);
  const entriesAt = iinf.start + 4 + (version === 0 ? 2 : 4);
  for (const infe of boxes(view, entriesAt, iinf.end)) {
    if (infe.type !== "infe") continue;
    const infeVersion = view.getUint8(infe.start);
    if (infeVersion < 2) continue;
    const idSize = infeVersion === 2 ? 2 : 4;
    const id = idSize === 2 ? view.getUint16(infe.start + 4) : view.getUint32(infe.start + 4);
    const typeAt = infe.start + 4 + idSize + 2;
    const type = String.fromCharCode(
      view.getUint8(typeAt),
      view.getUint8(typeAt + 1),
      view.getUint8(typeAt + 2),
      view.getUint8(typeAt + 3),
    );
    if (type === "Exif") return id;
  }
  return undefined;
}

/** Reads an unsigned integer of 0, 4 or 8 bytes (`iloc`'s field sizes). */
function uint(view: DataView, at: number, size: number): number {
  if (size === 0) return 0;
  if (size === 4) return view.getUint32(at);
  if (size === 8) return Number(view.getBigUint64(at));
  throw new RangeError(`iloc field of ${size} bytes`);
}

/** Cap on an EXIF item's size: a phone's is a few kilobytes (with a thumbnail, tens). */
const maxExifBytes = 1 << 20;

/** An item's bytes as `iloc` places them: its extents, each at base offset + extent offset, joined. */
function itemBytes(view: DataView, iloc: Box, itemId: number, idat: Box | undefined): Uint8Array | null {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  const version = view.getUint8(iloc.start);
  if (version > 2) return null;
  let at = iloc.start + 4;
  const sizes = view.getUint8(at);
  const moreSizes = view.getUint8(at + 1);
  at += 2;
  const offsetSize = sizes >> 4;
  const lengthSize = sizes & 15;
  const baseOffsetSize = moreSizes >> 4;
  const indexSize = version === 1 || version === 2 ? moreSizes & 15 : 0;
  const itemCount = version < 2 ? view.getUint16(at) : view.getUint32(at);
  at += version < 2 ? 2 : 4;
  for (let item = 0; item < itemCount && at < iloc.end; item += 1) {
    const id = version < 2 ? view.getUint16(at) : view.getUint32(at);
    at += version < 2 ? 2 : 4;
    let constructionMethod = 0;
    if (version === 1 || version === 2) {
      constructionMethod = view.getUint16(at) & 15;
      at += 2;
    }
    at += 2; // data_reference_index: 0, this file
    const baseOffset = uint(view, at, baseOffsetSize);
    at += baseOffsetSize;
    const extentCount = view.getUint16(at);
    at += 2;
    const extents: [number, number][] = [];
    for (let extent = 0; extent < extentCount; extent += 1) {
      at += indexSize;
      const offset = uint(view, at, offsetSize);
      at += offsetSize;
      const length = uint(view, at, lengthSize);
      at += lengthSize;
      extents.push([offset, length]);
    }
    if (id !== itemId) continue;
    // 0: offsets in the file; 1: in the `idat` box of `meta`. Others (another item's bytes) are not EXIF's.
    if (constructionMethod > 1 || (constructionMethod === 1 && !idat)) return null;
    const origin = constructionMethod === 1 ? idat!.start : 0;
    const limit = constructionMethod === 1 ? idat!.end : bytes.byteLength;
    const parts: Uint8Array[] = [];
    let total = 0;
    for (const [offset, length] of extents) {
      const from = origin + baseOffset + offset;
      // A length of 0 is "to the end" of the data.
      const to = length === 0 ? limit : from + length;
      if (from < origin || to > limit || to <= from) return null;
      total += to - from;
      if (total > maxExifBytes) return null;
      parts.push(bytes.subarray(from, to));
    }
    if (parts.length === 1) return parts[0]!;
    const joined = new Uint8Array(total);
    let written = 0;
    for (const part of parts) {
      joined.set(part, written);
      written += part.byteLength;
    }
    return joined;
  }
  return null;
}
