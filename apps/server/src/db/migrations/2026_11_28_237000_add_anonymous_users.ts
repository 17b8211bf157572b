import type { Kysely } from "kysely";
import { columnTypes } from "./dialect";

/**
 * Anonymous sign-ins (issue #36, ADR 0072), for an open installation only: when an account signed
 * in without an address. As every flag of the auth tables, a nullable timestamp. Such an account's
 * `email` holds a placeholder under `.invalid` (RFC 2606), which no mailbox has.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await db.schema.alterTable("users").addColumn("anonymous_since", timestamp).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("anonymous_since").execute();
}
