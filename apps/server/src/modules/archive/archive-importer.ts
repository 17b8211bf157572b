import { setImmediate } from "node:timers/promises";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import {
  BoxLimits,
  BoxSettingsChange,
  CommentInput,
  type GeoPoint,
  type ImportProgress as ImportProgressJson,
  ArchivedMemoryFields,
  PhotoCaptionInput,
  PhotoLimits,
  MemoryLimits,
  type MemoryEvent,
} from "@memory-box/contract";
import pLimit from "p-limit";
import type { Transaction } from "kysely";
import type { CommentRow, Database, PhotoRow } from "../../db/schema";
import { AppError } from "../../errors";
import { ownedTempName } from "../../lib/temp-files";
import type { MemoriesRepository, StoredPlace } from "../memories";
import type { PhotosRepository, PhotosService } from "../photos";
import { isVideoFile, type VideosService } from "../videos";
import { latestTogetherSince } from "../box";
import {
  type ArchiveManifest,
  type ArchiveMemory,
  type ArchivePhoto,
  type BoxSettingsValues,
  nothingSet,
} from "./archive-format";
import { ArchiveRefusedError, type ArchiveLimits, type ArchiveSource, refusedZip } from "./archive-source";
import type { ArchiveRepository } from "./archive.repository";

/** Photos stored at once: enough that reading and writing files overlaps decoding, on a disk that syncs each file. */
const concurrentPhotos = 4;
/**
 * Memories saved a call, between two progress reports: each call first makes all its rows (their
 * search text) at once, a few milliseconds' work for a thousand, before the server's next turn.
 */
const savingBatch = 1_000;
/** Memories checked between two turns of the event loop: a few milliseconds' work. */
const memoriesPerTurn = 200;

/** Lets the server answer other requests every `memoriesPerTurn` memories of a loop over an archive's. */
async function turnEverySoOften(index: number): Promise<void> {
  if (index % memoriesPerTurn === memoriesPerTurn - 1) await setImmediate();
}

export interface ImportSummary {
  /** Memories brought in. */
  memories: number;
  /** Stills and Live Photos brought in. */
  photos: number;
  videos: number;
  /** Memories of the archive this instance already holds (by id): left as they are. */
  alreadyHere: number;
  /**
   * The archive's box settings (version 6): `set` here, `kept` out because this box has its own,
   * or `none` in the archive.
   */
  box: "set" | "kept" | "none";
}

/** The box's settings of an archive as this instance keeps them (each null when not set). */
type PlannedBox = BoxSettingsValues;

export type ImportProgress = NonNullable<ImportProgressJson>;

export interface ImportOptions {
  /** The member who imports: the photos' owner where the author is not a member here. */
  importedBy: string;
  /** Author of memories the archive gives none (a Day One journal is its writer's); otherwise they stay authorless, "Unknown User". */
  authorOfUnattributed?: string;
  onProgress?: (progress: ImportProgress) => void;
  /** Stops the import (an operator's Ctrl-C): what it stored is removed, nothing is saved; it fails with the signal's reason. */
  signal?: AbortSignal;
}

interface PlannedMemory {
  memory: ArchiveMemory;
  fields: { title: string; content: string | null; memory_date: string | null; tags: string[]; place: StoredPlace | null };
  userId: string | null;
  /** Its comments as rows here: authors matched by e-mail, none (no name shown) otherwise. */
  comments: CommentRow[];
  /** Its reactions by members found here; a reaction is its member's own and goes without them. */
  reactions: { memory_id: string; emoji: string; user_id: string; created_at: string }[];
}

/**
 * Brings an archive into this instance (issue #15, ADR 0028): all of it or nothing. Everything is
 * checked before anything is written; each new photo is decoded and stored as an upload is (its
 * renditions made again); then one transaction inserts every memory, tag and photo row. Memories
 * already here (by id) are left untouched, so importing the same archive twice changes nothing
 * the second time. Any failure removes the files already stored and writes no row.
 */
export class ArchiveImporter {
  /** One import at a time per server: two would race for the same ids. */
  private readonly turns = pLimit(1);

