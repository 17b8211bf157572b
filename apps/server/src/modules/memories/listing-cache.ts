import { GenerationCache } from "../../lib/generation-cache";
import type { PreparedJson } from "../../lib/prepared-json";

/** List pages kept as JSON: ~75 KB each at 30 memories (and ~18 KB gzipped), so a few MB in all. */
export const listPageCacheSize = 64;
/** Distinct searches and tag filters whose matched counts are kept between changes. */
const matchedCountCacheSize = 500;
/** Searches whose matches are kept, in listing order, between changes. */
const searchMatchesCacheSize = 64;
/**
 * A search with more matches than this is not kept: its pages are read from the database each
 * time (it finds its page quickly anyway, matches being everywhere). With 64 searches kept, the
 * lists take at most ~13 MB.
 */
export const maxKeptSearchMatches = 2_000;

/** A search's matches in listing order: their sort keys (descending) and ids, side by side. */
export interface SearchMatches {
  sortKeys: string[];
  ids: string[];
}

/**
 * What list requests compute from the collection, kept between changes: whole pages as the JSON
 * the API answers with, each search's and tag filter's matched count, and each search's matches
 * in listing order (so any page further down a search is a slice, read by primary key). Both are filed under
 * `memory_stats.generation`, which database triggers move with every write a page can show,
 * whoever makes it (listing-generation.test.ts states that invariant write by write); a value
 * filed under an older generation is never answered. Callers read the generation before the data
 * (the member check reads it with the session), so a value is never older than its generation.
 * `undefined` as the generation (the stats row was removed by hand) keeps nothing.
 */
export class ListingCache {
  private readonly pages = new GenerationCache<PreparedJson>(listPageCacheSize);
  private readonly matchedCounts = new GenerationCache<number>(matchedCountCacheSize);
  /** null: the search matches more than `maxKeptSearchMatches`. */
  private readonly searchMatches = new GenerationCache<SearchMatches | null>(searchMatchesCacheSize);

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

  /** A search's kept matches; null when it matches too many to keep; undefined when not known. */
  matches(generation: number | undefined, key: string): SearchMatches | null | undefined {
    return generation === undefined ? undefined : this.searchMatches.get(generation, key);
  }

  keepMatches(generation: number | undefined, key: string, matches: SearchMatches | null): void {
    if (generation !== undefined) this.searchMatches.set(generation, key, matches);
  }
}
