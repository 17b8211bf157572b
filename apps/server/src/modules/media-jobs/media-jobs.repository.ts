import { randomUUID } from "node:crypto";
import type { ExpressionBuilder, Kysely } from "kysely";
import { claimWhenDue } from "../../db/queue-claim";
import type { Database, MediaJobRow } from "../../db/schema";

/** The `media_jobs` table (ADR 0054): enqueue, claim under a lease, renew, finish. */
export class MediaJobsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async enqueue(kind: string, subjectId: string, now: string): Promise<MediaJobRow> {
    const row: MediaJobRow = {
      id: randomUUID(),
      subject_id: subjectId,
      kind,
      state: "queued",
      attempts: 0,
      progress: 0,
      lease_owner: null,
      lease_until: null,
      run_after: now,
      error_code: null,
      created_at: now,
      updated_at: now,
    };
    await this.db.insertInto("media_jobs").values(row).execute();
    return row;
  }

  find(id: string): Promise<MediaJobRow | undefined> {
    return this.db.selectFrom("media_jobs").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /**
   * Takes the oldest job of one of `kinds` that is queued and due, or running under a lease that
   * expired (its runner died), for `owner` until `leaseUntil`; undefined when there is none. A
   * read first, and a write only when a job is due (`claimWhenDue`). One statement takes it: SQLite
   * runs it alone (one writer at a time); on PostgreSQL the row is locked with `FOR UPDATE SKIP
   * LOCKED`, so two runners claiming at once take two different jobs.
   */
  async claim(kinds: string[], owner: string, now: string, leaseUntil: string): Promise<MediaJobRow | undefined> {
    if (kinds.length === 0) return undefined;
    const claimable = (eb: ExpressionBuilder<Database, "media_jobs">) =>
      eb.and([
        eb("kind", "in", kinds),
        eb.or([
          eb.and([eb("state", "=", "queued"), eb("run_after", "<=", now)]),
          eb.and([eb("state", "=", "running"), eb("lease_until", "<", now)]),
        ]),
      ]);
    return claimWhenDue(
      this.db,
      (db) => db.selectFrom("media_jobs").select("id").where(claimable).orderBy("created_at").orderBy("id").limit(1),
      (trx, candidate) =>
        trx
          .updateTable("media_jobs")
          .set((eb) => ({
            state: "running",
            lease_owner: owner,
            lease_until: leaseUntil,
            attempts: eb("attempts", "+", 1),
            error_code: null,
            updated_at: now,
          }))
          .where("id", "=", candidate)
          .where(claimable)
          .returningAll()
          .executeTakeFirst(),
    );
  }

  /**
   * Extends the lease of a job `owner` still holds, with its progress when given; false when the
   * lease was lost (it expired and another runner took the job), so the work should stop.
   */
  async renew(id: string, owner: string, now: string, leaseUntil: string, progress?: number): Promise<boolean> {
    const result = await this.db
      .updateTable("media_jobs")
      .set({ lease_until: leaseUntil, updated_at: now, ...(progress === undefined ? {} : { progress }) })
      .where("id", "=", id)
      .where("state", "=", "running")
      .where("lease_owner", "=", owner)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Marks a job `owner` holds as done; false when the lease was lost. */
  async complete(id: string, owner: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable("media_jobs")
      .set({ state: "done", progress: 1, lease_owner: null, lease_until: null, error_code: null, updated_at: now })
      .where("id", "=", id)
      .where("state", "=", "running")
      .where("lease_owner", "=", owner)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Records a failed attempt of a job `owner` holds: queued again, not before `retryAt`, or failed
   * for good when `retryAt` is null. False when the lease was lost.
   */
  async fail(id: string, owner: string, errorCode: string, now: string, retryAt: string | null): Promise<boolean> {
    const result = await this.db
      .updateTable("media_jobs")
      .set({
        state: retryAt === null ? "failed" : "queued",
        run_after: retryAt ?? now,
        error_code: errorCode,
        lease_owner: null,
        lease_until: null,
        updated_at: now,
      })
      .where("id", "=", id)
      .where("state", "=", "running")
      .where("lease_owner", "=", owner)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** The jobs for one subject, oldest first: what the web app shows as a video's progress. */
  forSubject(subjectId: string): Promise<MediaJobRow[]> {
    return this.db
      .selectFrom("media_jobs")
      .selectAll()
      .where("subject_id", "=", subjectId)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
  }

  /** Removes done and failed jobs last changed before `before` (what the web app showed of them is over); returns how many. */
  async pruneFinished(before: string): Promise<number> {
    const result = await this.db
      .deleteFrom("media_jobs")
      .where("state", "in", ["done", "failed"])
      .where("updated_at", "<", before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * After a restore, before any runner looks: jobs the snapshot caught running were cut by the
   * backup, not failed, so they are queued again at once (no lease to wait out) and the cut
   * attempt is not counted; and a row still waiting for its preparation (`status` processing)
   * without a queued or running job gets a new one of `kind`, so no video stays waiting forever.
   */
  async requeueAfterRestore(kind: string, now: string): Promise<{ requeued: number; enqueued: number }> {
    const requeued = await this.db
      .updateTable("media_jobs")
      .set((eb) => ({
        state: "queued",
        lease_owner: null,
        lease_until: null,
        run_after: now,
        updated_at: now,
        attempts: eb
          .case()
          .when("attempts", ">", 0)
          .then(eb("attempts", "-", 1))
          .else(0)
          .end(),
      }))
      .where("state", "=", "running")
      .executeTakeFirst();
    const waiting = await this.db
      .selectFrom("photos")
      .select("photos.id")
      .where("photos.status", "=", "processing")
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("media_jobs")
              .select("media_jobs.id")
              .whereRef("media_jobs.subject_id", "=", "photos.id")
              .where("media_jobs.state", "in", ["queued", "running"]),
          ),
        ),
      )
      .execute();
    for (const { id } of waiting) await this.enqueue(kind, id, now);
    return { requeued: Number(requeued.numUpdatedRows), enqueued: waiting.length };
  }
}
