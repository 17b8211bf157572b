import { type Kysely, sql } from "kysely";
import { type MigrationResultSet, Migrator } from "kysely/migration";
import { migrations } from "./migrations";
import { isPostgres } from "./migrations/dialect";

/**
 * Migrations that first shipped under a name dated after the day they were committed, by that
 * old name. Their names now carry the day they were written, in the same order.
 */
export const renamedMigrations: Readonly<Record<string, string>> = {
  "2026_11_27_100000_count_responses_apart": "2026_11_26_130000_count_responses_apart",
  "2026_11_27_110000_add_identities": "2026_11_26_140000_add_identities",
  "2026_11_28_100000_add_sso_providers": "2026_11_26_150000_add_sso_providers",
};

/** Brings the schema up to date. Safe to call on every start: applied migrations are skipped. */
export async function migrateToLatest<DB>(db: Kysely<DB>): Promise<string[]> {
  await renameAppliedMigrations(db);
  const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
  const result: MigrationResultSet = await migrator.migrateToLatest();
  if (result.error !== undefined) {
    const failed = result.results?.find((r) => r.status === "Error")?.migrationName ?? "unknown";
    throw new Error(`Migration ${failed} failed`, { cause: result.error });
  }
  return (result.results ?? []).map((r) => r.migrationName);
}

/**
 * Kysely's migrator refuses to run when a migration it recorded as applied is no longer in the
 * list, so a database that applied a renamed migration under its old name would stop the server.
 * Its record takes the new name first (the timestamp stays, so the order does too), all in one
 * transaction; on a fresh database, or one already renamed, nothing changes.
 */
async function renameAppliedMigrations<DB>(db: Kysely<DB>): Promise<void> {
  if (!(await hasMigrationTable(db))) return;
  await db.transaction().execute(async (trx) => {
    for (const [oldName, newName] of Object.entries(renamedMigrations)) {
      await sql`update kysely_migration set name = ${newName} where name = ${oldName}`.execute(trx);
    }
  });
}

/** One catalogue lookup, not an introspection of every table and its columns at each start. */
async function hasMigrationTable<DB>(db: Kysely<DB>): Promise<boolean> {
  const query = isPostgres(db)
    ? sql<{ found: unknown }>`select to_regclass('kysely_migration') as found`
    : sql<{ found: unknown }>`select name as found from sqlite_master where type = 'table' and name = 'kysely_migration'`;
  const { rows } = await query.execute(db);
  return rows[0]?.found != null;
}

export const latestMigration = Object.keys(migrations).at(-1) ?? "none";
