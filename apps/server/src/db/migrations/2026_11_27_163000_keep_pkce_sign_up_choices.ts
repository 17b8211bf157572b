import type { Kysely } from "kysely";

/**
 * A sign-up made with a PKCE code challenge keeps its chosen password and profile data on its flow
 * (ADR 0046): they become the account's when the flow's auth code is exchanged with the matching
 * verifier, which only the client that signed up has, after its link proved the mailbox.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("flow_states").addColumn("pending_password_hash", "text").execute();
  await db.schema.alterTable("flow_states").addColumn("pending_user_metadata", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("flow_states").dropColumn("pending_user_metadata").execute();
  await db.schema.alterTable("flow_states").dropColumn("pending_password_hash").execute();
}
