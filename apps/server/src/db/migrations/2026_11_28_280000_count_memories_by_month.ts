import type { Kysely } from "kysely";
import { createKeptCounts, dropKeptCounts, type KeptCounts } from "./kept-counts";

/**
 * `memory_months`: how many memories each month of their sort key holds (`YYYY-MM`; undated ones
 * under "0000-00"), the timeline's counts without a filter. Grouping every memory's sort key on
 * each timeline read grew with the collection: at the lifetime benchmark's 1,000,000 memories
 * (issue #37) it read the whole sort-key index per request. Kept by triggers, like `memory_stats`;
 * an edit that keeps the month costs nothing.
 */
const memoryMonths: KeptCounts = {
  table: "memory_months",
  key: "month",
  of: "memories",
  keyOf: (row) => `substr(${row}.sort_key, 1, 7)`,
  changedBy: "sort_key",
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await createKeptCounts(db, memoryMonths);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropKeptCounts(db, memoryMonths);
}
