import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import {
  Kysely,
  type LogEvent,
  type PostgresCursor,
  PostgresDialect,
  type PostgresPool,
  type PostgresPoolClient,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteStatement,
  sql,
  type Transaction,
} from "kysely";
import { LRUCache } from "lru-cache";
import type pg from "pg";
import type { DatabaseConfig } from "../config";
import type { Database } from "./schema";
import { SqliteWorkerDialect } from "./sqlite-worker-dialect";
import { WalCheckpointer } from "./wal-checkpointer";

export type Engine = DatabaseConfig["engine"];

export interface DatabaseHandle {
  db: Kysely<Database>;
  engine: Engine;
  /** Closes every connection; the handle is unusable afterwards. */
  destroy(): Promise<void>;
  /**
   * SQLite only: one instance setting, read at once on the connection itself, outside Kysely's
   * queue and query log, for a poll that must stay cheap (the access signal, ADR 0050). Throws
   * once the connection is closed.
   */
  readSettingNow?: (key: string) => string | undefined;
}

/**
 * Opens the configured database. Rows come back with the same JavaScript types on both engines
 * (timestamps as ISO strings, counts as numbers), so repositories never branch on the engine
 * to read a value.
 */
export interface OpenOptions {
  onIdleConnectionError?: (error: Error) => void;
  /** Called with every query's SQL (and a failed one's), for tests that count them. */
  onQuery?: (sql: string) => void;
  /**
   * SQLite: checkpoint the write-ahead log from a worker thread instead of inside commits on the
   * event loop (see WalCheckpointer). For the server; short-lived tools keep SQLite's default.
   */
  checkpointInBackground?: { onFailure: (error: Error) => void };
  /**
   * SQLite: how long a write waits for another process's write lock (an operator's import holds
   * it for its whole save) before it fails with SQLITE_BUSY, answered 503 with Retry-After. The
   * driver is synchronous: the wait stops the event loop, every request with it. Tools wait
   * `defaultSqliteLockWaitMs`; the server `serverSqliteLockWaitMs`.
   */
  writeLockWaitMs?: number;
}

/** How long a tool's write waits for another process's write lock on SQLite: a tool serves nothing meanwhile. */
export const defaultSqliteLockWaitMs = 5_000;

/**
 * How long the server's write waits for another process's write lock on SQLite, holding every
 * request meanwhile: long enough for another process's ordinary commit (a few milliseconds), short
 * enough that reads queued behind it still answer within 100 ms (issue #37, ADR 0085).
 */
export const serverSqliteLockWaitMs = 50;

export function openDatabase(config: DatabaseConfig, options: OpenOptions = {}): DatabaseHandle {
  const onQuery = options.onQuery;
  const log = onQuery ? { log: (event: LogEvent) => onQuery(event.query.sql) } : {};
  if (config.engine === "postgres") {
    const db = new Kysely<Database>({
      dialect: postgresDialect(config.url, options.onIdleConnectionError ?? (() => {})),
      ...log,
    });
    return { db, engine: config.engine, destroy: () => db.destroy() };
  }
  const connection = openSqlite(config.file, options.writeLockWaitMs ?? defaultSqliteLockWaitMs);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(connection) }), ...log });
  const readSettingNow = settingReader(connection);
  const checkpointing = options.checkpointInBackground;
  if (!checkpointing) return { db, engine: config.engine, destroy: () => db.destroy(), readSettingNow };
  connection.pragma("wal_autocheckpoint = 0");
  const checkpointer = new WalCheckpointer(config.file, (error) => {
    // Back to checkpoints inside commits: slower, but the log never grows without bound.
    if (connection.open) connection.pragma(`wal_autocheckpoint = ${sqliteAutoCheckpointPages}`);
    checkpointing.onFailure(error);
  });
  return {
    db,
    engine: config.engine,
    destroy: async () => {
      await checkpointer.stop();
      await db.destroy();
    },
    readSettingNow,
  };
}

/**
 * SQLite: runs `work` in a transaction on a connection of its own, on a worker thread, for a long
 * write inside the server (an import's save, ADR 0086, 0087). The server's connection runs one
 * query at a time, a whole transaction included: a save on it would hold every request until it
 * commits. On a connection of its own the server's reads go on beside the save (WAL), and its
 * writes wait their usual moment for the lock, then answer 503 with Retry-After (ADR 0085). On a
 * worker thread, each of the save's statements, its wait for the write lock and its commit (tens
 * of milliseconds for tens of thousands of memories: SQLite rewrites the log's checksums) run off
 * the event loop.
 */
