import type { Kysely } from "kysely";
import { columnTypes } from "./dialect";

/**
 * The mail outbox (issue #37, ADR 0077): every mail the server sends is first a row here, written
 * in the transaction of the change that causes it where there is one, and sent by a worker that
 * leases rows like `media_jobs` (ADR 0054), so no request waits on the mail server and a mail
 * survives its outage and the server's restarts.
 *
 * `sealed` is the rendered mail (address, subject, bodies, headers) sealed with a key outside the
 * database; it is erased once the mail is sent or given up, and the row kept a week for health and
 * operators. `last_error` is a code (`ECONNECTION`, `smtp_550`), never the server's reply.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await db.schema
    .createTable("mail_outbox")
    .addColumn("id", "text", (c) => c.primaryKey())
    // What the mail is: magic_link, confirmation, notice.password_changed, invitation, digest...
    .addColumn("kind", "text", (c) => c.notNull())
    // Null once sent or given up.
    .addColumn("sealed", "text")
    // queued | sending | sent | rejected | failed
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("lease_owner", "text")
    .addColumn("lease_until", timestamp)
    // Not sent before this time: a retry's backoff.
    .addColumn("run_after", timestamp, (c) => c.notNull())
    .addColumn("last_error", "text")
    // When the last attempt ended, whatever its outcome.
    .addColumn("last_attempt_at", timestamp)
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("mail_outbox_due_idx").on("mail_outbox").columns(["state", "run_after", "created_at"]).execute();
  await db.schema.createIndex("mail_outbox_attempt_idx").on("mail_outbox").column("last_attempt_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("mail_outbox").execute();
}
