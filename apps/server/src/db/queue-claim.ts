import type { Kysely, SelectQueryBuilder } from "kysely";
import { isPostgres } from "./migrations/dialect";
import { relaxedDurabilityTransaction } from "./relaxed-transaction";
import type { Database } from "./schema";

/** The id of a queue's next due row, as a query on `db`. */
export type DueRowQuery<TB extends keyof Database> = SelectQueryBuilder<Database, TB, { id: string }>;

/**
 * A poll's claim of the next due row of a queue (the mail and push outboxes, media jobs: ADR 0054,
 * 0077, 0089). `candidate` asks for the id of the next due row: first read as it is, which takes no
 * lock; only when a row is due does `claim` write (an update of that row, given `candidate` as its
 * subquery, locked `FOR UPDATE SKIP LOCKED` on PostgreSQL so two processes never take the same
 * row). The write commits without waiting for the disk (a claim lost in a power cut only makes the
 * row claimable again) and, on SQLite, without waiting for another process's write lock: the poll
 * runs every few seconds whether or not there is work, and each write would otherwise take the
 * write lock, or wait for it on the event loop while an import holds it.
 */
export async function claimWhenDue<TB extends keyof Database, T>(
  db: Kysely<Database>,
  candidate: (db: Kysely<Database>) => DueRowQuery<TB>,
  claim: (trx: Kysely<Database>, candidate: DueRowQuery<TB>) => Promise<T | undefined>,
): Promise<T | undefined> {
  if ((await candidate(db).executeTakeFirst()) === undefined) return undefined;
  const postgres = isPostgres(db);
  const claimIn = (trx: Kysely<Database>) => {
    const locked = postgres ? candidate(trx).forUpdate().skipLocked() : candidate(trx);
    return claim(trx, locked);
  };
  // Inside a caller's transaction, the claim is part of it, as durable and as patient as it is.
  if (db.isTransaction) return claimIn(db);
  return relaxedDurabilityTransaction(db, claimIn, { waitForWriteLock: false });
}