  constructor(
    private readonly deps: {
      archive: ArchiveRepository;
      memories: Pick<MemoriesRepository, "insertMany" | "transaction">;
      /**
       * The transaction the save runs in; the memories' own by default. The server on SQLite
       * gives the save a connection of its own, so that its requests go on meanwhile (ADR 0086).
       */
      saving?: <T>(work: (trx: Transaction<Database>) => Promise<T>) => Promise<T>;
      photos: Pick<PhotosRepository, "insertMany">;
      photoFiles: Pick<PhotosService, "storeFile" | "deleteFiles">;
      /** Videos and Live Photos' motion: checked and stored as uploads are, their web copies made by media jobs. */
      videoFiles: Pick<VideosService, "storeVideo" | "storeMotion" | "enqueueWebCopy" | "wakeJobs">;
      limits: ArchiveLimits;
      /** Where each photo waits while it is decoded; on the same disk as DATA_DIR. */
      tempDir: string;
      publish: (event: MemoryEvent) => void;
      /** The country a place's point lies in, as for a place saved through the API (ADR 0057). */
      countryAt: (point: GeoPoint) => Promise<string | null>;
      now?: () => Date;
    },
  ) {}

  /**
   * A memory's place as kept here: its country found again from its point, as for a place saved
   * here; where the lookup knows none, the archive's (a Memory Box found it from the same point).
   */
  private async placeOf(memory: ArchiveMemory): Promise<StoredPlace | null> {
    if (memory.place === undefined) return null;
    const { name, latitude, longitude, country_code } = memory.place;
    return { name, latitude, longitude, country_code: (await this.deps.countryAt({ latitude, longitude })) ?? country_code };
  }

  import(source: ArchiveSource, options: ImportOptions): Promise<ImportSummary> {
    return this.turns(() => this.importNow(source, options));
  }

  private async importNow(source: ArchiveSource, options: ImportOptions): Promise<ImportSummary> {
    const { memories } = source.manifest;
    const withVideos = memories.some((memory) => memory.photos.some((photo) => photo.kind === "video"));
    const progress = (step: Omit<ImportProgress, "with_videos">) => options.onProgress?.({ ...step, with_videos: withVideos });
    progress({ phase: "checking", done: 0, total: memories.length });
    const box = this.planBox(source.manifest);
    const planned = await this.plan(source, options);
    options.signal?.throwIfAborted();
    const photoTotal = planned.reduce((sum, { memory }) => sum + memory.photos.length, 0);

    // Every photo stored so far, whatever becomes of the import: removed again if it fails.
    const stored: PhotoRow[] = [];
    // Set inside the transaction's callback: typed wide, or the checker keeps "none" after it.
    let boxOutcome = "none" as ImportSummary["box"];
    try {
      progress({ phase: "photos", done: 0, total: photoTotal });
      await fsp.mkdir(this.deps.tempDir, { recursive: true });
      const work = planned.flatMap(({ memory, userId }) => memory.photos.map((photo) => ({ memory, photo, userId })));
      // A few photos at a time: one is read from the archive or written to storage (each file
      // synced to disk) while another is decoded; the decoding itself is held to the photos
      // service's own limit. In the archive's order, whichever finishes first. A pool of workers
      // rather than a promise per photo queued in p-limit: a lifetime's archive holds 300,000.
      const rows: PhotoRow[] = new Array<PhotoRow>(work.length);
      let next = 0;
      let failure: { error: unknown } | undefined;
      const worker = async () => {
        while (failure === undefined && next < work.length) {
          if (options.signal?.aborted) {
            failure = { error: options.signal.reason };
            break;
          }
          const index = next++;
          const { memory, photo, userId } = work[index]!;
          try {
            const files = await this.storePhoto(source, memory, photo, userId ?? options.importedBy);
            const row: PhotoRow = {
              ...files,
              id: photo.id,
              memory_id: memory.id,
              position: photo.position,
              taken_at: photo.taken_at ?? files.taken_at,
              caption: captionOf(memory, photo),
              created_at: memory.created_at,
            };
            stored.push(row);
            rows[index] = row;
            progress({ phase: "photos", done: stored.length, total: photoTotal });
          } catch (error) {
            failure ??= { error };
          }
        }
      };
      await Promise.all(Array.from({ length: concurrentPhotos }, worker));
      if (failure !== undefined) throw failure.error;

      progress({ phase: "saving", done: 0, total: planned.length });
      const saving = this.deps.saving ?? ((work) => this.deps.memories.transaction(work));
      const toSave = await inDateOrder(planned);
      await saving(async (trx) => {
        // Many rows a statement (MemoriesRepository.insertMany): a lifetime's archive holds a million.
        for (let start = 0; start < toSave.length; start += savingBatch) {
          // Stopped while saving: the transaction is rolled back.
          options.signal?.throwIfAborted();
          await this.deps.memories.insertMany(
            toSave.slice(start, start + savingBatch).map(({ memory, fields, userId }) => ({
              id: memory.id,
              userId,
              createdAt: memory.created_at,
              updatedAt: memory.updated_at,
              ...fields,
            })),
            trx,
          );
          progress({ phase: "saving", done: Math.min(start + savingBatch, planned.length), total: planned.length });
        }
        await this.deps.photos.insertMany(rows, trx);
        // A video's or Live Photo's copy that plays is made after the import, as after an upload.
        for (const row of rows) if (row.status === "processing") await this.deps.videoFiles.enqueueWebCopy(trx, row.id);
        // A cover names one of the memory's photos, so it is set once they are in (version 5).
        await this.deps.archive.setCovers(
          trx,
          planned.flatMap(({ memory }) =>
            memory.cover_photo_id === undefined ? [] : [{ memoryId: memory.id, photoId: memory.cover_photo_id }],
          ),
        );
        await this.deps.archive.insertDiscussion(
          trx,
          planned.flatMap((plan) => plan.comments),
          planned.flatMap((plan) => plan.reactions),
        );
        if (box !== undefined) boxOutcome = await this.setBox(trx, box, rows, options.importedBy);
        await this.deps.archive.refreshStatisticsAfterImport(trx, planned.length);
      });
    } catch (error) {
      await this.deps.photoFiles.deleteFiles(stored);
      throw error;
    }

    if (stored.some((row) => row.status === "processing")) this.deps.videoFiles.wakeJobs();
    const last = planned.at(-1);
    // One event is enough: every screen reloads its lists and tags on it (new memories have no open detail page).
    if (last) this.deps.publish({ type: "memory.created", id: last.memory.id, actor: options.importedBy });
    // As an owner's save of the box tells open screens (BoxService.change).
    if (boxOutcome === "set") this.deps.publish({ type: "box.updated", id: "box", actor: options.importedBy });
    progress({ phase: "done", done: planned.length, total: planned.length });
    const videos = stored.filter((row) => row.kind === "video").length;
    return {
      memories: planned.length,
      photos: stored.length - videos,
      videos,
      alreadyHere: memories.length - planned.length,
      box: boxOutcome,
    };
  }

