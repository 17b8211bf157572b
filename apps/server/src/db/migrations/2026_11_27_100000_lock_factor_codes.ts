import type { Kysely } from "kysely";
import { columnTypes } from "./dialect";

/**
 * Authenticator codes can be guessed from many addresses, one challenge after another: each factor
 * counts the wrong codes typed for it in a window, and refuses codes once there are too many
 * (FactorsService.verify), whatever the challenge or the address.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await db.schema
    .alterTable("mfa_factors")
    .addColumn("failed_codes", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("mfa_factors").addColumn("failed_codes_since", timestamp).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("mfa_factors").dropColumn("failed_codes_since").execute();
  await db.schema.alterTable("mfa_factors").dropColumn("failed_codes").execute();
}
