import { type Kysely, sql } from "kysely";
import { columnTypes } from "./dialect";

/**
 * Web Push notifications (issue #33, ADR 0059).
 *
 * `push_subscriptions`: one device's subscription, keyed by its session, so the subscription ends
 * with the session (sign-out, device revocation, password change, member removal) through the
 * foreign key. `endpoint` is unique: the same browser subscribing from a new session moves there.
 * `on_this_day_sent` is the device's local date "On this day" was last queued for.
 *
 * `push_notifications`: the durable outbox, one row per notification per device, leased like
 * `media_jobs` (ADR 0054). A row still `queued` gathers further changes by the same member
 * (`open_key` = the member's id, unique per device while queued, so concurrent writers merge
 * instead of adding a second row); `dedupe_key` makes "On this day" once per device per local day.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await db.schema
    .createTable("push_subscriptions")
    .addColumn("session_id", "text", (c) => c.primaryKey().references("sessions.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("endpoint", "text", (c) => c.notNull().unique())
    .addColumn("p256dh", "text", (c) => c.notNull())
    .addColumn("auth", "text", (c) => c.notNull())
    // JSON text: the device's PushPreferences.
    .addColumn("preferences", "text", (c) => c.notNull())
    .addColumn("on_this_day_sent", "text")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("push_subscriptions_user_idx").on("push_subscriptions").column("user_id").execute();

  await db.schema
    .createTable("push_notifications")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("session_id", "text", (c) => c.notNull().references("push_subscriptions.session_id").onDelete("cascade"))
    // The member whose changes these are; null for "On this day".
    .addColumn("actor_id", "text")
    // Set while queued (the actor's id): further changes by the actor join this row.
    .addColumn("open_key", "text")
    .addColumn("dedupe_key", "text", (c) => c.unique())
    // JSON text: counts per topic, the latest memory, its words (see NotificationContent).
    .addColumn("content", "text", (c) => c.notNull())
    // queued | running | sent | failed
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("lease_owner", "text")
    .addColumn("lease_until", timestamp)
    // Not sent before this time: the grouping window, quiet hours, a retry's backoff.
    .addColumn("run_after", timestamp, (c) => c.notNull())
    .addColumn("error_code", "text")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("push_notifications_open_idx")
    .on("push_notifications")
    .columns(["session_id", "open_key"])
    .unique()
    .where(sql.ref("open_key"), "is not", null)
    .execute();
  await db.schema
    .createIndex("push_notifications_due_idx")
    .on("push_notifications")
    .columns(["state", "run_after", "created_at"])
    .execute();
  await db.schema
    .createIndex("push_notifications_recent_idx")
    .on("push_notifications")
    .columns(["session_id", "actor_id", "created_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("push_notifications").execute();
  await db.schema.dropTable("push_subscriptions").execute();
}
