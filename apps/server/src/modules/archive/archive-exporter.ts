import { once } from "node:events";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Writable } from "node:stream";
import pLimit from "p-limit";
import { BufferPool } from "../../lib/buffer-pool";
import { ownedTempName } from "../../lib/temp-files";
import { ZipWriter } from "../../lib/zip-writer";
import { photoBucket } from "../photos";
import type { BlobContent, BlobStore } from "../storage";
import { inReactionOrder } from "@memory-box/contract";
import {
  type ArchiveBox,
  type ArchiveMemory,
  type ArchivePlace,
  type ArchivePhoto,
  archiveVersion,
  archiveVersionWithoutBox,
  archiveVersionWithoutCovers,
  archiveVersionWithoutPlaces,
  archiveVersionWithoutVideos,
  memoryPage,
  motionFile,
  photoFile,
  posterFile,
  unknownAuthor,
} from "./archive-format";
import {
  needsView,
  renderIndexPage,
  renderMemoryPage,
  renderYearPage,
  renderYearPrintPage,
  thumbnailFile,
  viewFile,
  yearEntry,
  yearPrintPage,
  yearOf,
  yearPage,
  type YearEntry,
  type YearSummary,
} from "./archive-pages";
import { defaultLocale } from "@memory-box/messages";
import { serverMessages, type ServerMessages } from "@memory-box/messages/server";
import { type MemoriesRepository, type MemoryRecord, placeOf } from "../memories";
import type { PhotoRow } from "../../db/schema";
import type { ArchiveRepository } from "./archive.repository";

/** Photos are copied whole: large reads keep the export near the disk's pace (ADR 0027). */
const photoReadBytes = 1024 * 1024;
/** Photos opened while an earlier one is written: only opened (a descriptor each), read when their turn comes. */
const photosOpenedAhead = 4;

export interface ExportSummary {
  memories: number;
  /** Stills and Live Photos. */
  photos: number;
  videos: number;
  /** What their originals (and Live Photos' clips) take. */
  photoBytes: number;
}

/**
 * Writes an instance's archive (issue #15, docs/formats): one ZIP with `memory-box.json`, every
 * photo's original under `photos/`, and browsable pages. It streams: memories are read a page at a
 * time, in the list's order, and each entry is written before the next is read (with the output's
 * backpressure), so memory stays bounded whatever the collection's size: the JSON grows in a
 * temporary file and goes into the ZIP last; a year's page is written when its last memory is
 * (issue #35: by year and month, newest first), and `index.html`, the years, at the end.
 */
export class ArchiveExporter {
  constructor(
    private readonly deps: {
      archive: ArchiveRepository;
      memories: Pick<MemoriesRepository, "pageInListOrder">;
      blobStore: BlobStore;
      /** Where the JSON is assembled (removed afterwards, and after a crash). */
      tempDir: string;
      /**
       * Read the photos with blocking calls (local storage): for a process with nothing else to
       * serve, the operator's export command; never the server's download (ADR 0083).
       */
      blockingReads?: boolean;
      pageSize?: number;
      now?: () => Date;
    },
  ) {}

  /** One export at a time per server: a second download waits its turn rather than doubling the disk and network load. */
  private readonly turns = pLimit(1);

  /**
   * `outputIsFinal`: the output is a file, a socket or an HTTP response, done with each chunk when
   * it calls back for it; the photos' read buffers are then reused (BufferPool), not one
   * allocated per read. Leave it off for anything that hands chunks on to a reader (a transform).
   */
  write(output: Writable, options: { outputIsFinal?: boolean; locale?: string } = {}): Promise<ExportSummary> {
    const words = serverMessages(options.locale ?? defaultLocale);
    return this.turns(() => this.writeNow(output, options.outputIsFinal ?? false, words));
  }

