import { randomUUID } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { pipeline } from "node:stream/promises";
import type { AccountUsage, Photo } from "@memory-box/contract";
import pLimit from "p-limit";
import type { PhotoRow } from "../../db/schema";
import { AppError } from "../../errors";
import { ownedTempName, removeLeftoverTempFiles } from "../../lib/temp-files";
import type { BlobContent, BlobStore, ByteRangeRequest } from "../storage";
import { contentTypeOfExtension, processImage, renderDisplayCopyOf, type ProcessImageOptions } from "./image-pipeline";
import { derivativeKey, displayKey, isServedPhotoKey, isWebCopyKey, originalPhotoKey, photoBucket } from "./photo-key";
import { maxPhotoAccessSeconds, photoAccessToken, photoUrl, readPhotoAccessToken, type PhotoAccess } from "./photo-access";
import { readImageLocation } from "./photo-location";
import type { PhotosRepository } from "./photos.repository";

export interface PhotosServiceDeps {
  photos: PhotosRepository;
  blobStore: BlobStore;
  /** Key of the photo access cookies (32+ bytes). */
  urlSecret: Buffer;
  /** How long a photo access cookie, and a browser's cached copy of a photo, lives; at most 600. */
  accessTtlSeconds?: number;
  /** Where uploads wait while they are checked; on the same disk as DATA_DIR. */
  uploadDir: string;
  maxPixels?: number;
  /** The upload limit, named in the refusal of a larger file. */
  maxUploadBytes?: number;
  log: { warn(object: object, message: string): void };
  now?: () => Date;
}

/** A photo's stored files and what decoding found, before its row places it anywhere. */
export type StoredPhotoFiles = Omit<PhotoRow, "id" | "memory_id" | "position" | "created_at" | "caption">;

/** A still's video columns (ADR 0055): no motion, nothing to prepare. */
export const stillColumns = {
  kind: "photo",
  duration_ms: null,
  web_key: null,
  web_content_type: null,
  web_bytes: null,
  motion_key: null,
  motion_bytes: null,
  status: "ready",
  error_code: null,
} as const satisfies Partial<PhotoRow>;

/** What `present` reads of a row: the list pages' photo columns (memories.repository.ts `ListedPhoto`). */
export type PresentedPhotoRow = Pick<
  PhotoRow,
  | "id"
  | "display_key"
  | "preview_key"
  | "thumbnail_key"
  | "width"
  | "height"
  | "taken_at"
  | "placeholder"
  | "latitude"
  | "longitude"
> &
  Partial<Pick<PhotoRow, "kind" | "duration_ms" | "web_key" | "web_content_type" | "status" | "error_code" | "caption">>;

/** Uploads never attached to a memory within this time are deleted. */
/**
 * The media job (ADR 0054) reading the positions of photos uploaded before they were read at
 * upload (ADR 0058): its subject is the cursor, the last photo id read ("" to start). Each job
 * reads one batch and queues the next behind whatever was queued meanwhile, so a video's web copy
 * never waits for the whole collection. Migration 2026_11_28_224000 queues the first.
 */
export const photoLocationsJobKind = "photo.locations";

export const unattachedPhotoLifetimeMs = 24 * 3600 * 1000;
/** Image decoding is memory-hungry: at most this many at once, the rest wait their turn. */
const concurrentDecodes = 2;

/**
 * Photos: checking and storing uploads, their stable URLs and the access cookies behind them,
 * and serving the bytes. A failed upload leaves neither a file nor a row: whatever was written is
 * removed again.
 */
export class PhotosService {
  private readonly decoding = pLimit(concurrentDecodes);
  readonly accessTtlSeconds: number;

