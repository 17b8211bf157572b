import { type QueryExecutorProvider, SqliteAdapter } from "kysely";

/**
 * Rows in batches for `executor`'s statements: at most 10,000 bound values a statement (rows ×
 * columns), within SQLite's limit (32,766) and PostgreSQL's (65,535), and large enough that a
 * statement's overhead is shared by hundreds of rows. On SQLite also at most
 * `sqliteRowsPerStatement` rows: its driver runs a statement on the event loop, and each row's
 * triggers (the search index, the counters) take a fraction of a millisecond, so a statement of
 * hundreds of rows would hold every request for 100 ms and more (ADR 0086); a statement there
 * costs no round trip (nor much more than one on a worker's connection, ADR 0087, which keeps the
 * cap). Every row has the first one's columns.
 */
export function* byBoundValues<T extends object>(rows: T[], executor: QueryExecutorProvider): Generator<T[]> {
  if (rows.length === 0) return;
  const byValues = Math.floor(maxValues / Object.keys(rows[0]!).length);
  const onSqlite = executor.getExecutor().adapter instanceof SqliteAdapter;
  const size = Math.max(1, onSqlite ? Math.min(byValues, sqliteRowsPerStatement) : byValues);
  for (let start = 0; start < rows.length; start += size) yield rows.slice(start, start + size);
}

const maxValues = 10_000;
const sqliteRowsPerStatement = 100;
