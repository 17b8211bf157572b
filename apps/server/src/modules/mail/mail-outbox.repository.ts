import type { ExpressionBuilder, Kysely } from "kysely";
import { claimWhenDue } from "../../db/queue-claim";
import type { Database, MailOutboxRow } from "../../db/schema";

/** How a mail's attempt ended: sent, refused for good, given up, or queued again at `retryAt`. */
export type MailOutcome = { state: "sent" | "rejected" | "failed" } | { state: "queued"; retryAt: string };

/** What health tells of the outbox. */
export interface MailQueueSummary {
  /** Mails queued or being sent. */
  waiting: number;
  /** When the oldest of them was queued. */
  oldestWaitingSince: string | null;
  /** When an attempt last failed (the mail server unreachable or refusing for now). */
  lastFailureAt: string | null;
  /** Whether the latest attempt, whichever process made it, failed. */
  latestAttemptFailed: boolean;
}

/** The table `mail_outbox` (ADR 0077). */
export class MailOutboxRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Queues a mail, in the caller's transaction when given one. */
  async insert(row: { id: string; kind: string; sealed: string; now: string }, db: Kysely<Database> = this.db): Promise<void> {
    await db
      .insertInto("mail_outbox")
      .values({
        id: row.id,
        kind: row.kind,
        sealed: row.sealed,
        state: "queued",
        attempts: 0,
        lease_owner: null,
        lease_until: null,
        run_after: row.now,
        last_error: null,
        last_attempt_at: null,
        created_at: row.now,
        updated_at: row.now,
      })
      .execute();
  }

  find(id: string): Promise<MailOutboxRow | undefined> {
    return this.db.selectFrom("mail_outbox").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /**
   * Takes the mail queued first of those due (queued and due, or being sent under an expired lease: its process
   * died) for `owner` until `leaseUntil`. One statement, `FOR UPDATE SKIP LOCKED` on PostgreSQL, so
   * two processes never take the same mail (as `media_jobs`, ADR 0054); SQLite has one process.
   */
  async claim(owner: string, now: string, leaseUntil: string): Promise<MailOutboxRow | undefined> {
    const claimable = (eb: ExpressionBuilder<Database, "mail_outbox">) =>
      eb.or([
        eb.and([eb("state", "=", "queued"), eb("run_after", "<=", now)]),
        eb.and([eb("state", "=", "sending"), eb("lease_until", "<", now)]),
      ]);
    return claimWhenDue(
      this.db,
      (db) => db.selectFrom("mail_outbox").select("id").where(claimable).orderBy("created_at").orderBy("id").limit(1),
      (trx, candidate) =>
        trx
          .updateTable("mail_outbox")
          .set((eb) => ({
            state: "sending",
            lease_owner: owner,
            lease_until: leaseUntil,
            attempts: eb("attempts", "+", 1),
            updated_at: now,
          }))
          .where("id", "=", candidate)
          .where(claimable)
          .returningAll()
          .executeTakeFirst(),
    );
  }

  /**
   * Records how the attempt on a mail `owner` holds ended. A mail sent, refused or given up loses
   * its content (its links are no longer anyone's business); `attempted` is false when it was
   * given up without trying (too old, unreadable).
   */
  async finish(
    id: string,
    owner: string,
    outcome: MailOutcome,
    error: string | null,
    now: string,
    attempted = true,
  ): Promise<boolean> {
    const done = outcome.state !== "queued";
    const result = await this.db
      .updateTable("mail_outbox")
      .set({
        state: outcome.state,
        ...(outcome.state === "queued" ? { run_after: outcome.retryAt } : {}),
        ...(done ? { sealed: null } : {}),
        last_error: error,
        ...(attempted ? { last_attempt_at: now } : {}),
        lease_owner: null,
        lease_until: null,
        updated_at: now,
      })
      .where("id", "=", id)
      .where("state", "=", "sending")
      .where("lease_owner", "=", owner)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** The mail server is back: every queued mail waiting out a backoff is due now. Returns how many. */
  async releaseWaiting(now: string): Promise<number> {
    const result = await this.db
      .updateTable("mail_outbox")
      .set({ run_after: now, updated_at: now })
      .where("state", "=", "queued")
      .where("run_after", ">", now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Gives up the queued mails queued before `before` (erasing them); returns how many. */
  async expire(before: string, now: string): Promise<number> {
    const result = await this.db
      .updateTable("mail_outbox")
      .set({ state: "failed", sealed: null, updated_at: now })
      .where("state", "=", "queued")
      .where("created_at", "<", before)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Removes the rows of mails finished (sent, refused, given up) before `before`; returns how many. */
  async pruneFinished(before: string): Promise<number> {
    const result = await this.db
      .deleteFrom("mail_outbox")
      .where("state", "in", ["sent", "rejected", "failed"])
      .where("updated_at", "<", before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async summary(): Promise<MailQueueSummary> {
    const [waiting, latest, lastFailure] = await Promise.all([
      this.db
        .selectFrom("mail_outbox")
        .select((eb) => [eb.fn.countAll<number>().as("count"), eb.fn.min("created_at").as("oldest")])
        .where("state", "in", ["queued", "sending"])
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom("mail_outbox")
        .select(["state", "last_error"])
        .where("last_attempt_at", "is not", null)
        .orderBy("last_attempt_at", "desc")
        .limit(1)
        .executeTakeFirst(),
      this.db
        .selectFrom("mail_outbox")
        .select((eb) => eb.fn.max("last_attempt_at").as("at"))
        .where("last_error", "is not", null)
        .where("state", "in", ["queued", "sending", "failed"])
        .executeTakeFirstOrThrow(),
    ]);
    return {
      waiting: Number(waiting.count),
      oldestWaitingSince: waiting.oldest ?? null,
      lastFailureAt: lastFailure.at ?? null,
      latestAttemptFailed:
        latest !== undefined && latest.last_error !== null && latest.state !== "sent" && latest.state !== "rejected",
    };
  }
}
