import type { Kysely, Transaction } from "kysely";
import { byBoundValues } from "../../db/bound-values";
import type { Database, NewPhotoRow, PhotoRow } from "../../db/schema";

type Executor = Kysely<Database> | Transaction<Database>;

/** Photo records; the bytes live in the blob store under the keys recorded here. */
export class PhotosRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(photo: NewPhotoRow, executor: Executor = this.db): Promise<void> {
    await executor.insertInto("photos").values(photo).execute();
  }

  /** Many photos, many rows a statement (an import's); every row with the same columns. */
  async insertMany(photos: NewPhotoRow[], executor: Executor): Promise<void> {
    for (const batch of byBoundValues(photos, executor)) await executor.insertInto("photos").values(batch).execute();
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

  /** Sets a photo's caption (ADR 0062); null removes it. */
  async setCaption(id: string, caption: string | null, executor: Executor): Promise<void> {
    await executor.updateTable("photos").set({ caption }).where("id", "=", id).execute();
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

  /**
   * Stills (photos and Live Photos) with no position, after `afterId` in id order: those uploaded
   * before positions were read at upload (ADR 0058), for the one-time read of their originals.
   */
  stillsWithoutLocation(afterId: string, limit: number): Promise<Pick<PhotoRow, "id" | "object_key">[]> {
    return this.db
      .selectFrom("photos")
      .select(["id", "object_key"])
      .where("latitude", "is", null)
      .where("kind", "in", ["photo", "live"])
      .where("id", ">", afterId)
      .orderBy("id")
      .limit(limit)
      .execute();
  }

  /** Records a position read from a photo's original, unless it has one already; false if not set. */
  async setLocation(id: string, location: { latitude: number; longitude: number }): Promise<boolean> {
    const result = await this.db
      .updateTable("photos")
      .set({ latitude: location.latitude, longitude: location.longitude })
      .where("id", "=", id)
      .where("latitude", "is", null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Records a rendered display copy; false if the photo is gone. */
  async setDisplayKey(id: string, key: string): Promise<boolean> {
    const result = await this.db.updateTable("photos").set({ display_key: key }).where("id", "=", id).executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** The row whose web copy is `key` (ADR 0055): who may play it, and whether it is ready. */
  findByWebKey(key: string): Promise<Pick<PhotoRow, "id" | "owner_id" | "memory_id" | "status"> | undefined> {
    return this.db
      .selectFrom("photos")
      .select(["id", "owner_id", "memory_id", "status"])
      .where("web_key", "=", key)
      .executeTakeFirst();
  }

  /**
   * Makes a member's still a Live Photo whose motion is being prepared, and returns its row as
   * updated; undefined (nothing changed) unless the row is still a still of `ownerId`.
   */
  async attachMotion(
    id: string,
    ownerId: string,
    motion: Pick<
      PhotoRow,
      "motion_key" | "web_key" | "web_content_type" | "duration_ms" | "motion_bytes" | "latitude" | "longitude"
    >,
    executor: Executor = this.db,
  ): Promise<PhotoRow | undefined> {
    return executor
      .updateTable("photos")
      .set({ ...motion, kind: "live", status: "processing", error_code: null })
      .where("id", "=", id)
      .where("owner_id", "=", ownerId)
      .where("kind", "=", "photo")
      .returningAll()
      .executeTakeFirst();
  }

  /** Records a processing video's web copy as made; false when the row is gone (or no longer waits for this copy). */
  async markWebCopyReady(id: string, webKey: string, webBytes: number): Promise<boolean> {
    const result = await this.db
      .updateTable("photos")
      .set({ status: "ready", error_code: null, web_bytes: webBytes })
      .where("id", "=", id)
      .where("web_key", "=", webKey)
      .where("status", "=", "processing")
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Records that a processing video's web copy could not be made, with why. */
  async markWebCopyFailed(id: string, errorCode: string): Promise<void> {
    await this.db
      .updateTable("photos")
      .set({ status: "failed", error_code: errorCode })
      .where("id", "=", id)
      .where("status", "=", "processing")
      .execute();
  }

  /** How many media of each kind a member uploaded and the bytes their files take (originals and copies). */
  async usageOf(ownerId: string): Promise<{ kind: string; count: number; bytes: number }[]> {
    const rows = await this.db
      .selectFrom("photos")
      .select((eb) => [
        "kind",
        eb.fn.countAll<number | string>().as("count"),
        eb.fn.sum<number | string | null>("bytes").as("bytes"),
        eb.fn.sum<number | string | null>("web_bytes").as("web_bytes"),
        eb.fn.sum<number | string | null>("motion_bytes").as("motion_bytes"),
      ])
      .where("owner_id", "=", ownerId)
      .groupBy("kind")
      .execute();
    return rows.map((row) => ({
      kind: row.kind,
      count: Number(row.count),
      bytes: Number(row.bytes ?? 0) + Number(row.web_bytes ?? 0) + Number(row.motion_bytes ?? 0),
    }));
  }

  /** Every column naming a file of a photo: what the file reconciler must never remove. */
  static readonly fileColumns = ["object_key", "preview_key", "thumbnail_key", "display_key", "web_key", "motion_key"] as const;

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
