import { type Kysely, sql } from "kysely";
import { columnTypes } from "./dialect";

/**
 * The OAuth 2.1 server's authorization code flow (issue #36, ADR 0075): the requests a client
 * sends a member with (`oauth_authorizations`, ten minutes each, the code kept only as its
 * SHA-256), what a member agreed to give a client (`oauth_consents`, one active per member and
 * client), and, on a session issued through a client, which client and scopes it carries.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await db.schema
    .createTable("oauth_authorizations")
    .addColumn("id", "text", (c) => c.primaryKey())
    // Random and URL-safe: the consent page's address names it.
    .addColumn("authorization_id", "text", (c) => c.notNull().unique())
    .addColumn("client_id", "text", (c) => c.notNull().references("oauth_clients.id").onDelete("cascade"))
    // Bound to the first member who reads it.
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("redirect_uri", "text", (c) => c.notNull())
    // Space-separated.
    .addColumn("scope", "text", (c) => c.notNull())
    .addColumn("state", "text")
    .addColumn("code_challenge", "text", (c) => c.notNull())
    // Only 'S256' (OAuth 2.1).
    .addColumn("code_challenge_method", "text", (c) => c.notNull())
    // 'pending', 'approved', 'denied' or 'expired'.
    .addColumn("status", "text", (c) => c.notNull())
    // SHA-256 of the code (base64url), once approved; null again once exchanged.
    .addColumn("authorization_code_hash", "text", (c) => c.unique())
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("expires_at", timestamp, (c) => c.notNull())
    .addColumn("approved_at", timestamp)
    // When the code was exchanged: a second exchange ends the sessions it gave.
    .addColumn("used_at", timestamp)
    .execute();
  await db.schema
    .createTable("oauth_consents")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("client_id", "text", (c) => c.notNull().references("oauth_clients.id").onDelete("cascade"))
    // Space-separated.
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("granted_at", timestamp, (c) => c.notNull())
    .addColumn("revoked_at", timestamp)
    .execute();
  await db.schema
    .createIndex("oauth_consents_active_idx")
    .on("oauth_consents")
    .columns(["user_id", "client_id"])
    .unique()
    .where(sql.ref("revoked_at"), "is", null)
    .execute();
  await db.schema
    .alterTable("sessions")
    .addColumn("oauth_client_id", "text", (c) => c.references("oauth_clients.id").onDelete("cascade"))
    .execute();
  await db.schema.alterTable("sessions").addColumn("scope", "text").execute();
  // The authorization a session's code came from: a replayed code ends them.
  await db.schema
    .alterTable("sessions")
    .addColumn("oauth_authorization_id", "text", (c) => c.references("oauth_authorizations.id").onDelete("set null"))
    .execute();
  await db.schema.createIndex("sessions_oauth_client_idx").on("sessions").columns(["oauth_client_id", "user_id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("sessions_oauth_client_idx").execute();
  await db.schema.alterTable("sessions").dropColumn("oauth_authorization_id").execute();
  await db.schema.alterTable("sessions").dropColumn("scope").execute();
  await db.schema.alterTable("sessions").dropColumn("oauth_client_id").execute();
  await db.schema.dropTable("oauth_consents").execute();
  await db.schema.dropTable("oauth_authorizations").execute();
}
