import type { Kysely } from "kysely";
import type { Database, IdempotencyKeyRow } from "../../db/schema";

/** What a create's answer leaves for a retry: its status, the headers it carried, its body. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A key a request holds: the member's, and when the request claimed it. The claim's time marks it
 * as this request's: a retry that takes the key over later gives it a time of its own, so the first
 * request can no longer answer or free it.
 */
export interface HeldKey {
  userId: string;
  key: string;
  claimedAt: string;
}

/** The `idempotency_keys` table (ADR 0043): each member's keys, their requests' fingerprints and answers. */
export class IdempotencyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Records the key as being answered now, for this member and request; false when the member has
   * the key already (the row is then read with `find`). Expired keys (anyone's) are dropped on the
   * way, so an expired key is free again and the table holds a day of keys at most.
   */
  async claim(userId: string, key: string, fingerprint: string, now: string, expiresAt: string): Promise<boolean> {
    await this.prune(now);
    const result = await this.db
      .insertInto("idempotency_keys")
      .values({ user_id: userId, key, fingerprint, created_at: now, expires_at: expiresAt })
      .onConflict((conflict) => conflict.columns(["user_id", "key"]).doNothing())
      .executeTakeFirst();
    return Boolean(result.numInsertedOrUpdatedRows);
  }

  find(userId: string, key: string): Promise<IdempotencyKeyRow | undefined> {
    return this.db
      .selectFrom("idempotency_keys")
      .selectAll()
      .where("user_id", "=", userId)
      .where("key", "=", key)
      .executeTakeFirst();
  }

  /**
   * Takes over a key whose request began before `abandonedBefore` and never recorded an answer (its
   * process ended mid-request); false when another request took it first or it was answered.
   */
  async takeOver(userId: string, key: string, fingerprint: string, abandonedBefore: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable("idempotency_keys")
      .set({ created_at: now })
      .where("user_id", "=", userId)
      .where("key", "=", key)
      .where("fingerprint", "=", fingerprint)
      .where("response_status", "is", null)
      .where("created_at", "<", abandonedBefore)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Keeps the first answer, for the retries of the day; false when the key is no longer this
   * request's (taken over, or answered). Run inside the create's transaction (`executor`), the
   * answer commits or rolls back with what it answers.
   */
  async answer(held: HeldKey, answer: StoredAnswer, executor: Kysely<Database> = this.db): Promise<boolean> {
    const result = await executor
      .updateTable("idempotency_keys")
      .set({ response_status: answer.status, response_headers: JSON.stringify(answer.headers), response_body: answer.body })
      .where("user_id", "=", held.userId)
      .where("key", "=", held.key)
      .where("created_at", "=", held.claimedAt)
      .where("response_status", "is", null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Frees a key whose request created nothing (it was refused or failed), so a retry runs again.
   * A key that was answered (its create committed, whatever became of the request afterwards) or
   * taken over by a retry is left as it is.
   */
  async release(held: HeldKey): Promise<void> {
    await this.db
      .deleteFrom("idempotency_keys")
      .where("user_id", "=", held.userId)
      .where("key", "=", held.key)
      .where("created_at", "=", held.claimedAt)
      .where("response_status", "is", null)
      .execute();
  }

  /** Drops the keys that expired; how many. */
  async prune(now: string): Promise<number> {
    const result = await this.db.deleteFrom("idempotency_keys").where("expires_at", "<=", now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