  /**
   * The archive's box settings against the box's own rules (ADR 0065, BoxSettingsChange and the
   * service's "not after today"), each refusing the archive; its cover one of the archive's photos,
   * not a video. Undefined when the archive has none to set.
   */
  private planBox(manifest: ArchiveManifest): PlannedBox | undefined {
    if (manifest.box === undefined) return undefined;
    const { name, cover_photo_id, together_since } = manifest.box;
    const rules = BoxSettingsChange.shape;
    const keptName = rules.name.safeParse(name ?? null);
    if (!keptName.success)
      throw new ArchiveRefusedError({ id: "errorText.archive.boxNameTooLong", values: { max: BoxLimits.nameMaxLength } });
    if (
      together_since !== undefined &&
      (!rules.together_since.safeParse(together_since).success ||
        together_since > latestTogetherSince(this.deps.now?.() ?? new Date()))
    )
      throw new ArchiveRefusedError({
        id: "errorText.archive.boxBadDate",
        values: { date: JSON.stringify(together_since), earliest: BoxLimits.earliestYear },
      });
    if (cover_photo_id !== undefined) {
      const photo = manifest.memories.flatMap((memory) => memory.photos).find((candidate) => candidate.id === cover_photo_id);
      if (photo === undefined)
        throw new ArchiveRefusedError({ id: "errorText.archive.boxCoverNotInArchive", values: { photo: cover_photo_id } });
      if (photo.kind === "video")
        throw new ArchiveRefusedError({ id: "errorText.archive.boxCoverIsVideo", values: { photo: cover_photo_id } });
    }
    const planned = { name: keptName.data, cover_photo_id: cover_photo_id ?? null, together_since: together_since ?? null };
    return nothingSet(planned) ? undefined : planned;
  }