  private async writeNow(output: Writable, outputIsFinal: boolean, words: ServerMessages): Promise<ExportSummary> {
    const exportedAt = (this.deps.now?.() ?? new Date()).toISOString();
    const mtime = new Date(exportedAt);
    const pool = outputIsFinal ? new BufferPool(photoReadBytes) : undefined;
    const zip = new ZipWriter(output, pool ? { releaseChunk: (chunk) => pool.release(chunk) } : {});

    await fsp.mkdir(this.deps.tempDir, { recursive: true });
    const jsonPath = path.join(this.deps.tempDir, ownedTempName(".json"));
    const json = fs.createWriteStream(jsonPath);
    const summary: ExportSummary = { memories: 0, photos: 0, videos: 0, photoBytes: 0 };
    // The next photos are asked of storage while the current one is written: on S3 each answer
    // takes a round trip, and on a disk each open takes a few calls in libuv's pool, paid one
    // after the other otherwise.
    const openedAhead: Promise<BlobContent>[] = [];
    try {
      const members = (await this.deps.archive.members()).map((member) => ({
        id: member.id,
        email: member.email,
        display_name: member.display_name ?? member.email.split("@")[0] ?? member.email,
      }));
      // The header goes in last, when the archive's version is known (ArchiveManifest).
      let version = archiveVersionWithoutVideos;
      // The box's own settings (version 6); its name is also the title of each year's printed book
      // (none: the catalogue's "Our memories").
      const box = archiveBoxOf(await this.deps.archive.box());
      if (box !== undefined) version = archiveVersion;
      const bookTitle = box?.name;

      // The year being listed, its memories so far, and every year's count for the index.
      const years: YearSummary[] = [];
      let yearEntries: YearEntry[] = [];
      const closeYear = async () => {
        const year = years.at(-1);
        if (year === undefined) return;
        await zip.add(yearPage(year.year), Buffer.from(renderYearPage(year.year, yearEntries, words)), { mtime, compress: true });
        if (year.year !== null)
          await zip.add(yearPrintPage(year.year), Buffer.from(renderYearPrintPage(year.year, yearEntries, words, bookTitle)), {
            mtime,
            compress: true,
          });
        yearEntries = [];
      };

      let after: string | null = null;
      for (;;) {
        const rows: MemoryRecord[] = await this.deps.memories.pageInListOrder(after, this.deps.pageSize ?? 200);
        if (rows.length === 0) break;
        const discussion = await this.discussionOf(
          rows.map((row) => row.id),
          new Map(members.map((member) => [member.id, member.display_name])),
        );
        // Each memory's files in its page's order: a photo's or video's original, a video's
        // poster, a Live Photo's motion.
        const memoriesOfPage = rows.map((row) => toArchiveMemory(row, discussion.get(row.id)));
        const filesOfPage = rows.map((row, r) => filesOf(row, memoriesOfPage[r]!));
        const photoKeys = filesOfPage.flatMap((files) => files.map(({ key }) => `${photoBucket}/${key}`));
        let photoIndex = 0;
        const openPhoto = () => {
          const key = photoKeys[photoIndex++];
          if (key === undefined) return undefined;
          const opened = this.deps.blobStore.get(key, {
            readChunkBytes: photoReadBytes,
            withoutContentType: true,
            ...(this.deps.blockingReads && { blocking: true }),
            ...(pool && { bufferPool: pool }),
          });
          // Its failure is reported where it is awaited; until then it must not count as unhandled.
          opened.catch(() => undefined);
          return opened;
        };
        const openAhead = () => {
          while (openedAhead.length < photosOpenedAhead) {
            const opened = openPhoto();
            if (opened === undefined) return;
            openedAhead.push(opened);
          }
        };
        openAhead();
        // The page's memories go to the JSON in one write (the file gets a million otherwise).
        const jsonOfPage = memoriesOfPage.map((memory) => JSON.stringify(memory)).join(",");
        await append(json, (summary.memories > 0 ? "," : "") + jsonOfPage);
        for (const [r, row] of rows.entries()) {
          const memory = memoriesOfPage[r]!;
          version = Math.max(version, versionFor(memory));
          const year = yearOf(memory);
          if (years.at(-1)?.year !== year || years.length === 0) {
            await closeYear();
            years.push({ year, count: 0 });
          }
          years.at(-1)!.count += 1;
          summary.memories += 1;
          const videos = memory.photos.filter((photo) => photo.kind === "video").length;
          summary.videos += videos;
          summary.photos += memory.photos.length - videos;
          // The pages' copies are a nicety: one lost from storage is left out, and the page shows
          // the original instead; an original lost fails the export, which must hold every one.
          const missing = new Set<string>();
          for (const file of filesOfPage[r]!) {
            let content: BlobContent;
            try {
              content = await openedAhead.shift()!;
            } catch (error) {
              if (!file.forPages) throw error;
              missing.add(file.name);
              continue;
            } finally {
              openAhead();
            }
            // Photos and videos are already compressed: stored as they are.
            await zip.add(file.name, content.body, { mtime, compress: false });
            summary.photoBytes += file.bytes;
          }
          const written = (name: string) => !missing.has(name);
          await zip.add(memoryPage(memory.id), Buffer.from(renderMemoryPage(memory, words, written)), { mtime, compress: true });
          yearEntries.push(
            yearEntry(
              memory,
              [leadingThumbnail(row, memory)?.name].find((name) => name && written(name)),
              written,
            ),
          );
        }
        after = rows.at(-1)!.sort_key;
      }

      await append(json, "]}");
      await closeYear();
      await finish(json);
      const boxEntry = box === undefined ? "" : `"box":${JSON.stringify(box)},`;
      const header = `{"format":"memory-box","version":${version},"exported_at":${JSON.stringify(exportedAt)},${boxEntry}"members":${JSON.stringify(members)},"memories":[`;
      await zip.add("memory-box.json", manifestOf(header, jsonPath), { mtime, compress: true });
      const index = renderIndexPage(exportedAt, summary.memories, years, words, box?.name);
      await zip.add("index.html", Buffer.from(index), { mtime, compress: true });
      await zip.finish();
      return summary;
    } catch (error) {
      // Whatever failed, the output is left unfinished: never a ZIP that looks whole.
      for (const opened of openedAhead)
        void opened.then(
          (content) => content.body.destroy(),
          () => undefined,
        );
      throw error;
    } finally {
      json.destroy();
      await fsp.rm(jsonPath, { force: true });
    }
  }

