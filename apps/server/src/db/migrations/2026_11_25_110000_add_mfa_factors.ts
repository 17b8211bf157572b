import type { Kysely } from "kysely";
import { columnTypes } from "./dialect";

/**
 * Second factors (ADR 0022): each account's TOTP factors and the challenges issued for them. The
 * account row keeps a summary of its factors (`users.mfa_factors`, JSON, no secrets), written in the
 * same transaction as every factor change, because Supabase Auth's user object carries them: every
 * session answer, refreshes included, stays one read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await db.schema
    .createTable("mfa_factors")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("friendly_name", "text", (c) => c.notNull())
    .addColumn("factor_type", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("secret", "text")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .addColumn("last_challenged_at", timestamp)
    // The 30 s step of the last accepted code: a code is accepted once, never replayed.
    .addColumn("last_used_step", "integer")
    .execute();
  await db.schema
    .createIndex("mfa_factors_user_name_idx")
    .on("mfa_factors")
    .columns(["user_id", "friendly_name"])
    .unique()
    .execute();
  await db.schema
    .createTable("mfa_challenges")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("factor_id", "text", (c) => c.notNull().references("mfa_factors.id").onDelete("cascade"))
    .addColumn("ip", "text")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("verified_at", timestamp)
    .addColumn("failed_attempts", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("mfa_challenges_factor_idx").on("mfa_challenges").column("factor_id").execute();
  await db.schema
    .alterTable("users")
    .addColumn("mfa_factors", "text", (c) => c.notNull().defaultTo("[]"))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("mfa_factors").execute();
  await db.schema.dropTable("mfa_challenges").execute();
  await db.schema.dropTable("mfa_factors").execute();
}
