import type { Kysely } from "kysely";
import { columnTypes } from "./dialect";

/**
 * Wrong passwords, counted per address in the database (so across server processes): after ten,
 * each further attempt for that address waits, twice as long each time, up to 15 minutes
 * (PasswordSignInService.signIn, ADR 0015). Keyed by a hash of the address, not by account,
 * so an address without an account is slowed down the same way and the answers reveal nothing;
 * the addresses people typed are not kept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await db.schema
    .createTable("password_failures")
    .addColumn("address_hash", "text", (c) => c.primaryKey())
    .addColumn("failures", "integer", (c) => c.notNull())
    .addColumn("last_failed_at", timestamp, (c) => c.notNull())
    .addColumn("retry_at", timestamp)
    .execute();
  await db.schema.createIndex("password_failures_last_failed_at_idx").on("password_failures").column("last_failed_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("password_failures").execute();
}
