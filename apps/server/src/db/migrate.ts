import type { Kysely } from "kysely";
import { type MigrationResultSet, Migrator } from "kysely/migration";
import { migrations } from "./migrations";

/** Brings the schema up to date. Safe to call on every start: applied migrations are skipped. */
export async function migrateToLatest<DB>(db: Kysely<DB>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
  const result: MigrationResultSet = await migrator.migrateToLatest();
  if (result.error !== undefined) {
    const failed = result.results?.find((r) => r.status === "Error")?.migrationName ?? "unknown";
    throw new Error(`Migration ${failed} failed`, { cause: result.error });
  }
  return (result.results ?? []).map((r) => r.migrationName);
}

export const latestMigration = Object.keys(migrations).at(-1) ?? "none";
