import type { Kysely } from "kysely";
import { columnTypes } from "./dialect";

/**
 * The OAuth 2.1 server's registered clients (issue #36, ADR 0071): apps that may ask a member for
 * access, as Supabase Auth's admin API registers them. Only a confidential client's secret's hash
 * is kept; the secret itself is shown once, at registration or regeneration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await db.schema
    .createTable("oauth_clients")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("client_name", "text")
    .addColumn("client_uri", "text")
    .addColumn("logo_uri", "text")
    // JSON arrays of strings.
    .addColumn("redirect_uris", "text", (c) => c.notNull())
    .addColumn("grant_types", "text", (c) => c.notNull())
    // 'public' or 'confidential'.
    .addColumn("client_type", "text", (c) => c.notNull())
    // 'none', 'client_secret_basic' or 'client_secret_post'.
    .addColumn("token_endpoint_auth_method", "text", (c) => c.notNull())
    // 'manual' (the admin API) or 'dynamic'.
    .addColumn("registration_type", "text", (c) => c.notNull())
    // SHA-256 of the secret, base64url; null for a public client.
    .addColumn("client_secret_hash", "text")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("oauth_clients_created_idx").on("oauth_clients").columns(["created_at", "id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("oauth_clients").execute();
}