  constructor(private readonly deps: PhotosServiceDeps) {
    this.accessTtlSeconds = Math.min(deps.accessTtlSeconds ?? maxPhotoAccessSeconds, maxPhotoAccessSeconds);
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /**
   * Receives an uploaded stream into a temporary file in the upload folder and hands it to
   * `accept` (which decides what it is and stores it: `acceptFile` for a photo); the temporary
   * file is removed afterwards, whatever happened. The bytes go to disk first, so a slow or huge
   * upload never sits in memory. A stream cut at the upload limit is refused as too large.
   */
  async receive<T>(
    file: Readable,
    isTruncated: () => boolean,
    assertComplete: () => Promise<void>,
    accept: (tempFile: string) => Promise<T>,
  ): Promise<T> {
    await fsp.mkdir(this.deps.uploadDir, { recursive: true });
    const tempFile = path.join(this.deps.uploadDir, ownedTempName(".upload"));
    try {
      await pipeline(file, fs.createWriteStream(tempFile, { mode: 0o600 }));
      if (isTruncated()) throw this.tooLarge();
      await assertComplete();
      return await accept(tempFile);
    } finally {
      await fsp.rm(tempFile, { force: true });
    }
  }

  /** The refusal of a photo larger than the upload limit, naming the limit. */
  tooLarge(): AppError {
    return new AppError("request_entity_too_large", { message: tooLargeMessage(this.deps.maxUploadBytes) });
  }

  /** The upload limit of a photo, if there is one. */
  get maxUploadBytes(): number | undefined {
    return this.deps.maxUploadBytes;
  }

  /**
   * Stores a received image file (decoded here: its type is never taken from its name) as a photo
   * of `ownerId` not yet attached to any memory, and returns it. A failure leaves neither a file
   * nor a row. The one path of every photo upload: the photo route's and the media intake's.
   */
  async acceptFile(ownerId: string, file: string): Promise<Photo> {
    const now = this.now();
    const stored = await this.storeFile(ownerId, file, now);
    const row: PhotoRow = {
      ...stored,
      caption: null,
      id: randomUUID(),
      memory_id: null,
      position: null,
      created_at: now.toISOString(),
    };
    try {
      await this.deps.photos.insert(row);
    } catch (error) {
      await this.deleteFiles([row]);
      throw error;
    }
    return this.present(row);
  }

  /**
   * Decodes a received file (the type is decided by decoding, never by its name) and stores its
   * original and renditions under `ownerId`; returns the fields of its row. A failure removes
   * whatever it wrote; once it returns, the caller inserts the row or deletes the files
   * (`deleteFiles`).
   */
  async storeFile(ownerId: string, file: string, now: Date): Promise<StoredPhotoFiles> {
    const image = await this.decoding(async () => processImage(await fsp.readFile(file), this.imageOptions()));
    const key = originalPhotoKey(ownerId, now, image.extension);
    const keys = {
      original: key,
      preview: derivativeKey(key, "preview"),
      thumbnail: derivativeKey(key, "thumbnail"),
      display: displayKey(key, image.display.extension),
    };
    const written: string[] = [];
    const stored = async (objectKey: string, body: Readable | Buffer, contentType: string) => {
      written.push(objectKey);
      return this.deps.blobStore.put(`${photoBucket}/${objectKey}`, body, { contentType });
    };
    try {
      const original = await stored(keys.original, fs.createReadStream(file), image.contentType);
      await stored(keys.preview, image.preview.data, image.preview.contentType);
      await stored(keys.thumbnail, image.thumbnail.data, image.thumbnail.contentType);
      await stored(keys.display, image.display.data, image.display.contentType);
      return {
        owner_id: ownerId,
        object_key: keys.original,
        preview_key: keys.preview,
        thumbnail_key: keys.thumbnail,
        display_key: keys.display,
        content_type: image.contentType,
        bytes: original.size,
        width: image.width,
        height: image.height,
        taken_at: image.takenAt,
        placeholder: image.placeholder,
        latitude: image.location?.latitude ?? null,
        longitude: image.location?.longitude ?? null,
        ...stillColumns,
      };
    } catch (error) {
      await this.deleteObjects(written);
      throw error;
    }
  }

  private imageOptions(): ProcessImageOptions {
    return this.deps.maxPixels === undefined ? {} : { maxPixels: this.deps.maxPixels };
  }

  /**
   * The API form of a photo. Its URLs are stable (browsers cache by URL); the bytes behind them
   * need the member's bearer token or photo access cookie (`grantAccess`). `url` is the display
   * copy, never the original as uploaded; a photo whose display copy is not rendered yet shows its
   * preview meanwhile, and `content_type` is always what `url` serves.
   */
  present(photo: PresentedPhotoRow): Photo {
    const displayed = photo.display_key ?? photo.preview_key;
    const status = photo.status ?? "ready";
    const playable = status === "ready" && photo.web_key !== null && photo.web_key !== undefined;
    return {
      id: photo.id,
      url: photoUrl(displayed),
      preview_url: photoUrl(photo.preview_key),
      thumbnail_url: photoUrl(photo.thumbnail_key),
      content_type: contentTypeOfExtension(displayed.slice(displayed.lastIndexOf(".") + 1)),
      width: photo.width,
      height: photo.height,
      taken_at: photo.taken_at,
      placeholder: photo.placeholder,
      // Where the original says it was taken: for the member to choose as a memory's place, never in a served file.
      location:
        photo.latitude === null || photo.longitude === null ? null : { latitude: photo.latitude, longitude: photo.longitude },
      kind: photo.kind ?? "photo",
      duration_seconds: photo.duration_ms === null || photo.duration_ms === undefined ? null : photo.duration_ms / 1000,
      video_url: playable ? photoUrl(photo.web_key!) : null,
      video_content_type: playable ? (photo.web_content_type ?? null) : null,
      status,
      error_code: status === "failed" ? (photo.error_code ?? null) : null,
      caption: photo.caption ?? null,
    };
  }

  /**
   * A photo or video as it stands now (a video's preparation moves on after its upload): any
   * member's once it is in a memory, only its uploader's while it is in none (404 `photo_not_found`).
   */
  async find(viewerId: string, id: string): Promise<Photo> {
    const row = await this.deps.photos.findById(id);
    if (!row || (row.memory_id === null && row.owner_id !== viewerId)) throw new AppError("photo_not_found");
    return this.present(row);
  }

  /** What a member's uploads take: photos (stills and Live Photos) and videos, originals and copies. */
  async usage(ownerId: string): Promise<AccountUsage> {
    const usage: AccountUsage = { photos: { count: 0, bytes: 0 }, videos: { count: 0, bytes: 0 } };
    for (const { kind, count, bytes } of await this.deps.photos.usageOf(ownerId)) {
      const figure = kind === "video" ? usage.videos : usage.photos;
      figure.count += count;
      figure.bytes += bytes;
    }
    return usage;
  }

  /** A photo access cookie value for a member's session, valid `accessTtlSeconds` from now. */
  grantAccess(sessionId: string): { value: string; expires: number } {
    const expires = Math.floor(this.now().getTime() / 1000) + this.accessTtlSeconds;
    return { value: photoAccessToken(sessionId, expires, this.deps.urlSecret), expires };
  }

  /** A new cookie value unless `cookie` already grants this session access for more than half its lifetime. */
  renewAccess(sessionId: string, cookie: string | undefined): string | undefined {
    const held = this.readAccess(cookie);
    const secondsLeft = held === null ? 0 : held.expires - this.now().getTime() / 1000;
    if (held?.sessionId === sessionId && secondsLeft > this.accessTtlSeconds / 2) return undefined;
    return this.grantAccess(sessionId).value;
  }

  /** What a photo access cookie grants, if it is genuine and unexpired. The session may still have ended since. */
  readAccess(cookie: string | undefined): PhotoAccess | null {
    return readPhotoAccessToken(cookie, this.deps.urlSecret, this.now());
  }

  /**
   * The bytes of a photo rendition, for a caller already let in. 404 for keys that are not a
   * rendition: an original as uploaded carries its camera's metadata and is served to nobody.
   */
  async open(objectKey: string, range: ByteRangeRequest | undefined, viewerId: string): Promise<BlobContent> {
    await this.assertViewable(objectKey, viewerId);
    return this.deps.blobStore.get(`${photoBucket}/${objectKey}`, range ? { range } : {});
  }

  /** As `open` would decide, without reading: for a revalidation, where a deleted photo must not stay cached. */
  async assertServed(objectKey: string, viewerId: string): Promise<void> {
    await this.assertViewable(objectKey, viewerId);
    if (!(await this.deps.blobStore.stat(`${photoBucket}/${objectKey}`))) throw new AppError("object_not_found");
  }

  /**
   * Renditions are served to any member holding their URL. A video's web copy only once it is
   * ready, and while the video is in no memory only to its uploader (ADR 0055): its key is known
   * before the copy is made, so the row, not the key alone, decides.
   */
  private async assertViewable(objectKey: string, viewerId: string): Promise<void> {
    if (!isServedPhotoKey(objectKey)) throw new AppError("object_not_found");
    if (!isWebCopyKey(objectKey)) return;
    const row = await this.deps.photos.findByWebKey(objectKey);
    if (row?.status !== "ready" || (row.memory_id === null && row.owner_id !== viewerId)) {
      throw new AppError("object_not_found");
    }
  }

  /**
   * At start-up, before any upload: removes what uploads interrupted by a crash left in the upload
   * folder (the blob store clears its own temporary files the same way).
   */
  removeLeftoverUploads(): Promise<{ files: number; bytes: number }> {
    return removeLeftoverTempFiles(this.deps.uploadDir);
  }

  /** Deletes the files of photos whose rows are already gone. Failures are logged: a stray file is never served. */
  async deleteFiles(
    photos: (Pick<PhotoRow, "object_key" | "preview_key" | "thumbnail_key" | "display_key"> &
      Partial<Pick<PhotoRow, "web_key" | "motion_key">>)[],
  ): Promise<void> {
    // A video's display copy is its poster's preview: the same key, deleted once.
    const keys = new Set(
      photos.flatMap((photo) =>
        [photo.object_key, photo.preview_key, photo.thumbnail_key, photo.display_key, photo.web_key, photo.motion_key].filter(
          (key): key is string => typeof key === "string",
        ),
      ),
    );
    await this.deleteObjects([...keys]);
  }

  /** Deletes stored objects of the photo bucket by key; failures are logged (the reconciler removes what is left). */
  deleteKeys(keys: string[]): Promise<void> {
    return this.deleteObjects(keys);
  }

  /**
   * Renders the display copies of photos uploaded before there were any (ADR 0017), a batch at a
   * time, oldest first. A photo whose original cannot be read or decoded is logged and skipped:
   * it keeps showing its preview. Returns how many were rendered.
   */
  async renderMissingDisplayCopies(batchSize = 20): Promise<number> {
    let rendered = 0;
    let after = "";
    for (;;) {
      const batch = await this.deps.photos.withoutDisplayCopy(after, batchSize);
      for (const photo of batch) {
        if (await this.renderDisplayCopy(photo)) rendered += 1;
      }
      if (batch.length < batchSize) return rendered;
      after = batch.at(-1)!.id;
    }
  }

  /**
   * One batch of the read of older photos' positions (ADR 0058): the next `batchSize` stills
   * without one after `afterId`, each original's EXIF read as an upload's is. Returns how many got
   * a position and the cursor to go on from, or null when this was the last batch. A missing or
   * unreadable original is skipped (logged), never retried: the position stays unknown.
   */
  async readMissingLocations(afterId: string, batchSize = 20): Promise<{ located: number; next: string | null }> {
    const batch = await this.deps.photos.stillsWithoutLocation(afterId, batchSize);
    let located = 0;
    for (const photo of batch) {
      try {
        const original = await this.deps.blobStore.get(`${photoBucket}/${photo.object_key}`);
        const location = await readImageLocation(await buffer(original.body));
        if (location && (await this.deps.photos.setLocation(photo.id, location))) located += 1;
      } catch (error) {
        this.deps.log.warn({ err: error, photoId: photo.id }, "could not read an older photo's position");
      }
    }
    return { located, next: batch.length < batchSize ? null : batch.at(-1)!.id };
  }

  private async renderDisplayCopy(photo: PhotoRow): Promise<boolean> {
    let key: string | undefined;
    try {
      const display = await this.decoding(async () => {
        const original = await this.deps.blobStore.get(`${photoBucket}/${photo.object_key}`);
        return renderDisplayCopyOf(await buffer(original.body), this.imageOptions());
      });
      key = displayKey(photo.object_key, display.extension);
      await this.deps.blobStore.put(`${photoBucket}/${key}`, display.data, { contentType: display.contentType });
      if (await this.deps.photos.setDisplayKey(photo.id, key)) return true;
      // The photo was deleted meanwhile: its files went with it, so must this one.
      await this.deleteObjects([key]);
      return false;
    } catch (error) {
      if (key !== undefined) await this.deleteObjects([key]);
      this.deps.log.warn({ err: error, photoId: photo.id }, "could not render a photo's display copy");
      return false;
    }
  }

  /** Removes uploads that were never attached to a memory within a day. Returns how many. */
  async sweepUnattached(batchSize = 100): Promise<number> {
    const before = new Date(this.now().getTime() - unattachedPhotoLifetimeMs).toISOString();
    let swept = 0;
    for (;;) {
      const stale = await this.deps.photos.unattachedBefore(before, batchSize);
      if (stale.length === 0) return swept;
      const deleted = new Set(await this.deps.photos.deleteUnattached(stale.map((photo) => photo.id)));
      // A photo attached to a memory in the meantime keeps its row, and so its files.
      await this.deleteFiles(stale.filter((photo) => deleted.has(photo.id)));
      swept += deleted.size;
      if (stale.length < batchSize) return swept;
    }
  }

  private async deleteObjects(keys: string[]): Promise<void> {
    await Promise.all(
      keys.map((key) =>
        this.deps.blobStore
          .delete(`${photoBucket}/${key}`)
          .catch((error: unknown) => this.deps.log.warn({ err: error, key }, "could not delete a photo file")),
      ),
    );
  }
}

/** Says the limit in the unit the setting uses (PHOTO_MAX_UPLOAD_MB), so a person knows what fits. */
function tooLargeMessage(maxUploadBytes: number | undefined): string {
  if (maxUploadBytes === undefined) return "The photo is larger than the upload limit.";
  const megabytes = Math.round((maxUploadBytes / (1024 * 1024)) * 10) / 10;
  return `The photo is larger than the upload limit of ${megabytes} MB.`;
}
