import type { Kysely } from "kysely";
import type { BucketRow, Database } from "../../db/schema";

export class BucketsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(): Promise<BucketRow[]> {
    return this.db.selectFrom("buckets").selectAll().orderBy("name").execute();
  }

  find(id: string): Promise<BucketRow | undefined> {
    return this.db.selectFrom("buckets").selectAll().where("id", "=", id).executeTakeFirst();
  }

  async insert(bucket: BucketRow): Promise<boolean> {
    const result = await this.db
      .insertInto("buckets")
      .values(bucket)
      .onConflict((conflict) => conflict.doNothing())
      .executeTakeFirst();
    return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }

  async update(
    id: string,
    changes: Partial<Pick<BucketRow, "public" | "file_size_limit" | "allowed_mime_types">>,
    now: string,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable("buckets")
      .set({ ...changes, updated_at: now })
      .where("id", "=", id)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom("buckets").where("id", "=", id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** Photo rows whose originals live in the bucket (only memory-photos has any). */
  async deletePhotoRows(): Promise<void> {
    await this.db.deleteFrom("photos").execute();
  }
}
