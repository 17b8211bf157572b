import type { BlobInfo, BlobStore } from "../storage";
import { photoBucket } from "./photo-key";
import { PhotosRepository } from "./photos.repository";

/** What one pass of `PhotoFilesReconciler.run` found and did. */
export interface FileReconciliation {
  filesChecked: number;
  orphansRemoved: number;
  orphanBytes: number;
  /** Rows naming files that storage no longer has. */
  missing: Array<{ photoId: string; memoryId: string | null; keys: string[] }>;
}

export interface PhotoFilesReconcilerDeps {
  photos: PhotosRepository;
  blobStore: BlobStore;
  log: { warn(object: object, message: string): void };
  now?: () => Date;
}

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
    const result: FileReconciliation = { filesChecked: 0, orphansRemoved: 0, orphanBytes: 0, missing: [] };
    const present = new Set<string>();
    const cutoff = (this.deps.now?.() ?? new Date()).getTime() - graceMs;
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
        const named = PhotosRepository.fileColumns.flatMap((column) => (row[column] === null ? [] : [row[column]]));
        // A file written after the listing began is not in it: look again before reporting.
        const gone: string[] = [];
        for (const key of named) {
          if (!present.has(key) && !(await this.deps.blobStore.stat(`${photoBucket}/${key}`))) gone.push(key);
        }
        if (gone.length === 0) continue;
        result.missing.push({ photoId: row.id, memoryId: row.memory_id, keys: gone });
        this.deps.log.warn({ photoId: row.id, memoryId: row.memory_id, keys: gone }, "a photo's files are missing from storage");
      }
      if (rows.length < batchSize) return result;
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
