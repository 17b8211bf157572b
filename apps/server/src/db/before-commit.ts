import type { Transaction } from "kysely";
import type { Database } from "./schema";

/**
 * A step a caller adds to a write's transaction: run with what the write made, after its changes
 * and before the commit, so that it commits or rolls back with them. A create's Idempotency-Key
 * records its answer this way (ADR 0043): no create is committed without its answer.
 */
export type BeforeCommit<T> = (trx: Transaction<Database>, made: T) => Promise<void>;
