import { createHash } from "node:crypto";
import { MemoryLimits, normalizeTags, PlaceLimits } from "@memory-box/contract";
import { z } from "zod";
import { ZipReader } from "../../lib/zip-reader";
import {
  type ArchiveManifest,
  type ArchiveMemory,
  type ArchivePhoto,
  type ArchivePlace,
  photoFile,
  unknownAuthor,
} from "./archive-format";
import { type ArchiveLimits, ArchiveRefusedError, type ArchiveSource, describeIssue, refusedZip } from "./archive-source";
import { parseJsonStream, TokenType } from "./json-stream";

/**
 * Reads a Day One JSON export (issue #15): a ZIP holding one JSON file per journal at its top level,
 * a `photos/` folder of `<md5>.<type>` files and a `videos/` folder of the same kind (issue #31).
 * Every entry of every journal becomes a memory whose title is the entry's first line; each photo
 * and video keeps its original bytes, which `open` reads from the ZIP under the name the manifest
 * gives it.
 */
export async function openDayOneArchive(file: string, limits: ArchiveLimits): Promise<ArchiveSource> {
  let zip: ZipReader;
  try {
    zip = await ZipReader.open(file, { maxEntries: limits.maxEntries });
  } catch (error) {
    throw refusedZip(error, "This file cannot be imported");
  }
  try {
    const journals = await readJournals(zip, limits);
    const { manifest, photoEntries } = toManifest(journals, zip, limits);
    return {
      manifest,
      sizeOf: (name) => {
        const entry = photoEntries.get(name);
        return entry === undefined ? undefined : zip.entry(entry)?.size;
      },
      open: async (name) => {
        const entry = photoEntries.get(name);
        if (entry === undefined) throw new ArchiveRefusedError({ id: "errorText.archive.noFile", values: { name } });
        return zip.open(entry);
      },
      close: async () => zip.close(),
    };
  } catch (error) {
    zip.close();
    throw refusedZip(error, "This file cannot be imported");
  }
}

const hex32 = /^[0-9a-f]{32}$/i;
const isoInstant = z.string().refine((value) => !Number.isNaN(Date.parse(value)), { message: "is not a date" });

const DayOnePhoto = z.object({
  identifier: z.string().regex(hex32),
  md5: z.string().regex(hex32),
  type: z.string(),
  width: z.number().nullish(),
  height: z.number().nullish(),
  date: z.string().nullish(),
  orderInEntry: z.number().nullish(),
});

/** A video as an entry lists it (in `videos/`): the same fields as a photo's become part of a memory. */
const DayOneVideo = DayOnePhoto;

// Only what becomes part of a memory; Day One's other fields (weather, richText…) are left out.
const DayOneEntry = z.object({
  /** Read leniently (dayOnePlace): an entry whose location is odd still comes, without a place. */
  location: z.unknown().optional(),
  uuid: z.string().regex(hex32),
  creationDate: isoInstant,
  modifiedDate: isoInstant.nullish(),
  timeZone: z.string().nullish(),
  text: z.string().nullish(),
  tags: z.array(z.string()).nullish(),
  photos: z.array(DayOnePhoto).nullish(),
  videos: z.array(DayOneVideo).nullish(),
});

const DayOneJournal = z.object({ entries: z.array(DayOneEntry) });

type DayOnePhoto = z.infer<typeof DayOnePhoto>;
type DayOneEntry = z.infer<typeof DayOneEntry>;

interface Journal {
  name: string;
  bytes: number;
  entries: DayOneEntry[];
}

const contentTypes: Record<string, string> = {
  jpeg: "image/jpeg",
  jpg: "image/jpeg",
  png: "image/png",
  heic: "image/heic",
  heif: "image/heif",
  gif: "image/gif",
  tiff: "image/tiff",
  tif: "image/tiff",
  webp: "image/webp",
  avif: "image/avif",
};

const videoContentTypes: Record<string, string> = {
  mov: "video/quicktime",
  qt: "video/quicktime",
  mp4: "video/mp4",
  m4v: "video/mp4",
  webm: "video/webm",
  mkv: "video/x-matroska",
};