  /** The comments and reactions of a page of memories, by memory, in two queries. */
  private async discussionOf(memoryIds: string[], nameOf: Map<string, string>): Promise<Map<string, Discussion>> {
    const [comments, reactions] = await Promise.all([
      this.deps.archive.commentsOf(memoryIds),
      this.deps.archive.reactionsOf(memoryIds),
    ]);
    const byMemory = new Map<string, Required<Discussion>>(memoryIds.map((id) => [id, { comments: [], reactions: [] }]));
    for (const comment of comments) {
      byMemory.get(comment.memory_id)?.comments.push({
        id: comment.id,
        user_id: comment.user_id,
        display_name: (comment.user_id && nameOf.get(comment.user_id)) || unknownAuthor,
        body: comment.body,
        created_at: comment.created_at,
        updated_at: comment.updated_at,
      });
    }
    const stored = new Map<string, typeof reactions>();
    for (const reaction of reactions) {
      const list = stored.get(reaction.memory_id) ?? [];
      list.push(reaction);
      stored.set(reaction.memory_id, list);
    }
    for (const [memoryId, held] of byMemory) {
      // Only the bar's emoji, in its order (anything else in the table was put there by hand).
      held.reactions = inReactionOrder(stored.get(memoryId) ?? []).map(({ emoji, user_id }) => ({ emoji, user_id }));
    }
    return byMemory;
  }
}

type Discussion = Pick<ArchiveMemory, "comments" | "reactions">;

/** `place`, only when the memory has one (an archive without places stays as version 3 or 2 wrote it). */
function placeEntry(row: MemoryRecord): { place?: ArchivePlace } {
  const place = placeOf(row);
  return place === null ? {} : { place };
}

/** The box's settings as the archive writes them: only those set, none at all without any (an archive as version 5 wrote it). */
function archiveBoxOf(
  settings: { name: string | null; cover_photo_id: string | null; together_since: string | null } | undefined,
): ArchiveBox | undefined {
  if (settings === undefined) return undefined;
  const { name, cover_photo_id, together_since } = settings;
  return {
    ...(name === null ? {} : { name }),
    ...(cover_photo_id === null ? {} : { cover_photo_id }),
    ...(together_since === null ? {} : { together_since }),
  };
}

/** The lowest version that holds what `memory` has (a reader of that version reads it all). */
function versionFor(memory: ArchiveMemory): number {
  if (memory.cover_photo_id !== undefined || memory.photos.some((photo) => photo.caption !== undefined))
    return archiveVersionWithoutBox;
  if (memory.place !== undefined) return archiveVersionWithoutCovers;
  if (memory.photos.some((photo) => photo.kind !== undefined)) return archiveVersionWithoutPlaces;
  return archiveVersionWithoutVideos;
}

function toArchiveMemory(row: MemoryRecord, discussion: Discussion = {}): ArchiveMemory {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    memory_date: row.memory_date,
    tags: row.tags,
    user_id: row.user_id,
    display_name: (row.user_id && row.display_name) || unknownAuthor,
    created_at: row.created_at,
    updated_at: row.updated_at,
    photos: row.photos.map((photo) => toArchivePhoto(row.id, photo)),
    ...placeEntry(row),
    ...(row.cover_photo_id === null ? {} : { cover_photo_id: row.cover_photo_id }),
    comments: discussion.comments ?? [],
    reactions: discussion.reactions ?? [],
  };
}

