import type { Kysely } from "kysely";
import { columnTypes } from "./dialect";

/**
 * Six-digit codes can be guessed: each code counts its wrong guesses and dies at the fifth, and each
 * account counts the wrong codes typed for it across all its codes and addresses of origin, so a
 * guesser with many addresses is stopped too (EmailVerificationService.verify).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await db.schema
    .alterTable("one_time_tokens")
    .addColumn("failed_attempts", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("users")
    .addColumn("failed_verifications", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("users").addColumn("failed_verifications_since", timestamp).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("failed_verifications_since").execute();
  await db.schema.alterTable("users").dropColumn("failed_verifications").execute();
  await db.schema.alterTable("one_time_tokens").dropColumn("failed_attempts").execute();
}
