import { randomUUID } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { Photo } from "@memory-box/contract";
import type { Kysely } from "kysely";
import pLimit from "p-limit";
import type { Database, PhotoRow } from "../../db/schema";
import { AppError } from "../../errors";
import { ownedTempName } from "../../lib/temp-files";
import { type MediaJobContext, MediaJobError, type MediaJobProgress, MediaJobsRepository } from "../media-jobs";
import { derivativeKey, motionKey, originalPhotoKey, photoBucket, PhotosRepository, type PhotosService, webKey } from "../photos";
import type { BlobStore } from "../storage";
import { inspectVideo, type VideoInfo } from "./video-inspection";
import { renderVideoPoster } from "./video-poster";
import type { VideoTools } from "./video-tools";
import { remuxForWeb, transcodeWebRendition, webRenditionReasons } from "./web-rendition";

/** The media job that makes a video's (or a Live Photo's motion's) web copy. */
export const webCopyJobKind = "video.web_copy";

/** A Live Photo's motion is a few seconds (an iPhone's, 3); a little more is allowed, no more. */
export const maxMotionSeconds = 15;

/** Checking a video and rendering its poster runs a few ffmpeg processes: at most this many uploads at once. */
const concurrentChecks = 2;

/** What a failed preparation keeps as its `error_code`: a refusal of the video, else this. */
const preparationFailed = "video_preparation_failed";
const keptFailureCodes = new Set([
  "corrupt_video",
  "undecodable_video",
  "video_timeout",
  "video_dimensions_unsupported",
  "unsupported_video_type",
  "insufficient_storage",
]);

export interface VideosServiceDeps {
  db: Kysely<Database>;
  photos: PhotosService;
  blobStore: BlobStore;
  /** The video programs, resolved on first use (a server that never sees a video never loads them). */
  tools: () => Promise<VideoTools>;
  /** Where videos wait while they are checked and prepared; on the same disk as DATA_DIR. */
  workDir: string;
  maxBytes: number;
  maxSeconds: number;
  /** Attempts of a job before it is failed for good (the runner's `maxAttempts`). */
  maxAttempts: number;
  /** Looks for due jobs at once (the runner's `wake`), after a job was added. */
  wakeJobs: () => void;
  /** A video's preparation moved on (`media.progress` on the live stream). */
  publishProgress: (progress: VideoProgress) => void;
  /** A memory's media changed (a Live Photo's motion attached to a photo in it). */
  publishMemoryUpdated: (memoryId: string, actor: string) => void;
  log: { warn(object: object, message: string): void };
  now?: () => Date;
}

/** A video's preparation as members see it: its row's place and owner decide who is told. */
export interface VideoProgress {
  id: string;
  memoryId: string | null;
  ownerId: string | null;
  status: "ready" | "processing" | "failed";
  progress: number;
  errorCode: string | null;
}

/**
 * Videos and Live Photos (ADR 0055): a video's row is a photo row of kind 'video' whose original
 * is kept as uploaded (served to nobody) and whose poster stands where a photo's renditions do;
 * the copy that plays is made by a durable media job, after the upload has answered.
 */
export class VideosService {
  private readonly photosRepository: PhotosRepository;
  private readonly jobs: MediaJobsRepository;
  private readonly checking = pLimit(concurrentChecks);

