import type { Kysely } from "kysely";
import type { Database, MemoryRow, PhotoRow } from "../../db/schema";

export type ArchivedMemoryRow = Pick<
  MemoryRow,
  "id" | "title" | "content" | "memory_date" | "user_id" | "created_at" | "updated_at"
> & { display_name: string | null; tags: string[]; photos: ArchivedPhotoRow[] };

export type ArchivedPhotoRow = Pick<
  PhotoRow,
  "id" | "position" | "taken_at" | "width" | "height" | "content_type" | "bytes" | "object_key"
>;

/** Reads what an archive holds: the members, and the memories page by page with their tags and photos. */
export class ArchiveRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Every account with its display name; no password hash, token or key. */
  members(): Promise<{ id: string; email: string; display_name: string | null }[]> {
    return this.db
      .selectFrom("users")
      .leftJoin("profiles", "profiles.user_id", "users.id")
      .select(["users.id", "users.email", "profiles.display_name"])
      .orderBy("users.created_at")
      .orderBy("users.id")
      .execute();
  }

  /**
   * The memories after `afterId` in id order, at most `limit`, each with its tags (in order) and
   * attached photos (in order): three queries a page, whatever its size.
   */
  async page(afterId: string | null, limit: number): Promise<ArchivedMemoryRow[]> {
    let query = this.db
      .selectFrom("memories")
      .leftJoin("profiles", "profiles.user_id", "memories.user_id")
      .select([
        "memories.id",
        "memories.title",
        "memories.content",
        "memories.memory_date",
        "memories.user_id",
        "memories.created_at",
        "memories.updated_at",
        "profiles.display_name",
      ])
      .orderBy("memories.id")
      .limit(limit);
    if (afterId !== null) query = query.where("memories.id", ">", afterId);
    const memories = await query.execute();
    if (memories.length === 0) return [];
    const ids = memories.map((memory) => memory.id);
    const [tags, photos] = await Promise.all([
      this.db
        .selectFrom("memory_tags")
        .select(["memory_id", "tag"])
        .where("memory_id", "in", ids)
        .orderBy("memory_id")
        .orderBy("position")
        .execute(),
      this.db
        .selectFrom("photos")
        .select(["id", "memory_id", "position", "taken_at", "width", "height", "content_type", "bytes", "object_key"])
        .where("memory_id", "in", ids)
        .orderBy("memory_id")
        .orderBy("position")
        .execute(),
    ]);
    return memories.map((memory) => ({
      ...memory,
      tags: tags.filter((tag) => tag.memory_id === memory.id).map((tag) => tag.tag),
      photos: photos
        .filter((photo) => photo.memory_id === memory.id)
        .map(({ memory_id: _memory, ...photo }) => ({ ...photo, position: photo.position ?? 0 })),
    }));
  }
}
