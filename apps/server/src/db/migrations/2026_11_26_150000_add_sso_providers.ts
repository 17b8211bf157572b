import type { Kysely } from "kysely";
import { columnTypes } from "./dialect";

/**
 * SAML 2.0 single sign-on (ADR 0036): the identity providers an operator registered through the
 * admin API, and the e-mail domains each one signs in. A sign-in under way at one is an
 * `oauth_states` row, as for OpenID Connect providers.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await db.schema
    .createTable("sso_providers")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("resource_id", "text")
    // The identity provider's SAML entity ID: one registration per identity provider.
    .addColumn("entity_id", "text", (c) => c.notNull().unique())
    .addColumn("metadata_xml", "text", (c) => c.notNull())
    .addColumn("metadata_url", "text")
    // JSON object: which assertion attributes hold the e-mail address and name.
    .addColumn("attribute_mapping", "text", (c) => c.notNull())
    .addColumn("name_id_format", "text")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("sso_domains")
    // Lower-case; a domain belongs to one provider.
    .addColumn("domain", "text", (c) => c.primaryKey())
    .addColumn("sso_provider_id", "text", (c) => c.notNull().references("sso_providers.id").onDelete("cascade"))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sso_domains_provider_idx").on("sso_domains").column("sso_provider_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("sso_domains").execute();
  await db.schema.dropTable("sso_providers").execute();
}