export async function inOwnSqliteTransaction<T>(
  file: string,
  work: (trx: Transaction<Database>) => Promise<T>,
  lockWaitMs = ownTransactionLockWaitMs,
): Promise<T> {
  const db = new Kysely<Database>({
    dialect: new SqliteWorkerDialect(file, { synchronous: durableSqliteSynchronous, lockWaitMs, cacheSize: sqliteCacheKib }),
  });
  try {
    return await db.transaction().execute(work);
  } finally {
    await db.destroy();
  }
}

/** How long a save on its own connection waits for the write lock: other writes hold it for milliseconds. */
const ownTransactionLockWaitMs = 30_000;

/** Reads `instance_settings` by key with one statement, prepared on first use (after the migrations made the table). */
function settingReader(connection: SQLite.Database): (key: string) => string | undefined {
  let statement: SQLite.Statement<[string], string> | undefined;
  return (key) => {
    statement ??= connection.prepare<[string], string>("select value from instance_settings where key = ?").pluck();
    return statement.get(key);
  };
}

/** How every commit on SQLite waits for the disk, but session bookkeeping's (relaxed-transaction.ts). */
export const durableSqliteSynchronous = "full";

/** SQLite's page cache, in KiB when negative (its default is -2000). */
const sqliteCacheKib = -65_536;

/** SQLite's default: a commit that grows the log past this many pages checkpoints it. */
const sqliteAutoCheckpointPages = 1000;

function openSqlite(file: string, writeLockWaitMs: number): SQLite.Database {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const connection = new SQLite(file);
  // WAL lets readers run beside the writer; FULL syncs every commit to disk, so a power cut never
  // loses a memory that was reported saved.
  connection.pragma("journal_mode = WAL");
  connection.pragma(`synchronous = ${durableSqliteSynchronous}`);
  connection.pragma("foreign_keys = ON");
  connection.pragma(`busy_timeout = ${writeLockWaitMs}`);
  // 64 MB of pages kept in memory (SQLite's default is 2 MB): pages further down a search read
  // their memories, tags and photos by primary key all over the file, and with 100,000 memories
  // the default cache holds too little of it to spare those reads a trip through the OS.
  connection.pragma(`cache_size = ${sqliteCacheKib}`);
  return connection;
}

/** Distinct SQL texts kept prepared: the server's queries, times the page sizes of the `in (…)` lists. */
const statementCacheSize = 500;

/**
 * better-sqlite3 with one prepared statement per SQL text. Kysely's SQLite driver prepares every
 * query anew (parsing and planning it each time); the driver only calls `prepare` and `close` on
 * the database and `reader`, `all`, `run` and `iterate` on a statement, and runs one query at a
 * time on its single connection (a mutex, held for a whole stream or transaction), so a cached
 * statement is never asked to run while it is still running. SQLite re-prepares a statement by
 * itself when a migration changes the schema under it.
 */
export function withStatementCache(connection: SQLite.Database, capacity = statementCacheSize): SqliteDatabase {
  const statements = new LRUCache<string, SqliteStatement>({ max: capacity });
  return {
    prepare: (text) => {
      let statement = statements.get(text);
      if (statement === undefined) {
        statement = connection.prepare(text);
        statements.set(text, statement);
      }
      return statement;
    },
    close: () => {
      statements.clear();
      connection.close();
    },
  };
}

/** PostgreSQL type ids whose default parsing would differ from what SQLite returns. */
const pgTypeIds = { int8: 20, date: 1082, timestamp: 1114, timestamptz: 1184 } as const;

function postgresDialect(url: string, onIdleConnectionError: (error: Error) => void): PostgresDialect {
  return new PostgresDialect({
    pool: async () => {
      const pg = await loadPostgresDriver();
      const types = new pg.TypeOverrides();
      types.setTypeParser(pgTypeIds.int8, (value) => Number(value));
      types.setTypeParser(pgTypeIds.date, (value) => value);
      types.setTypeParser(pgTypeIds.timestamptz, (value) => new Date(value).toISOString());
      types.setTypeParser(pgTypeIds.timestamp, (value) => new Date(`${value}Z`).toISOString());
      const pool = new pg.Pool({
        connectionString: url,
        max: 10,
        types,
        // A database that does not answer (a network gap that drops packets) fails a request
        // waiting for a connection after this, as out of reach (503), instead of holding it.
        connectionTimeoutMillis: connectTimeoutMs,
        // TCP probes an idle connection, so one whose peer vanished without a word (a failover, a
        // NAT that forgot it) is dropped in time rather than handed to a request.
        keepAlive: true,
      });
      // An idle connection can be cut by the server (restart, failover, admin); the pool replaces it.
      // Without a listener that event would crash the process.
      pool.on("error", onIdleConnectionError);
      // A connection cut while checked out (under a query, between a transaction's queries, or in
      // the very chunk that finished connecting it) is an "error" event on the client, which the
      // pool listens to only while the client is idle: without a listener of its own for the
      // client's whole life it would crash the process. The query under way fails by itself, and
      // the client, no longer queryable, is dropped by the pool when released.
      pool.on("connect", (client) => client.on("error", () => {}));
      return withServerPreparedStatements(pool);
    },
  });
}