  /**
   * The box's settings, inside the import's transaction, where this box has none yet: the cover
   * only when this import stored its photo (one of a memory already here is left out: that memory
   * is as this box keeps it). A photo the archive called no video whose bytes are one refuses the
   * archive, as an owner's save would be refused. `none` when nothing is left to set.
   */
  private async setBox(
    trx: Transaction<Database>,
    box: PlannedBox,
    rows: PhotoRow[],
    importedBy: string,
  ): Promise<ImportSummary["box"]> {
    const cover = box.cover_photo_id === null ? undefined : rows.find((row) => row.id === box.cover_photo_id);
    if (cover?.kind === "video")
      throw new ArchiveRefusedError({ id: "errorText.archive.boxCoverIsVideo", values: { photo: cover.id } });
    const values = { ...box, cover_photo_id: cover?.id ?? null };
    if (nothingSet(values)) return "none";
    const set = await this.deps.archive.setBoxWhereUnset(trx, {
      ...values,
      updated_at: (this.deps.now?.() ?? new Date()).toISOString(),
      updated_by: importedBy,
    });
    return set ? "set" : "kept";
  }

  /** Checks the whole manifest against this instance's rules and finds what is new; writes nothing. */
  private async plan(source: ArchiveSource, options: ImportOptions): Promise<PlannedMemory[]> {
    const { manifest } = source;
    const memoryIds = new Set<string>();
    const photoIds = new Set<string>();
    const commentIds = new Set<string>();
    for (const [index, memory] of manifest.memories.entries()) {
      await turnEverySoOften(index);
      checkDiscussion(memory, commentIds);
      const name = named(memory);
      if (memoryIds.has(memory.id)) throw new ArchiveRefusedError({ id: "errorText.archive.memoryTwice", values: name });
      memoryIds.add(memory.id);
      if (memory.photos.length > MemoryLimits.maxPhotos) {
        throw new ArchiveRefusedError({
          id: "errorText.archive.tooManyPhotos",
          values: { ...name, count: memory.photos.length, max: MemoryLimits.maxPhotos },
        });
      }
      fieldsOf(memory);
      for (const date of [memory.created_at, memory.updated_at]) {
        if (Number.isNaN(Date.parse(date)))
          throw new ArchiveRefusedError({
            id: "errorText.archive.memoryBadDate",
            values: { ...name, date: JSON.stringify(date) },
          });
      }
      const cover = memory.cover_photo_id;
      if (cover !== undefined && !memory.photos.some((photo) => photo.id === cover))
        throw new ArchiveRefusedError({ id: "errorText.archive.coverNotItsPhoto", values: { ...name, photo: cover } });
      for (const photo of memory.photos) {
        captionOf(memory, photo);
        if (photoIds.has(photo.id))
          throw new ArchiveRefusedError({ id: "errorText.archive.photoTwice", values: { ...name, photo: photo.id } });
        photoIds.add(photo.id);
        this.checkFile(source, memory, photo.file, photo.bytes, photo.kind === "video");
        // A Live Photo's clip is checked as a video's file; without its kind, a clip is not read.
        if (photo.kind === "live" && photo.motion !== undefined)
          this.checkFile(source, memory, photo.motion.file, photo.motion.bytes, true);
      }
    }

    const existing = await this.deps.archive.existingMemoryIds([...memoryIds]);
    const fresh = manifest.memories.filter((memory) => !existing.has(memory.id));
    const taken = await this.deps.archive.existingPhotoIds(fresh.flatMap((memory) => memory.photos.map((photo) => photo.id)));
    if (taken.size > 0) {
      const [first] = taken;
      throw new ArchiveRefusedError({ id: "errorText.archive.photoElsewhere", values: { photo: String(first) } });
    }
    const takenComments = await this.deps.archive.existingCommentIds(
      fresh.flatMap((memory) => (memory.comments ?? []).map((comment) => comment.id)),
    );
    if (takenComments.size > 0) {
      const [first] = takenComments;
      throw new ArchiveRefusedError({ id: "errorText.archive.commentElsewhere", values: { comment: String(first) } });
    }

    const emailOf = new Map(manifest.members.map((member) => [member.id, member.email.toLowerCase()]));
    const userByEmail = await this.deps.archive.usersByEmail([...new Set(emailOf.values())]);
    const memberHere = (archiveUserId: string | null) => {
      const email = archiveUserId === null ? undefined : emailOf.get(archiveUserId);
      return (email && userByEmail.get(email)) ?? null;
    };
    const planned: PlannedMemory[] = [];
    for (const [index, memory] of fresh.entries()) {
      await turnEverySoOften(index);
      const input = { ...fieldsOf(memory), place: await this.placeOf(memory) };
      const userId = memory.user_id === null ? (options.authorOfUnattributed ?? null) : memberHere(memory.user_id);
      const comments = (memory.comments ?? []).map((comment) => ({
        id: comment.id,
        memory_id: memory.id,
        user_id: memberHere(comment.user_id),
        body: CommentInput.parse({ body: comment.body }).body,
        created_at: comment.created_at,
        updated_at: comment.updated_at,
      }));
      const reactions = (memory.reactions ?? []).flatMap((reaction) => {
        const user = memberHere(reaction.user_id);
        return user === null
          ? []
          : [{ memory_id: memory.id, emoji: reaction.emoji, user_id: user, created_at: memory.updated_at }];
      });
      planned.push({ memory, userId, fields: input, comments, reactions: uniqueReactions(reactions) });
    }
    return planned;
  }

