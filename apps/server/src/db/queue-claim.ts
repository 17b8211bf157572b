import type { Kysely, Transaction } from "kysely";
import { relaxedDurabilityTransaction } from "./relaxed-transaction";
import type { Database } from "./schema";

/**
 * A poll's claim of the next due row of a queue (the mail and push outboxes, media jobs: ADR 0054,
 * 0077, 0089). `due` looks with a read, which takes no lock; only when a row is due does `claim`
 * write, in a transaction that commits without waiting for the disk (a claim lost in a power cut
 * only makes the row claimable again) and, on SQLite, without waiting for another process's
 * write lock: the poll runs every few seconds whether or not there is work, and each write would
 * otherwise take the write lock, or wait for it on the event loop while an import holds it.
 */
export async function claimWhenDue<T>(
  db: Kysely<Database>,
  due: (db: Kysely<Database>) => Promise<unknown>,
  claim: (trx: Transaction<Database>) => Promise<T | undefined>,
): Promise<T | undefined> {
  if ((await due(db)) === undefined) return undefined;
  // Inside a caller's transaction, the claim is part of it, as durable and as patient as it is.
  if (db.isTransaction) return claim(db as Transaction<Database>);
  return relaxedDurabilityTransaction(db, claim, { waitForWriteLock: false });
}
