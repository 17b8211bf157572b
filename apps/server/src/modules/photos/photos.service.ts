import { randomUUID } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Photo } from "@memory-box/contract";
import type { PhotoRow } from "../../db/schema";
import { ConcurrencyLimit } from "../../lib/concurrency-limit";
import { GenerationCache } from "../../lib/generation-cache";
import { AppError } from "../../errors";
import type { BlobContent, BlobStore, ByteRangeRequest } from "../storage";
import { processImage } from "./image-pipeline";
import { derivativeKey, originalPhotoKey, photoBucket } from "./photo-key";
import type { PhotosRepository } from "./photos.repository";
import { photoUrlExpiry, signedPhotoUrlExpiring, verifyPhotoSignature } from "./signed-url";

export interface PhotosServiceDeps {
  photos: PhotosRepository;
  blobStore: BlobStore;
  /** Key of the photo URL signatures (32+ bytes). */
  urlSecret: Buffer;
  /** Where uploads wait while they are checked; on the same disk as DATA_DIR. */
  uploadDir: string;
  maxPixels?: number;
  log: { warn(object: object, message: string): void };
  now?: () => Date;
}

/** Uploads never attached to a memory within this time are deleted. */
export const unattachedPhotoLifetimeMs = 24 * 3600 * 1000;
/** Image decoding is memory-hungry: at most this many at once, the rest wait their turn. */
const concurrentDecodes = 2;
/** Signed URLs kept for reuse within the hour: ~3 MB, enough for 50 list pages of 30 memories. */
const signedUrlCacheSize = 10_000;

/**
 * Photos: checking and storing uploads, signed URLs, and serving the bytes behind them.
 * A failed upload leaves neither a file nor a row: whatever was written is removed again.
 */
export class PhotosService {
  private readonly decoding = new ConcurrencyLimit(concurrentDecodes);
  /** Signed URLs by object key, filed under their expiry: a new hour's URLs drop the last hour's. */
  private readonly signedUrls = new GenerationCache<string>(signedUrlCacheSize);

  constructor(private readonly deps: PhotosServiceDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /**
   * Stores an uploaded file as a photo not yet attached to any memory. The bytes are streamed to a
   * temporary file first, so a slow or huge upload never sits in memory; the type is decided by
   * decoding, never by the name or the client's claim.
   */
  async upload(ownerId: string, file: Readable, isTruncated: () => boolean): Promise<Photo> {
    await fsp.mkdir(this.deps.uploadDir, { recursive: true });
    const tempFile = path.join(this.deps.uploadDir, `${randomUUID()}.upload`);
    const written: string[] = [];
    try {
      await pipeline(file, fs.createWriteStream(tempFile, { mode: 0o600 }));
      if (isTruncated())
        throw new AppError("request_entity_too_large", { message: "The photo is larger than the upload limit." });
      const image = await this.decoding.run(async () =>
        processImage(await fsp.readFile(tempFile), this.deps.maxPixels === undefined ? {} : { maxPixels: this.deps.maxPixels }),
      );
      const now = this.now();
      const key = originalPhotoKey(ownerId, now, image.extension);
      const keys = { original: key, preview: derivativeKey(key, "preview"), thumbnail: derivativeKey(key, "thumbnail") };
      const stored = async (objectKey: string, body: Readable | Buffer, contentType: string) => {
        written.push(objectKey);
        return this.deps.blobStore.put(`${photoBucket}/${objectKey}`, body, { contentType });
      };
      const original = await stored(keys.original, fs.createReadStream(tempFile), image.contentType);
      await stored(keys.preview, image.preview.data, image.preview.contentType);
      await stored(keys.thumbnail, image.thumbnail.data, image.thumbnail.contentType);
      const row: PhotoRow = {
        id: randomUUID(),
        memory_id: null,
        position: null,
        owner_id: ownerId,
        object_key: keys.original,
        preview_key: keys.preview,
        thumbnail_key: keys.thumbnail,
        content_type: image.contentType,
        bytes: original.size,
        width: image.width,
        height: image.height,
        taken_at: image.takenAt,
        placeholder: image.placeholder,
        created_at: now.toISOString(),
      };
      await this.deps.photos.insert(row);
      written.length = 0;
      return this.present(row);
    } finally {
      await fsp.rm(tempFile, { force: true });
      await this.deleteObjects(written);
    }
  }

  /** The `expires` of URLs signed now: the same for a whole hour. */
  urlExpiry(): number {
    return photoUrlExpiry(this.now());
  }

  /** The API form of a photo, with signed URLs that stay the same for an hour (browser caching). */
  present(photo: PhotoRow): Photo {
    const expires = this.urlExpiry();
    const url = (key: string) => this.signedUrl(key, expires);
    return {
      id: photo.id,
      url: url(photo.object_key),
      preview_url: url(photo.preview_key),
      thumbnail_url: url(photo.thumbnail_key),
      content_type: photo.content_type,
      width: photo.width,
      height: photo.height,
      taken_at: photo.taken_at,
      placeholder: photo.placeholder,
    };
  }

  /**
   * A photo's signed URL for `expires`, memoised: a list page carries three URLs for each of its
   * ~60 photos, and every URL signed within the same hour is the same string (see signed-url.ts),
   * so each is computed once an hour instead of once per request. Entries are keyed by key and
   * expiry (so a cached URL is always exactly what signing would return now) and dropped as soon
   * as the expiry moves on.
   */
  private signedUrl(key: string, expires: number): string {
    const cached = this.signedUrls.get(expires, key);
    if (cached !== undefined) return cached;
    const url = signedPhotoUrlExpiring("", key, this.deps.urlSecret, expires);
    this.signedUrls.set(expires, key, url);
    return url;
  }

  /**
   * The bytes behind a signed URL, with how long the URL stays valid (what a browser may cache it
   * for); 403 for a missing, altered or expired signature, before any lookup.
   */
  async open(
    objectKey: string,
    expires: string | undefined,
    token: string | undefined,
    range: ByteRangeRequest | undefined,
  ): Promise<BlobContent & { secondsLeft: number }> {
    const now = this.now();
    if (!expires || !token || !verifyPhotoSignature(objectKey, expires, token, this.deps.urlSecret, now)) {
      throw new AppError("invalid_signature");
    }
    const content = await this.deps.blobStore.get(`${photoBucket}/${objectKey}`, range ? { range } : {});
    return { ...content, secondsLeft: Math.max(0, Number(expires) - Math.floor(now.getTime() / 1000)) };
  }

  /** Deletes the files of photos whose rows are already gone. Failures are logged: a stray file is never served. */
  async deleteFiles(photos: PhotoRow[]): Promise<void> {
    await this.deleteObjects(photos.flatMap((photo) => [photo.object_key, photo.preview_key, photo.thumbnail_key]));
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
