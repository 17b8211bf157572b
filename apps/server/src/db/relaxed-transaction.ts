import { type Kysely, PostgresAdapter, sql, type Transaction } from "kysely";
import { durableSqliteSynchronous } from "./database";
import type { Database } from "./schema";

/**
 * A transaction that commits without waiting for the disk: for session bookkeeping (a refresh
 * token's rotation, a new session), whose loss in a power cut or OS crash costs a device one
 * sign-in, never a memory. It is atomic as ever and survives a crash of the server process; a
 * power cut can lose it (and only it, with others like it) until the next durable commit or
 * checkpoint writes it out. Memories, photos, accounts and invitations always commit durably.
 *
 * SQLite's fsync runs on the event loop (the driver is synchronous), so a durable commit stops
 * every other request for its length (~0.25 ms on a virtual disk); rotations would queue behind
 * one another. SQLite: `synchronous = NORMAL` around this transaction only (it may not change
 * inside one), holding the single connection throughout so no other statement runs with it.
 * PostgreSQL: `synchronous_commit = off` for this transaction.
 */
export function relaxedDurabilityTransaction<T>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>) => Promise<T>,
  options: RelaxedTransactionOptions = {},
): Promise<T> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    return db.transaction().execute(async (trx) => {
      await sql`set local synchronous_commit = off`.execute(trx);
      return work(trx);
    });
  }
  return db.connection().execute(async (connection) => {
    await sql`pragma synchronous = normal`.execute(connection);
    const lockWait = options.waitForWriteLock === false ? await lockWaitOf(connection) : undefined;
    if (lockWait !== undefined) await sql`pragma busy_timeout = 0`.execute(connection);
    try {
      return await connection.transaction().execute(work);
    } finally {
      await sql.raw(`pragma synchronous = ${durableSqliteSynchronous}`).execute(connection);
      if (lockWait !== undefined) await sql.raw(`pragma busy_timeout = ${lockWait}`).execute(connection);
    }
  });
}

export interface RelaxedTransactionOptions {
  /**
   * SQLite: false for a poll's write (a queue's claim), which another process's write lock (an
   * operator's import, for minutes) fails at once with SQLITE_BUSY instead of holding the event
   * loop, and every request, for the connection's lock wait (ADR 0085): the next poll tries again.
   * PostgreSQL waits for locks off the event loop, and ignores it.
   */
  waitForWriteLock?: boolean;
}

/** The connection's `busy_timeout`, in ms. */
async function lockWaitOf(connection: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(connection);
  return Number(rows[0]?.timeout ?? 0);
}
