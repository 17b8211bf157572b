import { type Kysely, PostgresAdapter } from "kysely";

/**
 * The few column types that differ between the engines. Migrations use these so that one
 * ordered set of migrations builds the same schema on SQLite and PostgreSQL.
 */
export function columnTypes(db: Kysely<unknown>) {
  const postgres = isPostgres(db);
  return {
    postgres,
    /** Stored as ISO-8601 text on SQLite, which sorts and compares correctly as text. */
    timestamp: postgres ? ("timestamptz" as const) : ("text" as const),
    /** A calendar date without time zone, "YYYY-MM-DD". */
    date: postgres ? ("date" as const) : ("text" as const),
    json: postgres ? ("jsonb" as const) : ("text" as const),
    boolean: postgres ? ("boolean" as const) : ("integer" as const),
  };
}

export function isPostgres<DB>(db: Kysely<DB>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
