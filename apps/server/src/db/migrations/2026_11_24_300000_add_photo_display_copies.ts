import type { Kysely } from "kysely";

/**
 * The metadata-free full-size copy that photo URLs serve instead of the original (ADR 0017).
 * Null for photos uploaded before display copies existed, until the server renders theirs in the
 * background; until then their URL serves the preview.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("photos").addColumn("display_key", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("photos").dropColumn("display_key").execute();
}
