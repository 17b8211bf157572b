import { createHash, randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import sharp from "sharp";
import { ZipWriter } from "../src/lib/zip-writer";

/**
 * Day One JSON exports built the way Day One documents them: one `<Journal>.json` per journal at
 * the ZIP's top level, `{ metadata, entries }`, and a `photos/` folder of `<md5>.<type>` files that
 * entries name by md5 and place in their text as `![](dayone-moment://<identifier>)`.
 */

export interface DayOneTestPhoto {
  identifier: string;
  md5: string;
  type: string;
  width?: number;
  height?: number;
  date?: string;
  orderInEntry?: number;
  /** The file's bytes; left out of the ZIP when `missing`. */
  bytes: Buffer;
  missing?: boolean;
  /** The file's name in `photos/` when not `<md5>.<type>`. */
  fileName?: string;
}

export interface DayOneTestEntry {
  uuid?: string;
  creationDate: string;
  modifiedDate?: string;
  timeZone?: string;
  text?: string;
  tags?: string[];
  starred?: boolean;
  photos?: DayOneTestPhoto[];
  /** Its videos, written to `videos/` (Day One's `type` is mov or mp4). */
  videos?: DayOneTestPhoto[];
  /** Day One's `location` as written; null leaves it out (default: Lisbon, as the phone found it). */
  location?: Record<string, unknown> | null;
}

/** A Day One id: 32 upper-case hex digits. */
export function dayOneId(): string {
  return randomBytes(16).toString("hex").toUpperCase();
}

/** A small real JPEG of one colour. */
export function tinyJpeg(background = "#c33"): Promise<Buffer> {
  return sharp({ create: { width: 8, height: 6, channels: 3, background } })
    .jpeg()
    .toBuffer();
}

/** A photo as an entry lists it; `fields` override what Day One would write. */
export function dayOnePhoto(bytes: Buffer, fields: Partial<DayOneTestPhoto> = {}): DayOneTestPhoto {
  return {
    identifier: dayOneId(),
    md5: createHash("md5").update(bytes).digest("hex"),
    type: "jpeg",
    width: 8,
    height: 6,
    bytes,
    ...fields,
  };
}

/** The line Day One writes in an entry's text where a photo is shown. */
export function momentLine(photo: DayOneTestPhoto): string {
  return `![](dayone-moment://${photo.identifier})`;
}

/** Writes a ZIP of exactly these files, in this order: for exports Day One would never write. */
export async function writeZip(file: string, files: [name: string, content: Buffer | string][]): Promise<void> {
  const zip = new ZipWriter(createWriteStream(file));
  const mtime = new Date(2024, 2, 1, 12, 0, 0);
  for (const [name, content] of files)
    await zip.add(name, Buffer.from(content), { mtime, compress: !name.startsWith("photos/") });
  await zip.finish();
}

/** Writes a Day One export of these journals (by file name, such as `Journal.json`) with the photos their entries list. */
export async function writeDayOneExport(file: string, journals: Record<string, DayOneTestEntry[]>): Promise<void> {
  const files: [string, Buffer | string][] = [];
  const photoFiles = new Map<string, Buffer>();
  for (const [name, entries] of Object.entries(journals)) {
    files.push([name, JSON.stringify({ metadata: { version: "1.0" }, entries: entries.map(entryJson) }, null, 2)]);
    for (const photo of entries.flatMap((entry) => entry.photos ?? []))
      if (!photo.missing) photoFiles.set(`photos/${photo.fileName ?? `${photo.md5}.${photo.type}`}`, photo.bytes);
    for (const video of entries.flatMap((entry) => entry.videos ?? []))
      if (!video.missing) photoFiles.set(`videos/${video.fileName ?? `${video.md5}.${video.type}`}`, video.bytes);
  }
  await writeZip(file, [...files, ...photoFiles]);
}

/** An entry as Day One writes it, with some of the fields a reader ignores. */
function entryJson(entry: DayOneTestEntry) {
  return {
    uuid: entry.uuid ?? dayOneId(),
    creationDate: entry.creationDate,
    ...(entry.modifiedDate && { modifiedDate: entry.modifiedDate }),
    ...(entry.timeZone && { timeZone: entry.timeZone }),
    text: entry.text,
    ...(entry.tags && { tags: entry.tags }),
    starred: entry.starred ?? false,
    isPinned: false,
    duration: 0,
    editingTime: 12.5,
    creationDevice: "iPhone",
    creationDeviceType: "iPhone",
    ...(entry.location !== null && {
      location: entry.location ?? { latitude: 38.7223, longitude: -9.1393, placeName: "Lisbon", country: "Portugal" },
    }),
    richText: JSON.stringify({ contents: [{ text: entry.text ?? "" }], meta: { version: 1 } }),
    ...(entry.videos && {
      videos: entry.videos.map(({ identifier, md5, type, width, height, date, orderInEntry }) => ({
        identifier,
        md5,
        type,
        ...(width !== undefined && { width }),
        ...(height !== undefined && { height }),
        ...(date && { date }),
        ...(orderInEntry !== undefined && { orderInEntry }),
        duration: 1,
        creationDevice: "iPhone",
        fileSize: 0,
      })),
    }),
    ...(entry.photos && {
      photos: entry.photos.map(({ identifier, md5, type, width, height, date, orderInEntry }) => ({
        identifier,
        md5,
        type,
        ...(width !== undefined && { width }),
        ...(height !== undefined && { height }),
        ...(date && { date }),
        ...(orderInEntry !== undefined && { orderInEntry }),
        creationDevice: "iPhone",
        isSketch: false,
        fileSize: 0,
      })),
    }),
  };
}
