import { randomUUID } from "node:crypto";
import type { ExpressionBuilder, Kysely } from "kysely";
import { claimWhenDue } from "../../db/queue-claim";
import { relaxedDurabilityTransaction } from "../../db/relaxed-transaction";
import type { Database, PushNotificationRow, PushSubscriptionRow } from "../../db/schema";

export interface NewSubscription {
  sessionId: string;
  userId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  preferences: string;
  onThisDaySent: string | null;
  now: string;
}

/** A row of the outbox with the device it is for and the recipient's language. */
export interface DeliveryTarget {
  subscription: PushSubscriptionRow;
  locale: string | null;
}

/** The tables `push_subscriptions` and `push_notifications` (ADR 0059). */
export class NotificationsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findSubscription(sessionId: string): Promise<PushSubscriptionRow | undefined> {
    return this.db.selectFrom("push_subscriptions").selectAll().where("session_id", "=", sessionId).executeTakeFirst();
  }

  /**
   * The session's subscription, created or replaced. The same endpoint under another session (the
   * browser signed in again, or another account in it) moves here: one device, one subscription.
   */
  async putSubscription(row: NewSubscription): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom("push_subscriptions")
        .where("endpoint", "=", row.endpoint)
        .where("session_id", "!=", row.sessionId)
        .execute();
      const values = {
        endpoint: row.endpoint,
        p256dh: row.p256dh,
        auth: row.auth,
        preferences: row.preferences,
        updated_at: row.now,
      };
      await trx
        .insertInto("push_subscriptions")
        .values({
          session_id: row.sessionId,
          user_id: row.userId,
          on_this_day_sent: row.onThisDaySent,
          created_at: row.now,
          ...values,
        })
        .onConflict((conflict) => conflict.column("session_id").doUpdateSet(values))
        .execute();
    });
  }

  /** True when there was one. Its queued notifications go with it (foreign key). */
  async deleteSubscription(sessionId: string): Promise<boolean> {
    const result = await this.db.deleteFrom("push_subscriptions").where("session_id", "=", sessionId).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** Every member's devices but `exceptUserId`'s (or only `onlyUserId`'s). */
  subscriptionsFor(filter: { exceptUserId: string; onlyUserId?: string | null }): Promise<PushSubscriptionRow[]> {
    let query = this.db.selectFrom("push_subscriptions").selectAll().where("user_id", "!=", filter.exceptUserId);
    if (filter.onlyUserId) query = query.where("user_id", "=", filter.onlyUserId);
    return query.execute();
  }

  allSubscriptions(): Promise<PushSubscriptionRow[]> {
    return this.db.selectFrom("push_subscriptions").selectAll().execute();
  }

  /** Marks "On this day" as handled for the device's local `day`; false when another process did first. */
  async claimOnThisDay(sessionId: string, day: string): Promise<boolean> {
    const result = await this.db
      .updateTable("push_subscriptions")
      .set({ on_this_day_sent: day })
      .where("session_id", "=", sessionId)
      .where((eb) => eb.or([eb("on_this_day_sent", "is", null), eb("on_this_day_sent", "!=", day)]))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** The device's notification still gathering `actorId`'s changes (queued, not yet taken). */
  findOpen(sessionId: string, actorId: string): Promise<PushNotificationRow | undefined> {
    return this.db
      .selectFrom("push_notifications")
      .selectAll()
      .where("session_id", "=", sessionId)
      .where("open_key", "=", actorId)
      .executeTakeFirst();
  }

  /** The device's latest notification of `actorId`'s changes due at or after `since`. */
  latestSince(sessionId: string, actorId: string, since: string): Promise<PushNotificationRow | undefined> {
    return this.db
      .selectFrom("push_notifications")
      .selectAll()
      .where("session_id", "=", sessionId)
      .where("actor_id", "=", actorId)
      .where("run_after", ">=", since)
      .orderBy("run_after", "desc")
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * Replaces an open notification's content if nobody changed or took it since it was read
   * (`previous` is its content then); false otherwise, and the caller reads again.
   */
  async updateOpen(id: string, previous: string, content: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable("push_notifications")
      .set({ content, updated_at: now })
      .where("id", "=", id)
      .where("state", "=", "queued")
      .where("open_key", "is not", null)
      .where("content", "=", previous)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Adds a queued notification; false when the device already has an open one for the actor, or
   * one with the same `dedupeKey` (another writer was first).
   */
  async insert(row: {
    sessionId: string;
    actorId: string | null;
    open: boolean;
    dedupeKey: string | null;
    content: string;
    runAfter: string;
    now: string;
  }): Promise<boolean> {
    const inserted = await this.db
      .insertInto("push_notifications")
      .values({
        id: randomUUID(),
        session_id: row.sessionId,
        actor_id: row.actorId,
        open_key: row.open ? row.actorId : null,
        dedupe_key: row.dedupeKey,
        content: row.content,
        state: "queued",
        attempts: 0,
        lease_owner: null,
        lease_until: null,
        run_after: row.runAfter,
        error_code: null,
        created_at: row.now,
        updated_at: row.now,
      })
      .onConflict((conflict) => conflict.doNothing())
      .executeTakeFirst();
    return (inserted.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }

  /**
   * Of `sessionIds`, the devices that have a notification of `actorId`'s changes open or due since
   * `since`: a change joins those one by one; every other device gets a new row in one statement.
   */
  async groupedDevices(actorId: string, sessionIds: string[], since: string): Promise<Set<string>> {
    if (sessionIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom("push_notifications")
      .select("session_id")
      .distinct()
      .where("actor_id", "=", actorId)
      .where("session_id", "in", sessionIds)
      .where((eb) => eb.or([eb("open_key", "is not", null), eb("run_after", ">=", since)]))
      .execute();
    return new Set(rows.map((row) => row.session_id));
  }

  /** Adds an open notification for each device in one statement; returns the devices it was added for. */
  async insertOpenMany(
    rows: { sessionId: string; actorId: string; content: string; runAfter: string }[],
    now: string,
  ): Promise<Set<string>> {
    if (rows.length === 0) return new Set();
    const inserted = await this.db
      .insertInto("push_notifications")
      .values(
        rows.map((row) => ({
          id: randomUUID(),
          session_id: row.sessionId,
          actor_id: row.actorId,
          open_key: row.actorId,
          dedupe_key: null,
          content: row.content,
          state: "queued" as const,
          attempts: 0,
          lease_owner: null,
          lease_until: null,
          run_after: row.runAfter,
          error_code: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .onConflict((conflict) => conflict.doNothing())
      .returning("session_id")
      .execute();
    return new Set(inserted.map((row) => row.session_id));
  }

  find(id: string): Promise<PushNotificationRow | undefined> {
    return this.db.selectFrom("push_notifications").selectAll().where("id", "=", id).executeTakeFirst();
  }

  forSession(sessionId: string): Promise<PushNotificationRow[]> {
    return this.db
      .selectFrom("push_notifications")
      .selectAll()
      .where("session_id", "=", sessionId)
      .orderBy("created_at")
      .execute();
  }

  /**
   * Takes the oldest due notification (queued and due, or running under an expired lease), closing
   * it to further changes, for `owner` until `leaseUntil`. As `media_jobs`' claim (ADR 0054): one
   * statement, `FOR UPDATE SKIP LOCKED` on PostgreSQL, so two runners never take the same row.
   */
  async claim(owner: string, now: string, leaseUntil: string): Promise<PushNotificationRow | undefined> {
    const claimable = (eb: ExpressionBuilder<Database, "push_notifications">) =>
      eb.or([
        eb.and([eb("state", "=", "queued"), eb("run_after", "<=", now)]),
        eb.and([eb("state", "=", "running"), eb("lease_until", "<", now)]),
      ]);
    return claimWhenDue(
      this.db,
      (db) => db.selectFrom("push_notifications").select("id").where(claimable).orderBy("run_after").orderBy("id").limit(1),
      (trx, candidate) =>
        trx
          .updateTable("push_notifications")
          .set((eb) => ({
            state: "running",
            open_key: null,
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

  /** Records the outcome of a notification `owner` holds: sent, failed for good, or queued again at `retryAt`. */
  async finish(
    id: string,
    owner: string,
    outcome: { state: "sent" | "failed" } | { state: "queued"; retryAt: string },
    errorCode: string | null,
    now: string,
  ): Promise<boolean> {
    // An outcome lost in a power cut makes the row run again (a repeat shows once on the device, by
    // its tag): it commits without waiting for the disk, as the claim does.
    const result = await relaxedDurabilityTransaction(this.db, (trx) =>
      trx
        .updateTable("push_notifications")
        .set({
          state: outcome.state,
          ...(outcome.state === "queued" ? { run_after: outcome.retryAt } : {}),
          error_code: errorCode,
          lease_owner: null,
          lease_until: null,
          updated_at: now,
        })
        .where("id", "=", id)
        .where("state", "=", "running")
        .where("lease_owner", "=", owner)
        .executeTakeFirst(),
    );
    return result.numUpdatedRows > 0n;
  }

  /** The recipient's device and language for a notification. */
  async target(sessionId: string): Promise<DeliveryTarget | undefined> {
    const row = await this.db
      .selectFrom("push_subscriptions")
      .innerJoin("users", "users.id", "push_subscriptions.user_id")
      .selectAll("push_subscriptions")
      .select("users.locale")
      .where("push_subscriptions.session_id", "=", sessionId)
      .executeTakeFirst();
    if (!row) return undefined;
    const { locale, ...subscription } = row;
    return { subscription, locale };
  }

  /** What a notification calls a member: their display name, or their address's local part. */
  async nameOf(userId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom("users")
      .leftJoin("profiles", "profiles.user_id", "users.id")
      .select(["users.email", "profiles.display_name"])
      .where("users.id", "=", userId)
      .executeTakeFirst();
    if (!row) return undefined;
    return row.display_name?.trim() || row.email.split("@")[0] || row.email;
  }

  memory(id: string): Promise<{ title: string; user_id: string | null } | undefined> {
    return this.db.selectFrom("memories").select(["title", "user_id"]).where("id", "=", id).executeTakeFirst();
  }

  /** Removes notifications sent or failed before `before`; returns how many. */
  async pruneFinished(before: string): Promise<number> {
    const result = await this.db
      .deleteFrom("push_notifications")
      .where("state", "in", ["sent", "failed"])
      .where("updated_at", "<", before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