const untitled = "Untitled entry";

const DayOneLocation = z.object({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  localityName: z.string().nullish(),
  placeName: z.string().nullish(),
  administrativeArea: z.string().nullish(),
  country: z.string().nullish(),
});

/**
 * An entry's location as a memory's place: named by its town ("Sintra"), else by Day One's place
 * name, region or country, else by its coordinates; none without usable coordinates. Its country
 * is found from the point on import, as for any place.
 */
function placeOf(location: unknown): { place?: ArchivePlace } {
  const parsed = DayOneLocation.safeParse(location);
  if (!parsed.success) return {};
  const { latitude, longitude, localityName, placeName, administrativeArea, country } = parsed.data;
  const named = [localityName, placeName, administrativeArea, country].map((name) => name?.trim()).find(Boolean);
  const name = [...(named ?? `${latitude.toFixed(4)}, ${longitude.toFixed(4)}`)].slice(0, PlaceLimits.nameMaxLength).join("");
  return { place: { name, latitude, longitude, country_code: null } };
}

async function readJournals(zip: ZipReader, limits: ArchiveLimits): Promise<Journal[]> {
  const files = zip
    .entries()
    .filter((entry) => !entry.name.includes("/") && entry.name.toLowerCase().endsWith(".json"))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (files.length === 0) throw new ArchiveRefusedError({ id: "errorText.archive.notDayOne" });
  // All journals are held in memory together, so their sum is what the manifest limit bounds.
  let totalBytes = 0;
  const journals: Journal[] = [];
  for (const file of files) {
    totalBytes += file.size;
    if (file.size > limits.maxManifestBytes)
      throw new ArchiveRefusedError({
        id: "errorText.archive.journalTooLarge",
        values: { name: file.name, size: formatSize(file.size), max: formatSize(limits.maxManifestBytes) },
      });
    if (totalBytes > limits.maxManifestBytes)
      throw new ArchiveRefusedError({
        id: "errorText.archive.journalsTooLarge",
        values: { max: formatSize(limits.maxManifestBytes) },
      });
    // Parsed as it streams, an entry at a time (parseJsonStream): no journal is held as bytes,
    // text and tree at once, and the server answers meanwhile.
    let stream;
    try {
      stream = await zip.open(file.name);
    } catch (error) {
      throw refusedZip(error, "This file cannot be imported");
    }
    const entries: DayOneEntry[] = [];
    let issue: string | undefined;
    const { topLevelKinds } = await parseJsonStream(stream, {
      name: file.name,
      paths: ["$.entries.*"],
      onValue(value) {
        if (issue !== undefined) return;
        const parsed = DayOneEntry.safeParse(value);
        if (parsed.success) entries.push(parsed.data);
        else issue = describeIssue(`${file.name} is not a Day One journal`, parsed.error.issues[0]!, ["entries", entries.length]);
      },
    });
    if (issue !== undefined) throw new ArchiveRefusedError(issue);
    if (topLevelKinds.get("entries") !== TokenType.LEFT_BRACKET) {
      const parsed = DayOneJournal.safeParse({ entries: topLevelKinds.has("entries") ? null : undefined });
      throw new ArchiveRefusedError(describeIssue(`${file.name} is not a Day One journal`, parsed.error!.issues[0]!, []));
    }
    journals.push({ name: file.name, bytes: file.size, entries });
  }
  return journals;
}

