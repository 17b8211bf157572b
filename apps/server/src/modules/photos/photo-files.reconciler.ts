import type { BlobInfo, BlobStore } from "../storage";
import { photoBucket } from "./photo-key";
import { PhotosRepository } from "./photos.repository";

/** What one pass of `PhotoFilesReconciler.run` found and did. */
export interface FileReconciliation {
  filesChecked: number;
  orphansRemoved: number;
  orphanBytes: number;
  /** How many rows name files that storage no longer has. */
  missingCount: number;
  /** The first of them (at most `missingExamples`), each logged with its photo and memory. */
  missing: Array<{ photoId: string; memoryId: string | null; keys: string[] }>;
}

/**
 * Rows with missing files reported one by one; past this, one summary line says how many. A
 * storage that lost everything must not flood the log with a line per photo.
 */
export const missingExamples = 50;

export interface PhotoFilesReconcilerDeps {
  photos: PhotosRepository;
  blobStore: BlobStore;
  log: { warn(object: object, message: string): void };
  now?: () => Date;
}

/** Clocks of the server and of the storage may differ a little. */
const clockSlackMs = 60_000;

/**
 * Makes the photo files and the photo rows agree again after crashes (ADR 0016), for the server
 * (at start-up and daily) and the operator's `reconcile` command.
 */
export class PhotoFilesReconciler {
  constructor(private readonly deps: PhotoFilesReconcilerDeps) {}

  /**
   * One pass: removes files that no row names once they are older than `graceMs` (an upload writes its files before its
   * row, so a younger file may still get one), and reports rows whose files are gone, logged with
   * the photo and its memory. Walks the storage listing once and the table a page at a time.
   */
  async run(graceMs: number, batchSize = 500): Promise<FileReconciliation> {
    const result: FileReconciliation = { filesChecked: 0, orphansRemoved: 0, orphanBytes: 0, missingCount: 0, missing: [] };
    const present = new Set<string>();
    const listingStartedAt = (this.deps.now?.() ?? new Date()).getTime();
    const cutoff = listingStartedAt - graceMs;
    let candidates: BlobInfo[] = [];
    const removeUnreferenced = async () => {
      const referenced = await this.deps.photos.referencedKeys(candidates.map((file) => file.key));
      const orphans = candidates.filter((file) => !referenced.has(file.key));
      await this.delete(orphans.map((file) => file.key));
      result.orphansRemoved += orphans.length;
      result.orphanBytes += orphans.reduce((sum, file) => sum + file.size, 0);
      candidates = [];
    };
    for await (const file of this.deps.blobStore.list(`${photoBucket}/`)) {
      const key = file.key.slice(photoBucket.length + 1);
      result.filesChecked += 1;
      present.add(key);
      if (file.lastModified.getTime() > cutoff) continue;
      candidates.push({ ...file, key });
      if (candidates.length >= batchSize) await removeUnreferenced();
    }
    await removeUnreferenced();

    for (let after = ""; ;) {
      const rows = await this.deps.photos.pageById(after, batchSize);
      for (const row of rows) {
        // A video's web copy is named from its upload on, and made later by its media job (ADR 0055).
        const named = PhotosRepository.fileColumns.flatMap((column) =>
          row[column] === null || (column === "web_key" && row.status !== "ready") ? [] : [row[column]],
        );
        // A file written after the listing began is not in it: look again before reporting. An
        // upload writes its files before its row, so only rows as new as the listing (and display
        // copies, rendered later for older photos) can have such files.
        const mayBeNewer = (key: string) =>
          Date.parse(row.created_at) >= listingStartedAt - clockSlackMs ||
          key === row.display_key ||
          key === row.web_key ||
          key === row.motion_key;
        const gone: string[] = [];
        for (const key of named) {
          if (present.has(key)) continue;
          if (mayBeNewer(key) && (await this.deps.blobStore.stat(`${photoBucket}/${key}`))) continue;
          gone.push(key);
        }
        if (gone.length === 0) continue;
        result.missingCount += 1;
        if (result.missing.length >= missingExamples) continue;
        result.missing.push({ photoId: row.id, memoryId: row.memory_id, keys: gone });
        this.deps.log.warn({ photoId: row.id, memoryId: row.memory_id, keys: gone }, "a photo's files are missing from storage");
      }
      if (rows.length < batchSize) {
        if (result.missingCount > result.missing.length)
          this.deps.log.warn(
            { rowsMissingFiles: result.missingCount, logged: result.missing.length },
            "more photos' files are missing from storage than were logged one by one",
          );
        return result;
      }
      after = rows.at(-1)!.id;
    }
  }

  private async delete(keys: string[]): Promise<void> {
    await Promise.all(
      keys.map((key) =>
        this.deps.blobStore
          .delete(`${photoBucket}/${key}`)
          .catch((error: unknown) => this.deps.log.warn({ err: error, key }, "could not delete a photo file")),
      ),
    );
  }
}
