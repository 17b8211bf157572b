import { type Kysely, sql } from "kysely";

/**
 * A sign-up no longer sets the account's password: what the person chose (password hash and
 * profile data) waits on the sign-up's confirmation token, with the hash of a secret kept in a
 * cookie of the browser that signed up. Confirming from that browser applies it; a confirmation
 * from anywhere else discards it (ADR 0014).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Until now a sign-up wrote the password to the account before anyone proved the mailbox; such
  // passwords must not survive the owner's confirmation, so unconfirmed accounts lose theirs (the
  // owner sets one after confirming, or signs up again).
  await sql`update users set encrypted_password = null where email_confirmed_at is null`.execute(db);
  await db.schema.alterTable("one_time_tokens").addColumn("pending_password_hash", "text").execute();
  await db.schema.alterTable("one_time_tokens").addColumn("pending_user_metadata", "text").execute();
  await db.schema.alterTable("one_time_tokens").addColumn("browser_binding_hash", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("one_time_tokens").dropColumn("browser_binding_hash").execute();
  await db.schema.alterTable("one_time_tokens").dropColumn("pending_user_metadata").execute();
  await db.schema.alterTable("one_time_tokens").dropColumn("pending_password_hash").execute();
}
