import type { Kysely } from "kysely";

/**
 * The language a member chose for Memory Box (a BCP 47 tag such as "de"), or null to follow the
 * browser (ADR 0049). Mails to the member are written in it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("locale", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("locale").execute();
}