/**
 * The PostgreSQL driver, loaded when a PostgreSQL connection is first made: loading it costs a
 * process ~0.25 s (it wakes Node's fetch implementation to look for a Cloudflare runtime), which
 * the embedded SQLite default, and every operator command on it, should not pay.
 */
export async function loadPostgresDriver(): Promise<typeof pg> {
  return (await import("pg")).default;
}

/** SQL texts run as named statements on PostgreSQL, by text: see `prepareOnServer`. */
const serverStatementNames = new Map<string, string>();

/**
 * Runs this SQL text as a named statement on PostgreSQL from now on: each connection parses and
 * plans it once, then only binds and executes it. For the few statements every request runs
 * (see preparedQuery); a connection never forgets a named statement, so the set must stay small
 * and fixed, unlike the `in (…)` lists of other queries. SQLite prepares every text already.
 */
export function prepareOnServer(sqlText: string): void {
  if (!serverStatementNames.has(sqlText))
    serverStatementNames.set(sqlText, `memory_box_${createHash("sha256").update(sqlText).digest("hex").slice(0, 24)}`);
}

/** How long a request waits for a connection to PostgreSQL (a new one, or one of the pool's). */
export const connectTimeoutMs = 5_000;

/**
 * The pool as Kysely uses it, with the texts named by `prepareOnServer` sent as named statements,
 * and the driver's connection failures marked as the database out of reach
 * (`DatabaseUnreachableError`).
 */
function withServerPreparedStatements(pool: pg.Pool): PostgresPool {
  return {
    connect: async () => {
      const client = await pool.connect().catch(rethrowUnreachable);
      const query = (textOrCursor: string | PostgresCursor<unknown>, parameters: ReadonlyArray<unknown> = []) => {
        if (typeof textOrCursor !== "string") return client.query(textOrCursor as unknown as pg.Submittable);
        const name = serverStatementNames.get(textOrCursor);
        return client
          .query(name ? { name, text: textOrCursor, values: [...parameters] } : textOrCursor, [...parameters])
          .catch(rethrowUnreachable);
      };
      return { query: query as unknown as PostgresPoolClient["query"], release: () => client.release() };
    },
    end: () => pool.end(),
    options: pool.options,
  };
}

/**
 * The PostgreSQL driver's own words for a connection that failed, was cut, or timed out: it gives
 * these errors no code (a socket's errors carry theirs: ECONNREFUSED, ECONNRESET…, and the
 * server's its SQLSTATE, 57P01 when an administrator or a shutdown ends the connection).
 */
const driverConnectionFailures = new Set([
  "Connection terminated unexpectedly",
  "Connection terminated",
  "Connection terminated due to connection timeout",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error and is not queryable",
  "Client was closed and is not queryable",
  "Cannot use a pool after calling end on the pool",
  "timeout expired",
]);

/**
 * The database did not answer: its connection failed, was cut, or timed out. Its code is
 * PostgreSQL's `connection_failure` (08006), which `classifyError` answers as out of reach
 * (503 with Retry-After, ADR 0073); the driver's error is its cause.
 */
export class DatabaseUnreachableError extends Error {
  readonly code = "08006";

  constructor(cause: Error) {
    super(`the database is out of reach: ${cause.message}`, { cause });
    this.name = "DatabaseUnreachableError";
  }
}

/** Whether `error` is one of the driver's connection failures (which carry no code of their own). */
export function isDriverConnectionFailure(error: unknown): error is Error {
  return error instanceof Error && !("code" in error && error.code) && driverConnectionFailures.has(error.message);
}

function rethrowUnreachable(error: unknown): never {
  throw isDriverConnectionFailure(error) ? new DatabaseUnreachableError(error) : error;
}

/** A round trip to the database; throws when it cannot answer. */
export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
