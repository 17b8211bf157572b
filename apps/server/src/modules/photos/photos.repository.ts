import type { Kysely, Transaction } from "kysely";
import type { Database, NewPhotoRow, PhotoRow } from "../../db/schema";

type Executor = Kysely<Database> | Transaction<Database>;

/** Photo records; the bytes live in the blob store under the keys recorded here. */
export class PhotosRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(photo: NewPhotoRow, executor: Executor = this.db): Promise<void> {
    await executor.insertInto("photos").values(photo).execute();
  }

  findById(id: string, executor: Executor = this.db): Promise<PhotoRow | undefined> {
    return executor.selectFrom("photos").selectAll().where("id", "=", id).executeTakeFirst();
  }

  findByIds(ids: string[], executor: Executor = this.db): Promise<PhotoRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return executor.selectFrom("photos").selectAll().where("id", "in", ids).execute();
  }

  ofMemory(memoryId: string, executor: Executor = this.db): Promise<PhotoRow[]> {
    return executor.selectFrom("photos").selectAll().where("memory_id", "=", memoryId).orderBy("position").execute();
  }

  /** Gives the photos to the memory in the listed order. */
  async attach(memoryId: string, orderedIds: string[], executor: Executor): Promise<void> {
    for (const [position, id] of orderedIds.entries()) {
      await executor.updateTable("photos").set({ memory_id: memoryId, position }).where("id", "=", id).execute();
    }
  }

  async deleteByIds(ids: string[], executor: Executor): Promise<void> {
    if (ids.length > 0) await executor.deleteFrom("photos").where("id", "in", ids).execute();
  }

  /** Deletes those of the photos that are still unattached; returns their ids. */
  async deleteUnattached(ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const deleted = await this.db
      .deleteFrom("photos")
      .where("id", "in", ids)
      .where("memory_id", "is", null)
      .returning("id")
      .execute();
    return deleted.map((row) => row.id);
  }

  /** Uploads never attached to a memory, older than `before`. */
  unattachedBefore(before: string, limit: number): Promise<PhotoRow[]> {
    return this.db
      .selectFrom("photos")
      .selectAll()
      .where("memory_id", "is", null)
      .where("created_at", "<", before)
      .orderBy("created_at")
      .limit(limit)
      .execute();
  }

  /** Photos without a display copy, by id after `afterId` (paging). */
  withoutDisplayCopy(afterId: string, limit: number): Promise<PhotoRow[]> {
    return this.db
      .selectFrom("photos")
      .selectAll()
      .where("display_key", "is", null)
      .where("id", ">", afterId)
      .orderBy("id")
      .limit(limit)
      .execute();
  }

  /** Records a rendered display copy; false if the photo is gone. */
  async setDisplayKey(id: string, key: string): Promise<boolean> {
    const result = await this.db.updateTable("photos").set({ display_key: key }).where("id", "=", id).executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Every column naming a file of a photo: what the file reconciler must never remove. */
  static readonly fileColumns = ["object_key", "preview_key", "thumbnail_key", "display_key"] as const;

  /** Which of `keys` some photo row names, in any of its file columns. */
  async referencedKeys(keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.db
      .selectFrom("photos")
      .select(PhotosRepository.fileColumns)
      .where((eb) => eb.or(PhotosRepository.fileColumns.map((column) => eb(column, "in", keys))))
      .execute();
    const wanted = new Set(keys);
    return new Set(
      rows.flatMap((row) =>
        PhotosRepository.fileColumns.flatMap((column) => {
          const key = row[column];
          return key !== null && wanted.has(key) ? [key] : [];
        }),
      ),
    );
  }

  /** Photo rows by id after `afterId`, for walking the whole table a page at a time. */
  pageById(afterId: string, limit: number): Promise<PhotoRow[]> {
    return this.db.selectFrom("photos").selectAll().where("id", ">", afterId).orderBy("id").limit(limit).execute();
  }
}
