import type { Kysely, Transaction } from "kysely";
import type { Database, PhotoRow } from "../../db/schema";

type Executor = Kysely<Database> | Transaction<Database>;

/** The cover's photo columns the answer is made of. */
export type BoxCoverRow = Pick<
  PhotoRow,
  "id" | "display_key" | "preview_key" | "thumbnail_key" | "width" | "height" | "placeholder"
>;

/** The box's row as the service reads it, with its cover photo's columns. */
export interface BoxRow {
  name: string | null;
  together_since: string | null;
  updated_at: string;
  updated_by: string | null;
  cover: BoxCoverRow | null;
}

/** What an owner saves. */
export interface BoxValues {
  name: string | null;
  cover_photo_id: string | null;
  together_since: string | null;
  updated_at: string;
  updated_by: string;
}

/** The box's one row (`box_settings`, id 1; ADR 0065). */
export class BoxRepository {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** The box as saved, or undefined when no owner ever saved it. */
  async read(executor: Executor = this.db): Promise<BoxRow | undefined> {
    const row = await executor
      .selectFrom("box_settings")
      .leftJoin("photos", "photos.id", "box_settings.cover_photo_id")
      .select([
        "box_settings.name",
        "box_settings.together_since",
        "box_settings.updated_at",
        "box_settings.updated_by",
        "photos.id as photo_id",
        "photos.display_key",
        "photos.preview_key",
        "photos.thumbnail_key",
        "photos.width",
        "photos.height",
        "photos.placeholder",
      ])
      .where("box_settings.id", "=", 1)
      .executeTakeFirst();
    if (!row) return undefined;
    const { photo_id, display_key, preview_key, thumbnail_key, width, height, placeholder, ...box } = row;
    const cover =
      photo_id === null ||
      preview_key === null ||
      thumbnail_key === null ||
      width === null ||
      height === null ||
      placeholder === null
        ? null
        : { id: photo_id, display_key, preview_key, thumbnail_key, width, height, placeholder };
    return { ...box, cover };
  }

  /** What the cover's rule needs to know of a photo: whether it is in a memory, and what it is. */
  async photo(id: string, executor: Executor): Promise<Pick<PhotoRow, "memory_id" | "kind"> | undefined> {
    return executor.selectFrom("photos").select(["memory_id", "kind"]).where("id", "=", id).executeTakeFirst();
  }

  /** Writes the box's row, the first time or over the last save. */
  async save(values: BoxValues, executor: Executor): Promise<void> {
    await executor
      .insertInto("box_settings")
      .values({ id: 1, ...values })
      .onConflict((conflict) => conflict.column("id").doUpdateSet(values))
      .execute();
  }
}