  constructor(private readonly deps: VideosServiceDeps) {
    this.photosRepository = new PhotosRepository(deps.db);
    this.jobs = new MediaJobsRepository(deps.db);
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /**
   * Checks a received video file (`file`, a temporary path the caller removes) and stores it as a
   * video of `ownerId` in no memory yet: its original byte for byte, its poster (so the answer
   * shows a picture at once), its row (status 'processing') and the job that makes its web copy,
   * the row and the job in one transaction. A refusal or failure leaves no file and no row.
   */
  async accept(ownerId: string, file: string, fileName: string): Promise<Photo> {
    const now = this.now();
    const stored = await this.storeVideo(ownerId, file, fileName, now);
    const row: PhotoRow = {
      ...stored,
      caption: null,
      id: randomUUID(),
      memory_id: null,
      position: null,
      created_at: now.toISOString(),
    };
    try {
      await this.deps.db.transaction().execute(async (trx) => {
        await this.photosRepository.insert(row, trx);
        await this.enqueueWebCopy(trx, row.id);
      });
    } catch (error) {
      await this.deps.photos.deleteFiles([row]);
      throw error;
    }
    this.deps.wakeJobs();
    return this.deps.photos.present(row);
  }

  /**
   * Checks a received video file and stores its original and poster under `ownerId`; returns the
   * fields of its row (status 'processing', its web copy named). A refusal or failure removes what
   * it wrote; once it returns, the caller inserts the row with its job (`enqueueWebCopy`, in the
   * same transaction) or deletes the files (`PhotosService.deleteFiles`). The upload's path and
   * the archive import's.
   */
  async storeVideo(ownerId: string, file: string, fileName: string, now: Date): Promise<StoredVideoFiles> {
    const tools = await this.deps.tools();
    const { info, poster } = await this.checking(async () => {
      const inspected = await inspectVideo(file, tools, {
        name: fileName,
        maxBytes: this.deps.maxBytes,
        maxSeconds: this.deps.maxSeconds,
      });
      return { info: inspected, poster: await renderVideoPoster(file, inspected, tools) };
    });
    const original = originalPhotoKey(ownerId, now, info.extension);
    const web = webCopyOf(original, info);
    const written: string[] = [];
    const put = async (key: string, body: fs.ReadStream | Buffer, contentType: string) => {
      written.push(key);
      return this.deps.blobStore.put(`${photoBucket}/${key}`, body, { contentType });
    };
    try {
      const stored = await put(original, fs.createReadStream(file), info.contentType);
      const preview = derivativeKey(original, "preview");
      const thumbnail = derivativeKey(original, "thumbnail");
      await put(preview, poster.preview.data, poster.preview.contentType);
      await put(thumbnail, poster.thumbnail.data, poster.thumbnail.contentType);
      return {
        owner_id: ownerId,
        object_key: original,
        preview_key: preview,
        thumbnail_key: thumbnail,
        // The poster is at most the preview's size: its preview is its full-size copy too.
        display_key: preview,
        content_type: info.contentType,
        bytes: stored.size,
        width: info.width,
        height: info.height,
        taken_at: info.takenAt,
        placeholder: poster.placeholder,
        latitude: info.location?.latitude ?? null,
        longitude: info.location?.longitude ?? null,
        kind: "video",
        duration_ms: Math.round(info.durationSeconds * 1000),
        web_key: web.key,
        web_content_type: web.contentType,
        web_bytes: null,
        motion_key: null,
        motion_bytes: null,
        status: "processing",
        error_code: null,
      };
    } catch (error) {
      await this.deps.photos.deleteKeys(written);
      throw error;
    }
  }

  /**
   * Checks a Live Photo's motion (`file`, at most `maxMotionSeconds`) and stores it beside `still`
   * (its original and where it was taken); returns the fields that make the still's row a Live
   * Photo waiting for its web copy, the clip's position standing in for a still that had none. A
   * refusal (`motion_too_long`…) or failure removes what it wrote.
   */
  async storeMotion(
    still: Pick<PhotoRow, "object_key" | "latitude" | "longitude">,
    file: string,
    fileName: string,
  ): Promise<StoredMotion> {
    const stillKey = still.object_key;
    const tools = await this.deps.tools();
    const info = await this.checking(() =>
      inspectVideo(file, tools, {
        name: fileName,
        maxBytes: this.deps.maxBytes,
        maxSeconds: Math.min(maxMotionSeconds, this.deps.maxSeconds),
      }),
    ).catch((error: unknown) => {
      throw error instanceof AppError && error.code === "video_too_long" ? new AppError("motion_too_long") : error;
    });
    const motion = motionKey(stillKey, info.extension);
    const web = webCopyOf(stillKey, info);
    try {
      const { size } = await this.deps.blobStore.put(`${photoBucket}/${motion}`, fs.createReadStream(file), {
        contentType: info.contentType,
      });
      return {
        kind: "live",
        status: "processing",
        error_code: null,
        motion_key: motion,
        motion_bytes: size,
        web_key: web.key,
        web_content_type: web.contentType,
        duration_ms: Math.round(info.durationSeconds * 1000),
        ...(still.latitude !== null && still.longitude !== null
          ? { latitude: still.latitude, longitude: still.longitude }
          : { latitude: info.location?.latitude ?? null, longitude: info.location?.longitude ?? null }),
      };
    } catch (error) {
      await this.deps.photos.deleteKeys([motion]);
      throw error;
    }
  }

  /** The job that makes a stored row's web copy, inserted with the row in the caller's transaction (`db`). */
  async enqueueWebCopy(db: Kysely<Database>, photoId: string): Promise<void> {
    await new MediaJobsRepository(db).enqueue(webCopyJobKind, photoId, this.now().toISOString());
  }

  /** Looks for due jobs at once, after rows and their jobs were committed. */
  wakeJobs(): void {
    this.deps.wakeJobs();
  }

  /**
   * Makes a member's own still a Live Photo: `file` is its motion, one short clip (at most
   * `maxMotionSeconds`). The clip is kept as uploaded beside the still, and its web copy made by
   * the same job as a video's. Only the member who uploaded the still may, and only once: a video
   * or a Live Photo already is refused (409 `not_a_still`); someone else's photo is not found.
   */
  async attachMotion(memberId: string, photoId: string, file: string, fileName: string): Promise<Photo> {
    const photo = await this.photosRepository.findById(photoId);
    if (photo?.owner_id !== memberId) throw new AppError("photo_not_found");
    if (photo.kind !== "photo") throw new AppError("not_a_still");
    const stored = await this.storeMotion(photo, file, fileName);
    const { kind: _kind, status: _status, error_code: _error, ...fields } = stored;
    try {
      // The row as the update left it: in the memory it may have been saved into while the clip was checked.
      const live = await this.deps.db.transaction().execute(async (trx) => {
        const updated = await this.photosRepository.attachMotion(photo.id, memberId, fields, trx);
        if (updated) await this.enqueueWebCopy(trx, photo.id);
        return updated;
      });
      // Deleted, or given motion by another request, meanwhile.
      if (!live) throw new AppError((await this.photosRepository.findById(photo.id)) ? "not_a_still" : "photo_not_found");
      this.deps.wakeJobs();
      if (live.memory_id !== null) this.deps.publishMemoryUpdated(live.memory_id, memberId);
      return this.deps.photos.present(live);
    } catch (error) {
      await this.deps.photos.deleteKeys([fields.motion_key]);
      throw error;
    }
  }

  /**
   * The media job: makes the web copy the row names (`web_key`) from its original (a video's, or a
   * Live Photo's motion), by copying the streams when they play as they are, by encoding H.264 and
   * AAC otherwise, and marks the row ready. Files are written whole or not at all; a row deleted
   * meanwhile gets its new copy removed. On the last attempt a failure marks the row failed.
   */
  async makeWebCopy({ job, signal, progress }: MediaJobContext): Promise<void> {
    const row = await this.photosRepository.findById(job.subject_id);
    const source = row?.kind === "live" ? row.motion_key : row?.object_key;
    // Gone (deleted, swept) or already prepared: nothing to do.
    if (!row || row.status !== "processing" || row.web_key === null || !source) return;
    const webKeyOfRow = row.web_key;
    await fsp.mkdir(this.deps.workDir, { recursive: true });
    const original = path.join(this.deps.workDir, ownedTempName(".original"));
    const copy = path.join(this.deps.workDir, ownedTempName(webKeyOfRow.endsWith(".webm") ? ".web.webm" : ".web.mp4"));
    try {
      const content = await this.deps.blobStore.get(`${photoBucket}/${source}`);
      await pipeline(content.body, fs.createWriteStream(original, { mode: 0o600 }), { signal });
      const tools = await this.deps.tools();
      // Checked when it was uploaded; read again for what the copy needs (the limits then are no concern now).
      const info = await inspectVideo(original, tools, {
        maxBytes: Number.MAX_SAFE_INTEGER,
        maxSeconds: Number.MAX_SAFE_INTEGER,
        signal,
      });
      let reported = 0;
      let reportedAt = 0;
      const onProgress = (fraction: number) => {
        // ffmpeg reports twice a second: members see whole percents, at most once a second.
        if (fraction < 1 && (fraction - reported < 0.01 || Date.now() - reportedAt < 1000)) return;
        reported = fraction;
        reportedAt = Date.now();
        progress(Math.min(0.99, fraction)).catch(() => {
          // Reported again with the next step; the lease is renewed by the runner meanwhile.
        });
      };
      if (webRenditionReasons(info).length === 0) {
        await remuxForWeb(original, info, copy, tools, { signal, onProgress });
      } else {
        await transcodeWebRendition(original, info, copy, tools, { signal, onProgress });
      }
      signal.throwIfAborted();
      const stored = await this.deps.blobStore.put(`${photoBucket}/${webKeyOfRow}`, fs.createReadStream(copy), {
        contentType: row.web_content_type ?? "video/mp4",
      });
      if (!(await this.photosRepository.markWebCopyReady(row.id, webKeyOfRow, stored.size))) {
        // Deleted while the copy was made: its files went with it, so must this one.
        if (!(await this.photosRepository.findById(row.id))) await this.deps.photos.deleteKeys([webKeyOfRow]);
      }
    } catch (error) {
      // Stopped (the server closing, the lease lost): the job runs again, nothing is recorded.
      if (signal.aborted) throw error;
      const code = failureCode(error);
      this.deps.log.warn({ err: error, photoId: row.id, attempt: job.attempts }, "could not prepare a video");
      if (job.attempts >= this.deps.maxAttempts) await this.photosRepository.markWebCopyFailed(row.id, code);
      throw new MediaJobError(code, error instanceof Error ? error.message : String(error));
    } finally {
      await Promise.all([fsp.rm(original, { force: true }), fsp.rm(copy, { force: true })]);
    }
  }

  /**
   * The runner's report of a web copy job, as members see it: the row says where the media is and
   * whose it is. A job failed without its handler knowing (its runners kept dying) fails its row
   * here. Nothing is said of a row that is gone.
   */
  async reportJob(report: MediaJobProgress): Promise<void> {
    if (report.kind !== webCopyJobKind) return;
    if (report.state === "failed") await this.photosRepository.markWebCopyFailed(report.subjectId, preparationFailed);
    const row = await this.photosRepository.findById(report.subjectId);
    if (!row) return;
    const status = report.state === "done" ? "ready" : report.state === "failed" ? "failed" : "processing";
    // A job that found nothing to do (a row prepared already) says what the row says.
    if (status !== "processing" && row.status !== status) return;
    this.deps.publishProgress({
      id: row.id,
      memoryId: row.memory_id,
      ownerId: row.owner_id,
      status,
      progress: status === "ready" ? 1 : Math.min(Math.max(report.progress, 0), status === "processing" ? 0.99 : 1),
      errorCode: status === "failed" ? (row.error_code ?? preparationFailed) : null,
    });
  }

  /** The jobs a still-processing row waits on, for a test or an operator's look. */
  jobsOf(photoId: string) {
    return this.jobs.forSubject(photoId);
  }
}

/** A stored video's row but for where it is (id, memory, position, creation), as `storeVideo` returns it. */
export type StoredVideoFiles = Omit<PhotoRow, "id" | "memory_id" | "position" | "created_at" | "caption">;

/** What a stored motion makes of its still's row. */
export type StoredMotion = Pick<
  PhotoRow,
  "kind" | "status" | "error_code" | "motion_bytes" | "web_key" | "web_content_type" | "duration_ms" | "latitude" | "longitude"
> & { motion_key: string };

/** The key and type of the copy that plays: WebM stays WebM when it plays as it is, everything else becomes MP4. */
function webCopyOf(originalKey: string, info: VideoInfo): { key: string; contentType: "video/mp4" | "video/webm" } {
  const webm = info.container === "webm" && webRenditionReasons(info).length === 0;
  return webm
    ? { key: webKey(originalKey, "webm"), contentType: "video/webm" }
    : { key: webKey(originalKey, "mp4"), contentType: "video/mp4" };
}

function failureCode(error: unknown): string {
  if (error instanceof AppError && keptFailureCodes.has(error.code)) return error.code;
  for (let cause = error, depth = 0; typeof cause === "object" && cause !== null && depth < 5; depth += 1) {
    if ("code" in cause && (cause.code === "ENOSPC" || cause.code === "EDQUOT")) return "insufficient_storage";
    cause = (cause as { cause?: unknown }).cause;
  }
  return preparationFailed;
}
