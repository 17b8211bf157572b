import { GenerationCache } from "../../lib/generation-cache";
import type { PreparedJson } from "../../lib/prepared-json";

/** List pages kept as JSON: ~75 KB each at 30 memories (and ~18 KB gzipped), so a few MB in all. */
export const listPageCacheSize = 64;
/** Distinct searches and tag filters whose matched counts are kept between changes. */
const matchedCountCacheSize = 500;

/**
 * What list requests compute from the collection, kept between changes: whole pages as the JSON
 * the API answers with, and each search's and tag filter's matched count. Both are filed under
 * `memory_stats.generation`, which database triggers move with every write a page can show,
 * whoever makes it (listing-generation.test.ts states that invariant write by write); a value
 * filed under an older generation is never answered. Callers read the generation before the data
 * (the member check reads it with the session), so a value is never older than its generation.
 * `undefined` as the generation (the stats row was removed by hand) keeps nothing.
 */
export class ListingCache {
  private readonly pages = new GenerationCache<PreparedJson>(listPageCacheSize);
  private readonly matchedCounts = new GenerationCache<number>(matchedCountCacheSize);

  page(generation: number | undefined, key: string): PreparedJson | undefined {
    return generation === undefined ? undefined : this.pages.get(generation, key);
  }

  keepPage(generation: number | undefined, key: string, page: PreparedJson): void {
    if (generation !== undefined) this.pages.set(generation, key, page);
  }

  matchedCount(generation: number | undefined, key: string): number | undefined {
    return generation === undefined ? undefined : this.matchedCounts.get(generation, key);
  }

  keepMatchedCount(generation: number | undefined, key: string, count: number): void {
    if (generation !== undefined) this.matchedCounts.set(generation, key, count);
  }
}
