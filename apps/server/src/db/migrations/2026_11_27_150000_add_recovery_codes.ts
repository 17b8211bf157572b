import type { Kysely } from "kysely";
import { columnTypes } from "./dialect";

/**
 * Recovery codes for two-step verification (ADR 0042): a member who lost the phone gets in with
 * one. Each account has at most one set (`mfa_recovery_code_sets`, which also counts the wrong
 * codes typed), and its codes (`mfa_recovery_codes`), stored as a keyed hash, never in the clear;
 * a used code keeps its row with `used_at`, so how many are left can be told.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await db.schema
    .createTable("mfa_recovery_code_sets")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("failed_codes", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("failed_codes_since", timestamp)
    .execute();
  await db.schema
    .createTable("mfa_recovery_codes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("mfa_recovery_code_sets.user_id").onDelete("cascade"))
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("used_at", timestamp)
    .execute();
  await db.schema
    .createIndex("mfa_recovery_codes_user_hash_idx")
    .on("mfa_recovery_codes")
    .columns(["user_id", "code_hash"])
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("mfa_recovery_codes").execute();
  await db.schema.dropTable("mfa_recovery_code_sets").execute();
}