function toManifest(
  journals: Journal[],
  zip: ZipReader,
  limits: ArchiveLimits,
): { manifest: ArchiveManifest; photoEntries: Map<string, string> } {
  const photoFilesByMd5 = new Map<string, string>();
  const videoFilesByMd5 = new Map<string, string>();
  for (const { name } of zip.entries()) {
    const [, folder, found] = /^(photos|videos)\/([0-9a-f]{32})\.[a-z0-9]+$/i.exec(name) ?? [];
    const byMd5 = folder === "photos" ? photoFilesByMd5 : folder === "videos" ? videoFilesByMd5 : undefined;
    const md5 = found?.toLowerCase();
    if (byMd5 !== undefined && md5 !== undefined && !byMd5.has(md5)) byMd5.set(md5, name);
  }
  const photoEntries = new Map<string, string>();
  const memoryIds = new Set<string>();
  const photoIds = new Set<string>();
  let totalBytes = journals.reduce((sum, journal) => sum + journal.bytes, 0);
  let newest: string | undefined;
  const memories: ArchiveMemory[] = [];

  for (const journal of journals) {
    for (const entry of journal.entries) {
      const id = derivedUuid(`dayone-entry:${entry.uuid}`);
      if (memoryIds.has(id))
        throw new ArchiveRefusedError({
          id: "errorText.archive.entryTwice",
          values: { journal: journal.name, entry: entry.uuid },
        });
      memoryIds.add(id);
      const { title, content } = titleAndContent(entry.text ?? "");
      const createdAt = new Date(entry.creationDate).toISOString();
      const updatedAt = entry.modifiedDate ? new Date(entry.modifiedDate).toISOString() : createdAt;
      if (newest === undefined || updatedAt > newest) newest = updatedAt;
      if (createdAt > newest) newest = createdAt;

      const photos: ArchivePhoto[] = [];
      const media = [
        ...(entry.photos ?? []).map((photo) => ({ ...photo, video: false })),
        ...(entry.videos ?? []).map((video) => ({ ...video, video: true })),
      ];
      for (const [position, photo] of inDisplayOrder(media).entries()) {
        const what = photo.video ? "Video" : "Photo";
        const photoId = derivedUuid(`dayone-${photo.video ? "video" : "photo"}:${photo.identifier}`);
        if (photoIds.has(photoId))
          throw new ArchiveRefusedError({
            id: `errorText.archive.entryRepeats${what}`,
            values: { title, journal: journal.name, photo: photo.identifier },
          });
        photoIds.add(photoId);
        const contentType = (photo.video ? videoContentTypes : contentTypes)[photo.type.toLowerCase()];
        if (contentType === undefined)
          throw new ArchiveRefusedError({
            id: `errorText.archive.entry${what}Type`,
            values: { title, journal: journal.name, type: photo.type },
          });
        const md5 = photo.md5.toLowerCase();
        const entryName = (photo.video ? videoFilesByMd5 : photoFilesByMd5).get(md5);
        if (entryName === undefined)
          throw new ArchiveRefusedError({
            id: `errorText.archive.entry${what}Missing`,
            values: { title, journal: journal.name, file: `${photo.video ? "videos" : "photos"}/${md5}.${photo.type}` },
          });
        const bytes = zip.entry(entryName)!.size;
        const limit = photo.video ? limits.maxVideoBytes : limits.maxPhotoBytes;
        if (bytes > limit)
          throw new ArchiveRefusedError({
            id: `errorText.archive.entry${what}TooLarge`,
            values: {
              title,
              journal: journal.name,
              file: entryName,
              size: formatSize(bytes),
              max: formatSize(limit),
            },
          });
        // A photo in several entries is one file in the ZIP, but the importer reads it for each.
        totalBytes += bytes;
        if (totalBytes > limits.maxTotalBytes)
          throw new ArchiveRefusedError({
            id: "errorText.archive.exportTooLarge",
            values: { size: formatSize(limits.maxTotalBytes) },
          });
        const name = photoFile(id, photoId, contentType);
        photoEntries.set(name, entryName);
        photos.push({
          id: photoId,
          position,
          taken_at: photo.date && !Number.isNaN(Date.parse(photo.date)) ? new Date(photo.date).toISOString() : null,
          width: pixels(photo.width),
          height: pixels(photo.height),
          content_type: contentType,
          bytes,
          file: name,
          // Its length, poster and size are found again when the import checks it.
          ...(photo.video ? { kind: "video" as const } : {}),
        });
      }

      memories.push({
        id,
        title,
        content,
        memory_date: calendarDay(createdAt, entry.timeZone),
        tags: normalizeTags(entry.tags ?? []) ?? [],
        user_id: null,
        display_name: unknownAuthor,
        created_at: createdAt,
        updated_at: updatedAt,
        photos,
        ...placeOf(entry.location),
      });
    }
  }

  const manifest: ArchiveManifest = {
    format: "memory-box",
    version: 1,
    exported_at: newest ?? new Date().toISOString(),
    members: [],
    memories,
  };
  return { manifest, photoEntries };
}

