import type { Kysely } from "kysely";

/**
 * When the member closed the first-run guide on home (ADR 0066), or null while it is still to be
 * shown. On the member's own row, so the guide does not come back on their other devices. Existing
 * members get null: they see the guide once too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("guide_dismissed_at", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("guide_dismissed_at").execute();
}
