import { setImmediate } from "node:timers/promises";
import { type Kysely, type Transaction, sql } from "kysely";
import { byBoundValues } from "../../db/bound-values";
import type { Engine } from "../../db/database";
import type { CommentRow, Database } from "../../db/schema";
import { type BoxSettingsValues, nothingSet } from "./archive-format";

/** The members an archive lists (its memories come from the memories module's `pageById`). */
export class ArchiveRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: Engine,
  ) {}

  /**
   * The people an archive names, with their display names; no password hash, token or key. Only
   * what the Members screen tells every member: accounts whose invitation was used, and the authors
   * of what the archive holds (a removed member's memories keep their author). An address invited
   * but not joined, or an account that never got in, is for owners' eyes only.
   */
  members(): Promise<{ id: string; email: string; display_name: string | null }[]> {
    return this.db
      .selectFrom("users")
      .leftJoin("profiles", "profiles.user_id", "users.id")
      .select(["users.id", "users.email", "profiles.display_name"])
      .where((eb) =>
        eb.or([
          eb.exists(eb.selectFrom("invitations").select("invitations.used_by").whereRef("invitations.used_by", "=", "users.id")),
          eb.exists(eb.selectFrom("memories").select("memories.id").whereRef("memories.user_id", "=", "users.id")),
          eb.exists(eb.selectFrom("comments").select("comments.id").whereRef("comments.user_id", "=", "users.id")),
          eb.exists(eb.selectFrom("reactions").select("reactions.user_id").whereRef("reactions.user_id", "=", "users.id")),
        ]),
      )
      .orderBy("users.created_at")
      .orderBy("users.id")
      .execute();
  }

  /** The comments on these memories, each memory's oldest first. */
  commentsOf(memoryIds: string[]): Promise<CommentRow[]> {
    if (memoryIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom("comments")
      .selectAll()
      .where("memory_id", "in", memoryIds)
      .orderBy("memory_id")
      .orderBy("created_at")
      .orderBy("id")
      .execute();
  }

  /** The reactions on these memories: who reacted to which with what. */
  reactionsOf(memoryIds: string[]): Promise<{ memory_id: string; emoji: string; user_id: string }[]> {
    if (memoryIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom("reactions")
      .select(["memory_id", "emoji", "user_id"])
      .where("memory_id", "in", memoryIds)
      .orderBy("memory_id")
      .orderBy("user_id")
      .execute();
  }

  /** Stores an archive's comments and reactions, inside the import's transaction. */
  async insertDiscussion(
    db: Kysely<Database>,
    comments: CommentRow[],
    reactions: { memory_id: string; emoji: string; user_id: string; created_at: string }[],
  ): Promise<void> {
    for (const batch of byBoundValues(comments, db)) await db.insertInto("comments").values(batch).execute();
    for (const batch of byBoundValues(reactions, db)) await db.insertInto("reactions").values(batch).execute();
  }

  /**
   * Sets imported memories' covers, inside the import's transaction, once their photos are in: a
   * few hundred a statement, so PostgreSQL's statement triggers on memories run once a batch.
   */
  async setCovers(db: Kysely<Database>, covers: { memoryId: string; photoId: string }[]): Promise<void> {
    for (const batch of batches(covers)) {
      const cover = sql<string>`case ${sql.join(
        batch.map(({ memoryId, photoId }) => sql`when id = ${memoryId} then ${photoId}`),
        sql` `,
      )} end`;
      await db
        .updateTable("memories")
        .set({ cover_photo_id: cover })
        .where(
          "id",
          "in",
          batch.map(({ memoryId }) => memoryId),
        )
        .execute();
    }
  }

  /**
   * Inside the import's transaction, after its rows: PostgreSQL's planner statistics made again
   * when the import brought a tenth or more of the memories there now are (ADR 0084). Until
   * autovacuum's next analyze, a minute or more after the commit, the planner would know nothing
   * of the new rows; the first list after a lifetime's import took 400 ms for it. ANALYZE counts
   * and samples the transaction's own rows, so the statistics are new at the commit's moment.
   * Every table: the import's triggers write the search words and counters too. SQLite's planner
   * keeps no statistics here (nothing runs ANALYZE), so its plans do not move with the load.
   */
  async refreshStatisticsAfterImport(trx: Transaction<Database>, imported: number): Promise<void> {
    if (this.engine !== "postgres" || imported === 0) return;
    const { total } = await trx.selectFrom("memory_stats").select("total").where("id", "=", 1).executeTakeFirstOrThrow();
    if (imported * 10 >= Number(total)) await sql`analyze`.execute(trx);
  }

  /**
   * The box's own settings as an archive carries them (ADR 0065), or undefined when none is set.
   * The cover only while it is what the box allows (a still or a Live Photo of a memory): every
   * such photo is in the archive.
   */
  async box(): Promise<BoxSettingsValues | undefined> {
    const row = await this.db
      .selectFrom("box_settings")
      .leftJoin("photos", (join) =>
        join
          .onRef("photos.id", "=", "box_settings.cover_photo_id")
          .on("photos.memory_id", "is not", null)
          .on("photos.kind", "!=", "video"),
      )
      .select(["box_settings.name", "photos.id as cover_photo_id", "box_settings.together_since"])
      .where("box_settings.id", "=", 1)
      .executeTakeFirst();
    if (!row || nothingSet(row)) return undefined;
    return row;
  }

  /**
   * Sets the box's settings from an archive, inside the import's transaction, only where none is
   * set yet (no row, or one with nothing set): an import never renames someone's box. One
   * statement, so an owner's save at the same moment is either seen here or waits and wins.
   * Whether it set them.
   */
  async setBoxWhereUnset(
    trx: Transaction<Database>,
    values: {
      name: string | null;
      cover_photo_id: string | null;
      together_since: string | null;
      updated_at: string;
      updated_by: string;
    },
  ): Promise<boolean> {
    const result = await trx
      .insertInto("box_settings")
      .values({ id: 1, ...values })
      .onConflict((conflict) =>
        conflict
          .column("id")
          .doUpdateSet(values)
          .where("box_settings.name", "is", null)
          .where("box_settings.cover_photo_id", "is", null)
          .where("box_settings.together_since", "is", null),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Of these memory ids, those this instance holds. */
  existingMemoryIds(ids: string[]): Promise<Set<string>> {
    return this.existingIds("memories", ids);
  }

  /** Of these photo ids, those this instance holds. */
  existingPhotoIds(ids: string[]): Promise<Set<string>> {
    return this.existingIds("photos", ids);
  }

  /** Of these comment ids, those this instance holds. */
  existingCommentIds(ids: string[]): Promise<Set<string>> {
    return this.existingIds("comments", ids);
  }

  private async existingIds(table: "memories" | "photos" | "comments", ids: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (const batch of batches(ids)) {
      const rows = await this.db.selectFrom(table).select("id").where("id", "in", batch).execute();
      for (const row of rows) found.add(row.id);
      // SQLite's driver answers at once, so the awaits alone never let a request in: a lifetime's
      // archive asks hundreds of these, hundreds of milliseconds without the server's turn.
      await setImmediate();
    }
    return found;
  }

  /**
   * The member an operator's import runs as: the account of `email`, or without one the first
   * owner to have signed up.
   */
  async importerMember(email?: string): Promise<{ id: string; email: string } | undefined> {
    if (email !== undefined) {
      return this.db
        .selectFrom("users")
        .select(["id", "email"])
        .where((eb) => eb(eb.fn("lower", ["email"]), "=", email.toLowerCase()))
        .executeTakeFirst();
    }
    return this.db
      .selectFrom("invitations")
      .innerJoin("users", "users.id", "invitations.used_by")
      .select(["users.id", "users.email"])
      .where("invitations.role", "=", "owner")
      .orderBy("invitations.used_at")
      .orderBy("users.id")
      .executeTakeFirst();
  }

  /** Accounts by e-mail address (lower-cased), for matching an archive's authors. */
  async usersByEmail(emails: string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const batch of batches(emails.map((email) => email.toLowerCase()))) {
      const rows = await this.db
        .selectFrom("users")
        .select(["id", "email"])
        .where((eb) => eb(eb.fn("lower", ["email"]), "in", batch))
        .execute();
      for (const row of rows) found.set(row.email.toLowerCase(), row.id);
    }
    return found;
  }
}

/** SQLite allows a limited number of bound values in one statement. */
function* batches<T>(values: T[], size = 500): Generator<T[]> {
  for (let start = 0; start < values.length; start += size) yield values.slice(start, start + size);
}