/**
 * A UUID that is the same for the same Day One id on every import, so importing an export twice
 * finds the memories it made the first time: SHA-1 of the name, marked version 5 and RFC variant.
 */
function derivedUuid(name: string): string {
  const hash = createHash("sha1").update(name).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Photos and videos as Day One shows them: by `orderInEntry`, those without one after, otherwise as listed (photos first). */
function inDisplayOrder<T extends DayOnePhoto>(photos: T[]): T[] {
  return photos
    .map((photo, index) => ({ photo, index, order: photo.orderInEntry ?? Number.POSITIVE_INFINITY }))
    .sort((a, b) => (a.order === b.order ? a.index - b.index : a.order < b.order ? -1 : 1))
    .map(({ photo }) => photo);
}

const momentImage = /!\[[^\]]*\]\(dayone-moment:[^)]*\)/g;
// CommonMark's escapable characters: all of ASCII punctuation.
const markdownEscape = /\\([!-/:-@[-`{-~])/g;

/** The entry's first line is its title; the rest, without Day One's photo placeholders and escapes, its content. */
function titleAndContent(text: string): { title: string; content: string | null } {
  const lines: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const withoutImages = line.replace(momentImage, "");
    // A line that held only photos goes; a blank line the member typed stays.
    if (withoutImages.trim() === "" && line.trim() !== "") continue;
    lines.push(withoutImages.trimEnd());
  }
  // Heading markers are taken off before unescaping, so an escaped `\#` stays in the title.
  const headings = lines.map((line) => unescapeMarkdown(line.replace(/^[#\s]+/, "")));
  const first = headings.findIndex((heading) => heading !== "");
  if (first === -1) return { title: untitled, content: null };
  const heading = headings[first]!;
  const title = cut(heading, MemoryLimits.titleMaxLength);
  // A first line longer than a title stays whole in the content, so no words are lost.
  const rest = [...(title === heading ? [] : [heading]), ...lines.slice(first + 1).map(unescapeMarkdown)]
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { title, content: rest === "" ? null : rest };
}

function unescapeMarkdown(line: string): string {
  return line.replace(markdownEscape, "$1");
}

/** At most `max` UTF-16 units (the length the memory form counts), never half a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 1]!) ? max - 1 : max;
  return text.slice(0, end).trimEnd();
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The day it was where the entry was written; UTC when the time zone is missing or unknown. */
function calendarDay(instant: string, timeZone: string | null | undefined): string {
  const format = dayFormat(timeZone ?? "UTC");
  const parts = Object.fromEntries(format.formatToParts(new Date(instant)).map((part) => [part.type, part.value]));
  return `${String(parts.year).padStart(4, "0")}-${parts.month}-${parts.day}`;
}

function dayFormat(timeZone: string): Intl.DateTimeFormat {
  let format = dayFormats.get(timeZone);
  if (format === undefined) {
    const options: Intl.DateTimeFormatOptions = { year: "numeric", month: "2-digit", day: "2-digit", calendar: "gregory" };
    try {
      format = new Intl.DateTimeFormat("en-US", { ...options, timeZone });
    } catch {
      // An unknown zone is remembered as UTC, so an export full of it is not tried entry by entry.
      format = new Intl.DateTimeFormat("en-US", { ...options, timeZone: "UTC" });
    }
    dayFormats.set(timeZone, format);
  }
  return format;
}

/** Day One's pixel size, or 1 when it has none: the importer measures the photo again. */
function pixels(value: number | null | undefined): number {
  return value !== null && value !== undefined && Number.isFinite(value) && value >= 1 ? Math.round(value) : 1;
}

function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}