  /** A file the manifest names: present, of the size it states, within the upload limit of its kind. */
  private checkFile(source: ArchiveSource, memory: ArchiveMemory, file: string, bytes: number, video: boolean): void {
    const name = named(memory);
    const size = source.sizeOf(file);
    if (size === undefined) throw new ArchiveRefusedError({ id: "errorText.archive.photoMissing", values: { ...name, file } });
    if (size !== bytes) {
      throw new ArchiveRefusedError({
        id: "errorText.archive.photoSizeDiffers",
        values: { ...name, size, described: bytes },
      });
    }
    const limit = video ? this.deps.limits.maxVideoBytes : this.deps.limits.maxPhotoBytes;
    if (size > limit) {
      throw new ArchiveRefusedError({
        id: video ? "errorText.archive.videoOverLimit" : "errorText.archive.photoOverLimit",
        values: { ...name, size: Math.round(size / 1024 / 1024), max: Math.round(limit / 1024 / 1024) },
      });
    }
  }

  /**
   * One photo's or video's bytes to a temporary file (held to their stated size and checksum),
   * then checked and stored as an upload is: the bytes (or a video's name) decide which, as the
   * media intake's do. A Live Photo's still is stored as a photo, then its clip beside it.
   */
  private async storePhoto(
    source: ArchiveSource,
    memory: ArchiveMemory,
    photo: ArchivePhoto,
    ownerId: string,
  ): Promise<Omit<PhotoRow, "id" | "memory_id" | "position" | "created_at" | "caption">> {
    const now = this.deps.now?.() ?? new Date();
    const stored = await this.withFile(source, memory, photo.file, async (tempFile, fileName) =>
      (await isVideoFile(tempFile, fileName))
        ? // Archives written before videos were known named their files `.bin`: a name that promises nothing.
          this.deps.videoFiles.storeVideo(ownerId, tempFile, fileName.replace(/\.bin$/, ""), now)
        : this.deps.photoFiles.storeFile(ownerId, tempFile, now),
    );
    if (photo.kind !== "live" || photo.motion === undefined || stored.kind !== "photo") return stored;
    try {
      const motion = await this.withFile(source, memory, photo.motion.file, (tempFile, fileName) =>
        this.deps.videoFiles.storeMotion(stored, tempFile, fileName),
      );
      return { ...stored, ...motion };
    } catch (error) {
      await this.deps.photoFiles.deleteFiles([stored]);
      throw error;
    }
  }

  /** `work` on a temporary copy of an archive's `file` (named as in the archive), removed afterwards; its refusals in words. */
  private async withFile<T>(
    source: ArchiveSource,
    memory: ArchiveMemory,
    file: string,
    work: (tempFile: string, fileName: string) => Promise<T>,
  ): Promise<T> {
    const tempFile = path.join(this.deps.tempDir, ownedTempName(".import"));
    try {
      await pipeline(await source.open(file), fs.createWriteStream(tempFile, { mode: 0o600 }));
      return await work(tempFile, path.posix.basename(file));
    } catch (error) {
      if (error instanceof AppError)
        throw new ArchiveRefusedError(`A photo of ${describe(memory)} (${file}) cannot be imported: ${error.message}`);
      throw refusedZip(error);
    } finally {
      await fsp.rm(tempFile, { force: true });
    }
  }
}

