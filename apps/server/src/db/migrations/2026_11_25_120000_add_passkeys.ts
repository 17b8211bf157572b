import type { Kysely } from "kysely";
import { columnTypes } from "./dialect";

/**
 * WebAuthn (ADR 0025): passkeys, which sign a member in without a password, and the one-use
 * challenges of their ceremonies; and security keys as second factors, whose credential lives on
 * the factor row and whose challenge on the factor challenge row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await db.schema
    .createTable("passkeys")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    // base64url of the authenticator's credential id: how a sign-in finds its passkey.
    .addColumn("credential_id", "text", (c) => c.notNull().unique())
    .addColumn("public_key", "text", (c) => c.notNull())
    .addColumn("sign_count", "integer", (c) => c.notNull())
    .addColumn("transports", "text", (c) => c.notNull())
    .addColumn("friendly_name", "text", (c) => c.notNull())
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .addColumn("last_used_at", timestamp)
    .execute();
  await db.schema.createIndex("passkeys_user_idx").on("passkeys").column("user_id").execute();
  await db.schema
    .createTable("webauthn_challenges")
    .addColumn("id", "text", (c) => c.primaryKey())
    // Null for a sign-in: whose passkey answers is known only from the answer.
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("challenge", "text", (c) => c.notNull())
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("expires_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("webauthn_challenges_expiry_idx").on("webauthn_challenges").column("expires_at").execute();
  // A security key's credential (JSON: id, public key, counter, transports) once its factor is verified.
  await db.schema.alterTable("mfa_factors").addColumn("webauthn_credential", "text").execute();
  // The challenge sent to the authenticator for this factor challenge (base64url).
  await db.schema.alterTable("mfa_challenges").addColumn("webauthn_challenge", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("mfa_challenges").dropColumn("webauthn_challenge").execute();
  await db.schema.alterTable("mfa_factors").dropColumn("webauthn_credential").execute();
  await db.schema.dropTable("webauthn_challenges").execute();
  await db.schema.dropTable("passkeys").execute();
}
