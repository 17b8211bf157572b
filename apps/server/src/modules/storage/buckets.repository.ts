import { type Kysely, sql } from "kysely";
import type { BucketRow, Database } from "../../db/schema";

export const bucketSortColumns = ["id", "name", "created_at", "updated_at"] as const;

/** How a bucket listing is narrowed and ordered (by name, ascending, unless said otherwise). */
export interface BucketListOptions {
  limit?: number | undefined;
  offset?: number | undefined;
  /** Part of the name, case-insensitive. */
  search?: string | undefined;
  sortColumn?: (typeof bucketSortColumns)[number] | undefined;
  sortOrder?: "asc" | "desc" | undefined;
}

export class BucketsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(options: BucketListOptions = {}): Promise<BucketRow[]> {
    let query = this.db.selectFrom("buckets").selectAll();
    if (options.search) {
      const pattern = `%${options.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where((eb) => eb(eb.fn("lower", ["name"]), "like", sql<string>`${pattern} escape '\\'`));
    }
    query = query.orderBy(options.sortColumn ?? "name", options.sortOrder ?? "asc").orderBy("id");
    // SQLite takes an offset only after a limit.
    if (options.limit !== undefined || options.offset !== undefined) query = query.limit(options.limit ?? 1_000_000);
    if (options.offset !== undefined) query = query.offset(options.offset);
    return query.execute();
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