/**
 * The order the save inserts memories in: by date, undated first. SQLite's search index files
 * each memory under its day (db/search-rowids.ts), and FTS5 writes out what it holds in memory
 * whenever a rowid comes lower than the last: in the archive's order that was nearly every
 * memory, more than half the time of the save's statements. The list's order does not depend on
 * it. Gathered by date with the server's turns between (a sort of 100,000 held it 60 ms).
 */
async function inDateOrder(planned: PlannedMemory[]): Promise<PlannedMemory[]> {
  const byDate = new Map<string, PlannedMemory[]>();
  for (const [index, plan] of planned.entries()) {
    const date = plan.fields.memory_date ?? "";
    const sameDay = byDate.get(date);
    if (sameDay) sameDay.push(plan);
    else byDate.set(date, [plan]);
    await turnEverySoOften(index);
  }
  return [...byDate.keys()].sort().flatMap((date) => byDate.get(date)!);
}

/** A memory's fields as this instance keeps them, or the rule they break (checked for every memory of the archive, new or not). */
function fieldsOf(memory: ArchiveMemory): Omit<PlannedMemory["fields"], "place"> {
  const input = ArchivedMemoryFields.safeParse({
    title: memory.title,
    content: memory.content,
    memory_date: memory.memory_date,
    tags: memory.tags,
    ...(memory.place === undefined
      ? {}
      : { place: { name: memory.place.name, latitude: memory.place.latitude, longitude: memory.place.longitude } }),
  });
  if (!input.success) {
    const issue = input.error.issues[0]!;
    throw new ArchiveRefusedError(`${describe(memory)} cannot be kept here: its ${issue.path.join(".")} ${issue.message}.`);
  }
  const { title, content, memory_date, tags } = input.data;
  return { title, content, memory_date, tags: tags ?? [] };
}

/** A photo's caption as this instance keeps it (trimmed, at most `PhotoLimits.captionMaxLength`), or the rule it breaks. */
function captionOf(memory: ArchiveMemory, photo: ArchivePhoto): string | null {
  if (photo.caption === undefined) return null;
  const input = PhotoCaptionInput.safeParse({ caption: photo.caption });
  if (!input.success)
    throw new ArchiveRefusedError({
      id: "errorText.archive.captionTooLong",
      values: { ...named(memory), photo: photo.id, max: PhotoLimits.captionMaxLength },
    });
  return input.data.caption;
}

/** A memory's comments and reactions against the comment form's rules (every memory of the archive, new or not). */
function checkDiscussion(memory: ArchiveMemory, commentIds: Set<string>): void {
  for (const comment of memory.comments ?? []) {
    if (commentIds.has(comment.id))
      throw new ArchiveRefusedError({ id: "errorText.archive.commentTwice", values: { ...named(memory), comment: comment.id } });
    commentIds.add(comment.id);
    const input = CommentInput.safeParse({ body: comment.body });
    if (!input.success)
      throw new ArchiveRefusedError(
        `A comment on ${describe(memory)} cannot be kept here: its body ${input.error.issues[0]!.message}.`,
      );
    for (const date of [comment.created_at, comment.updated_at]) {
      if (Number.isNaN(Date.parse(date)))
        throw new ArchiveRefusedError({
          id: "errorText.archive.commentBadDate",
          values: { ...named(memory), date: JSON.stringify(date) },
        });
    }
  }
  const reacted = new Set<string>();
  for (const reaction of memory.reactions ?? []) {
    const key = `${reaction.user_id} ${reaction.emoji}`;
    if (reacted.has(key)) throw new ArchiveRefusedError({ id: "errorText.archive.reactionTwice", values: named(memory) });
    reacted.add(key);
  }
}

/** Two members of the archive can be one member here (the same e-mail address): their reactions count once. */
function uniqueReactions<T extends { emoji: string; user_id: string }>(reactions: T[]): T[] {
  const seen = new Set<string>();
  return reactions.filter((reaction) => {
    const key = `${reaction.user_id} ${reaction.emoji}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A memory as a refusal names it: its title's start and its id. */
function named(memory: ArchiveMemory): { title: string; id: string } {
  return { title: memory.title.slice(0, 80), id: memory.id };
}

function describe(memory: ArchiveMemory): string {
  return `The memory "${memory.title.slice(0, 80)}" (${memory.id})`;
}
