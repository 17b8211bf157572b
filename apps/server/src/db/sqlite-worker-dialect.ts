import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import SQLite from "better-sqlite3";
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";

/** What the worker's connection is opened with, besides WAL and foreign keys. */
export interface SqliteWorkerOptions {
  /** `PRAGMA synchronous`: the server's own, so a commit reported is on disk. */
  synchronous: string;
  /** How long a statement waits inside SQLite for another connection's write lock (`busy_timeout`). */
  lockWaitMs: number;
  /** The page cache, as `PRAGMA cache_size` takes it (KiB when negative). */
  cacheSize: number;
}

// Runs in the worker: one connection, one statement at a time, in the order they were sent. A
// statement prepared once per SQL text, as the server's own connection does (withStatementCache).
// Automatic checkpoints are off: they stay with the server's background checkpointer.
const workerSource = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma("journal_mode = WAL");
db.pragma("synchronous = " + workerData.synchronous);
db.pragma("foreign_keys = ON");
db.pragma("wal_autocheckpoint = 0");
db.pragma("busy_timeout = " + workerData.lockWaitMs);
db.pragma("cache_size = " + workerData.cacheSize);
const statements = new Map();
const prepared = (text) => {
  let statement = statements.get(text);
  if (statement === undefined) {
    if (statements.size >= 200) statements.clear();
    statement = db.prepare(text);
    statements.set(text, statement);
  }
  return statement;
};
// Parameters arrive structured-cloned: a Buffer comes as a plain Uint8Array.
const bound = (value) => (value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value);
parentPort.on("message", ({ id, sql, parameters }) => {
  if (id === undefined) {
    db.close();
    parentPort.close();
    return;
  }
  try {
    const statement = prepared(sql);
    const values = parameters.map(bound);
    if (statement.reader) {
      parentPort.postMessage({ id, rows: statement.all(values) });
    } else {
      const { changes, lastInsertRowid } = statement.run(values);
      parentPort.postMessage({ id, rows: [], changes, lastInsertRowid });
    }
  } catch (error) {
    parentPort.postMessage({ id, error: { message: String(error && error.message), code: error && error.code } });
  }
});
`;

interface Answer {
  id: number;
  rows: Record<string, unknown>[];
  changes?: number;
  lastInsertRowid?: number | bigint;
  error?: { message: string; code?: string };
}

/**
 * Kysely on an SQLite connection that lives on a worker thread: every statement, the commit
 * included, runs off the event loop, which only sends it and awaits its answer. For a long write
 * inside the server (an import's save, ADR 0087): on the server's own connection, or on one of
 * the event loop's, each statement and the commit hold every request for as long as they run.
 * Transactions begin with `begin immediate`: the write lock is taken, or waited for in the worker,
 * at the start rather than when the first write needs it.
 */
export class SqliteWorkerDialect implements Dialect {
  constructor(
    private readonly file: string,
    private readonly options: SqliteWorkerOptions,
  ) {}

  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }

  createDriver(): Driver {
    return new SqliteWorkerDriver(this.file, this.options);
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }
}

class SqliteWorkerDriver implements Driver {
  private connection: SqliteWorkerConnection | undefined;
  // One connection, lent to one query or transaction at a time, as Kysely's own SQLite driver does.
  private lent: Promise<void> = Promise.resolve();
  private giveBack: (() => void) | undefined;

  constructor(
    private readonly file: string,
    private readonly options: SqliteWorkerOptions,
  ) {}

  async init(): Promise<void> {
    this.connection = new SqliteWorkerConnection(this.file, this.options);
    // The connection's settings are made on its first statement's turn: fail here, not in the work.
    await this.connection.executeQuery(CompiledQuery.raw("select 1"));
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    let giveBack!: () => void;
    const held = new Promise<void>((resolve) => (giveBack = resolve));
    const previous = this.lent;
    this.lent = previous.then(() => held);
    await previous;
    // Set once this caller holds the connection: the one `releaseConnection` gives back.
    this.giveBack = giveBack;
    if (this.connection === undefined) throw new Error("the SQLite worker's connection is closed");
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("rollback"));
  }

  async releaseConnection(): Promise<void> {
    this.giveBack?.();
  }

  async destroy(): Promise<void> {
    await this.connection?.close();
    this.connection = undefined;
  }
}

class SqliteWorkerConnection implements DatabaseConnection {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: (answer: Answer) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private failure: Error | undefined;
  private readonly exited: Promise<void>;

  constructor(file: string, options: SqliteWorkerOptions) {
    const driver = createRequire(import.meta.url).resolve("better-sqlite3");
    this.worker = new Worker(workerSource, { eval: true, workerData: { file, driver, ...options } });
    this.worker.on("message", (answer: Answer) => {
      const waiter = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      waiter?.resolve(answer);
    });
    // A worker that fails (it could not open the file, say) fails every statement still waiting.
    const fail = (error: Error) => {
      this.failure ??= error;
      for (const waiter of this.waiting.values()) waiter.reject(this.failure);
      this.waiting.clear();
    };
    this.worker.on("error", fail);
    this.exited = new Promise((resolve) =>
      this.worker.once("exit", (code) => {
        fail(new Error(`the SQLite worker exited with code ${code}`));
        resolve();
      }),
    );
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    if (this.failure) throw this.failure;
    const id = this.nextId++;
    const answer = await new Promise<Answer>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, sql: compiledQuery.sql, parameters: compiledQuery.parameters });
    });
    // The driver's own error, code and all, so callers tell a held lock or a constraint as before.
    if (answer.error) throw new SQLite.SqliteError(answer.error.message, answer.error.code ?? "SQLITE_ERROR");
    if (answer.changes === undefined) return { rows: answer.rows as R[] };
    return {
      rows: answer.rows as R[],
      numAffectedRows: BigInt(answer.changes),
      insertId: answer.lastInsertRowid === undefined ? undefined : BigInt(answer.lastInsertRowid),
    };
  }

  /** The whole result at once: a stream would cross the thread in as many messages. */
  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    yield await this.executeQuery<R>(compiledQuery);
  }

  async close(): Promise<void> {
    this.worker.postMessage({});
    await this.exited;
  }
}
