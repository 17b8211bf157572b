import type { Kysely } from "kysely";
import { columnTypes } from "./dialect";

/**
 * Creates that may be sent again (ADR 0043): each `Idempotency-Key` a member sends with a create is
 * kept for a day with a fingerprint of the request and, once answered, the answer, so a retry whose
 * first answer was lost gets that answer back instead of a second memory or comment. Keys belong to
 * the member who sent them: one member's key never finds another's row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await db.schema
    .createTable("idempotency_keys")
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("key", "text", (c) => c.notNull())
    // SHA-256 of the method, path and body: the same key with another request is refused.
    .addColumn("fingerprint", "text", (c) => c.notNull())
    // Null while the first request is being answered; then its status, headers (JSON) and body.
    .addColumn("response_status", "integer")
    .addColumn("response_headers", "text")
    .addColumn("response_body", "text")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("expires_at", timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint("idempotency_keys_pkey", ["user_id", "key"])
    .execute();
  await db.schema.createIndex("idempotency_keys_expiry_idx").on("idempotency_keys").column("expires_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("idempotency_keys").execute();
}