/**
 * A photo as the archive describes it. A still has the fields of version 2 and no others, so an
 * archive of photos only is what it was before videos; a video adds its kind, length and poster,
 * a Live Photo its kind, motion's length and clip.
 */
function toArchivePhoto(memoryId: string, photo: PhotoRow): ArchivePhoto {
  const described: ArchivePhoto = {
    id: photo.id,
    position: photo.position ?? 0,
    taken_at: photo.taken_at,
    width: photo.width,
    height: photo.height,
    content_type: photo.content_type,
    bytes: photo.bytes,
    file: photoFile(memoryId, photo.id, photo.content_type),
    ...(photo.caption === null ? {} : { caption: photo.caption }),
  };
  const duration = photo.duration_ms === null ? {} : { duration_ms: photo.duration_ms };
  if (photo.kind === "video") {
    const extension = photo.preview_key.slice(photo.preview_key.lastIndexOf(".") + 1);
    return { ...described, kind: "video", ...duration, poster: posterFile(memoryId, photo.id, extension) };
  }
  if (photo.kind === "live" && photo.motion_key !== null) {
    const contentType = motionContentType(photo.motion_key);
    return {
      ...described,
      kind: "live",
      ...duration,
      motion: { file: motionFile(memoryId, photo.id, contentType), content_type: contentType, bytes: photo.motion_bytes ?? 0 },
    };
  }
  return described;
}

/** A motion clip's type, from the extension it was stored under (MOV or MP4, as inspection named it). */
function motionContentType(key: string): string {
  const extension = key.slice(key.lastIndexOf(".") + 1);
  return extension === "mov"
    ? "video/quicktime"
    : extension === "webm"
      ? "video/webm"
      : extension === "mkv"
        ? "video/x-matroska"
        : "video/mp4";
}

/** The stored files an archived memory names, in its order: `original` for the file counted as the photo. */
function filesOf(row: MemoryRecord, memory: ArchiveMemory): ArchiveFile[] {
  const files = row.photos.flatMap((photo, p) => {
    const described = memory.photos[p]!;
    const files: ArchiveFile[] = [{ key: photo.object_key, name: described.file, bytes: photo.bytes }];
    if (described.poster !== undefined) files.push({ key: photo.preview_key, name: described.poster, bytes: 0 });
    if (described.motion !== undefined && photo.motion_key !== null)
      files.push({ key: photo.motion_key, name: described.motion.file, bytes: described.motion.bytes });
    // The pages show a HEIC still through its JPEG display copy, made at upload (issue #35).
    if (described.kind !== "video" && needsView(described.content_type) && photo.display_key !== null)
      files.push({ key: photo.display_key, name: viewFile(described.file), bytes: 0, forPages: true });
    return files;
  });
  const thumbnail = leadingThumbnail(row, memory);
  if (thumbnail !== undefined) files.push({ ...thumbnail, bytes: 0, forPages: true });
  return files;
}

/** A file of the archive: its key in storage, its name in the ZIP, and whether only the pages use it. */
interface ArchiveFile {
  key: string;
  name: string;
  bytes: number;
  forPages?: boolean;
}

/**
 * The small picture of a memory on its year's page: its cover's thumbnail (the first photo's
 * without a cover), written beside that photo; none without a photo ready to show.
 */
function leadingThumbnail(row: MemoryRecord, memory: ArchiveMemory): { key: string; name: string } | undefined {
  const index = Math.max(
    0,
    row.photos.findIndex((photo) => photo.id === row.cover_photo_id),
  );
  const photo = row.photos[index];
  if (photo === undefined || photo.status !== "ready") return undefined;
  const extension = photo.thumbnail_key.slice(photo.thumbnail_key.lastIndexOf(".") + 1);
  return { key: photo.thumbnail_key, name: thumbnailFile(memory.photos[index]!.file, extension) };
}

async function* manifestOf(header: string, memoriesPath: string): AsyncGenerator<Buffer | string> {
  yield header;
  yield* fs.createReadStream(memoriesPath) as AsyncIterable<Buffer>;
}

async function append(stream: fs.WriteStream, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, "drain");
}

async function finish(stream: fs.WriteStream): Promise<void> {
  stream.end();
  await once(stream, "finish");
}
