import type { Kysely } from "kysely";
import { createKeptCounts, dropKeptCounts, type KeptCounts } from "./kept-counts";

/**
 * `memory_tag_counts`: how many memories carry each tag (by its key, lower case), the matched
 * count of a filter on one tag. Counting the tag's index entries on each filter read grew with the
 * tag: at the lifetime benchmark's 1,000,000 memories (issue #37) the most common tag is on about
 * a third of them. Kept by triggers on `memory_tags`, like `memory_months` (a memory carries a tag
 * at most once).
 */
const memoryTagCounts: KeptCounts = {
  table: "memory_tag_counts",
  key: "tag_key",
  of: "memory_tags",
  keyOf: (row) => `${row}.tag_key`,
  changedBy: "tag_key",
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await createKeptCounts(db, memoryTagCounts);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropKeptCounts(db, memoryTagCounts);
}
