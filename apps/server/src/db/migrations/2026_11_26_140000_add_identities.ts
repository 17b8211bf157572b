import type { Kysely } from "kysely";
import { columnTypes } from "./dialect";

/**
 * OpenID Connect sign-in (ADR 0034): the provider identities linked to each account, the
 * sign-ins under way at a provider, and the ID tokens already used. The account row keeps a summary
 * of its identities (`users.linked_identities`, JSON), written in the same transaction as every
 * identity change, because Supabase Auth's user object carries them (as `users.mfa_factors` does
 * for factors).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await db.schema
    .createTable("identities")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    // The provider's id (as configured) and its subject (`sub`): one identity belongs to one account.
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("provider_id", "text", (c) => c.notNull())
    .addColumn("email", "text")
    .addColumn("identity_data", "text", (c) => c.notNull())
    .addColumn("last_sign_in_at", timestamp)
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("identities_provider_subject_idx")
    .on("identities")
    .columns(["provider", "provider_id"])
    .unique()
    .execute();
  await db.schema.createIndex("identities_user_idx").on("identities").column("user_id").execute();
  await db.schema
    .alterTable("users")
    .addColumn("linked_identities", "text", (c) => c.notNull().defaultTo("[]"))
    .execute();

  await db.schema
    .createTable("oauth_states")
    // SHA-256 of the `state` sent through the browser: the row alone cannot finish a sign-in.
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("nonce", "text", (c) => c.notNull())
    // PKCE towards the provider.
    .addColumn("code_verifier", "text", (c) => c.notNull())
    .addColumn("redirect_to", "text", (c) => c.notNull())
    // PKCE from the client (auth-js in the PKCE flow); null for the implicit flow.
    .addColumn("code_challenge", "text")
    .addColumn("code_challenge_method", "text")
    // Set when a signed-in member links the identity instead of signing in with it.
    .addColumn("link_user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("expires_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("oauth_states_expiry_idx").on("oauth_states").column("expires_at").execute();

  await db.schema
    .createTable("used_id_tokens")
    // SHA-256 of an ID token that already signed someone in: it is refused until it expires.
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("expires_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("used_id_tokens_expiry_idx").on("used_id_tokens").column("expires_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("used_id_tokens").execute();
  await db.schema.dropTable("oauth_states").execute();
  await db.schema.alterTable("users").dropColumn("linked_identities").execute();
  await db.schema.dropTable("identities").execute();
}
