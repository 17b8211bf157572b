import type { ExpressionBuilder, Kysely, Transaction } from "kysely";
import type { CommentRow, Database } from "../../db/schema";

/** A comment with its author's display name as it is now. */
export type CommentWithAuthor = CommentRow & { display_name: string | null };

/** A memory's reactions by emoji: how many, whether one member is among them, and who, first to react first. */
export interface ReactionTally {
  emoji: string;
  count: number;
  mine: boolean;
  by: { user_id: string; display_name: string }[];
}

/** Comments and reactions on memories. Counts for list pages are read with the pages (memories.repository.ts). */
export class CommentsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async memoryExists(memoryId: string): Promise<boolean> {
    const row = await this.db.selectFrom("memories").select("id").where("id", "=", memoryId).executeTakeFirst();
    return row !== undefined;
  }

  /** A memory's comments, oldest first (from comments_memory_idx). */
  async list(memoryId: string): Promise<CommentWithAuthor[]> {
    return this.selectWithAuthor()
      .where("comments.memory_id", "=", memoryId)
      .orderBy("comments.created_at")
      .orderBy("comments.id")
      .execute();
  }

  async find(memoryId: string, commentId: string): Promise<CommentWithAuthor | undefined> {
    return this.selectWithAuthor()
      .where("comments.id", "=", commentId)
      .where("comments.memory_id", "=", memoryId)
      .executeTakeFirst();
  }

  /** The comment as stored, with its author's name, from the insert itself. */
  async insert(comment: CommentRow, executor: Kysely<Database> = this.db): Promise<CommentWithAuthor> {
    return executor.insertInto("comments").values(comment).returning(this.returnedWithAuthor()).executeTakeFirstOrThrow();
  }

  /** The comment as stored, from the update itself; undefined when it is gone. */
  async updateBody(commentId: string, body: string, updatedAt: string): Promise<CommentWithAuthor | undefined> {
    return this.db
      .updateTable("comments")
      .set({ body, updated_at: updatedAt })
      .where("id", "=", commentId)
      .returning(this.returnedWithAuthor())
      .executeTakeFirst();
  }

  async delete(commentId: string): Promise<boolean> {
    const result = await this.db.deleteFrom("comments").where("id", "=", commentId).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /**
   * Tallies by emoji (in no particular order), from one range of reactions_pk. A memory has at most
   * six reactions per member, so its rows are read whole and counted here, names and all.
   */
  async reactions(memoryId: string, userId: string): Promise<ReactionTally[]> {
    const rows = await this.db
      .selectFrom("reactions")
      .leftJoin("profiles", "profiles.user_id", "reactions.user_id")
      .select(["reactions.emoji", "reactions.user_id", "profiles.display_name"])
      .where("reactions.memory_id", "=", memoryId)
      .orderBy("reactions.created_at")
      .orderBy("reactions.user_id")
      .execute();
    const tallies = new Map<string, ReactionTally>();
    for (const row of rows) {
      let tally = tallies.get(row.emoji);
      if (!tally) tallies.set(row.emoji, (tally = { emoji: row.emoji, count: 0, mine: false, by: [] }));
      tally.count += 1;
      tally.mine ||= row.user_id === userId;
      tally.by.push({ user_id: row.user_id, display_name: row.display_name ?? "" });
    }
    return [...tallies.values()];
  }

  /** False when the member had reacted so already. */
  async addReaction(memoryId: string, userId: string, emoji: string, createdAt: string): Promise<boolean> {
    const result = await this.db
      .insertInto("reactions")
      .values({ memory_id: memoryId, user_id: userId, emoji, created_at: createdAt })
      .onConflict((conflict) => conflict.columns(["memory_id", "emoji", "user_id"]).doNothing())
      .executeTakeFirst();
    return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }

  /** False when the member had not reacted so. */
  async removeReaction(memoryId: string, userId: string, emoji: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom("reactions")
      .where("memory_id", "=", memoryId)
      .where("user_id", "=", userId)
      .where("emoji", "=", emoji)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** A written comment's columns and its author's name (RETURNING cannot join, so a subquery). */
  private returnedWithAuthor() {
    return (eb: ExpressionBuilder<Database, "comments">) =>
      [
        "comments.id",
        "comments.memory_id",
        "comments.user_id",
        "comments.body",
        "comments.created_at",
        "comments.updated_at",
        eb
          .selectFrom("profiles")
          .select("profiles.display_name")
          .whereRef("profiles.user_id", "=", "comments.user_id")
          .as("display_name"),
      ] as const;
  }

  private selectWithAuthor() {
    return this.db
      .selectFrom("comments")
      .leftJoin("profiles", "profiles.user_id", "comments.user_id")
      .selectAll("comments")
      .select("profiles.display_name");
  }
}
