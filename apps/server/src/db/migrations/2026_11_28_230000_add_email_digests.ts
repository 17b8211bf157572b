import type { Kysely } from "kysely";
import { columnTypes } from "./dialect";

/**
 * The e-mail digest (issue #33, ADR 0060): one row per member who ever chose a digest, with how
 * often (`off` | `daily` | `weekly`), on whose clock (`time_zone`), what the next digest covers
 * (memories added after `since`) and the last period done (`period`, the local date the digest
 * belonged to). A sending process claims a period under a lease (`claimed_by`, `claimed_until`);
 * a failed send waits for `retry_after`. The row goes with the member's account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await db.schema
    .createTable("email_digests")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("frequency", "text", (c) => c.notNull())
    .addColumn("time_zone", "text", (c) => c.notNull())
    .addColumn("since", timestamp, (c) => c.notNull())
    // "YYYY-MM-DD": the member's local date of the last digest done (sent, or nothing to send).
    .addColumn("period", "text")
    .addColumn("claimed_by", "text")
    .addColumn("claimed_until", timestamp)
    // Failed sends in a row, for the backoff; 0 after a digest is done.
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("retry_after", timestamp)
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("email_digests").execute();
}
