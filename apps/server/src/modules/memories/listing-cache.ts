import type { CollectionStats } from "../../db/schema";
import { GenerationCache } from "../../lib/generation-cache";
import type { PreparedJson } from "../../lib/prepared-json";
import type { ListFilter, MatchesAfterWrite } from "./memories.repository";

/** List pages kept as JSON: ~75 KB each at 30 memories (and ~18 KB gzipped), so a few MB in all. */
export const listPageCacheSize = 64;
/** Timelines (month counts) of distinct searches and tag filters, ~1 KB each. */
const timelineCacheSize = 64;
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
 * A write of one memory, to carry the kept searches over: the generation it started from and the
 * one it left, the searches (by key) it read the memory against, and how the memory stands
 * against each of them (in the order of `keys`), undefined when it is gone.
 */
export interface SearchCarry {
  from: number;
  to: number;
  keys: readonly string[];
  id: string;
  written: MatchesAfterWrite;
}

/** Carries waiting for the one ahead of them: as many as writes can wait for the same lock. */
const maxWaitingCarries = 16;

/** A kept search: the filter as first asked (any spelling with the same words), and its matches. */
export interface KeptSearch {
  filter: ListFilter;
  matches: SearchMatches;
}

/**
 * What a list page is filed under: a page shows the memories (`generation`) and their comment and
 * reaction counts (`responses`). Both counters only grow and every change grows one of them, so
 * their sum grows with every change a page shows; undefined (the stats row was removed by hand)
 * keeps nothing.
 */
export function pageGeneration(stats: CollectionStats | undefined): number | undefined {
  return stats === undefined ? undefined : stats.generation + stats.responses;
}

/**
 * What list requests compute from the collection, kept between changes: whole pages as the JSON
 * the API answers with (list pages, On this day), each search's and tag filter's matched count,
 * each search's matches in listing order (so any page further down a search is a slice, read by
 * primary key), and each filter's timeline. Database triggers move `memory_stats.generation` with
 * every write to the memories, whoever makes it, and `memory_stats.responses` with every comment
 * or reaction added or removed (listing-generation.test.ts states both write by write). Pages,
 * which show comment and reaction counts, are filed under both (`pageGeneration`); matches,
 * matched counts and timelines, which depend only on which memories match, under `generation`
 * alone, so a comment or a reaction leaves them kept. A value filed under an older generation is
 * never answered. Callers read the counters before the data (the member check reads them with the
 * session), so a value is never older than what it is filed under.
 */
export class ListingCache {
  private readonly pages = new GenerationCache<PreparedJson>(listPageCacheSize);
  private readonly timelines = new GenerationCache<PreparedJson>(timelineCacheSize);
  private readonly matchedCounts = new GenerationCache<number>(matchedCountCacheSize);
  /** null: the search matches more than `maxKeptSearchMatches`. */
  private readonly searchMatches = new GenerationCache<KeptSearch | null>(searchMatchesCacheSize);
  /** Carries by the generation they start from, waiting for the cache to get there. */
  private readonly waitingCarries = new Map<number, SearchCarry>();

  /** `maxKeptMatches`: a search matching more is not kept (tests lower it). */
  constructor(readonly maxKeptMatches = maxKeptSearchMatches) {}

  page(stats: CollectionStats | undefined, key: string): PreparedJson | undefined {
    const generation = pageGeneration(stats);
    return generation === undefined ? undefined : this.pages.get(generation, key);
  }

  keepPage(stats: CollectionStats | undefined, key: string, page: PreparedJson): void {
    const generation = pageGeneration(stats);
    if (generation !== undefined) this.pages.set(generation, key, page);
  }

  timeline(generation: number | undefined, key: string): PreparedJson | undefined {
    return generation === undefined ? undefined : this.timelines.get(generation, key);
  }

  keepTimeline(generation: number | undefined, key: string, timeline: PreparedJson): void {
    if (generation !== undefined) this.timelines.set(generation, key, timeline);
  }

  matchedCount(generation: number | undefined, key: string): number | undefined {
    return generation === undefined ? undefined : this.matchedCounts.get(generation, key);
  }

  keepMatchedCount(generation: number | undefined, key: string, count: number): void {
    if (generation !== undefined) this.matchedCounts.set(generation, key, count);
  }

  /** A search's kept matches; null when it matches too many to keep; undefined when not known. */
  matches(generation: number | undefined, key: string): SearchMatches | null | undefined {
    if (generation === undefined) return undefined;
    const kept = this.searchMatches.get(generation, key);
    return kept === undefined || kept === null ? kept : kept.matches;
  }

  keepMatches(generation: number | undefined, key: string, filter: ListFilter, matches: SearchMatches | null): void {
    if (generation === undefined) return;
    this.searchMatches.set(generation, key, matches === null ? null : { filter, matches });
    this.applyWaitingCarries();
  }

  /** The searches whose matches are kept, and the generation they are exact at. */
  keptSearches(): { generation: number; searches: [string, KeptSearch][] } {
    const { generation, entries } = this.searchMatches.kept();
    return { generation, searches: entries.filter((entry): entry is [string, KeptSearch] => entry[1] !== null) };
  }

  /**
   * Carries the kept searches over a write known to be the only change between `carry.from` and
   * `carry.to` (it read `from` first in its transaction, locking out other writers, and `to`
   * last): each list changes only in the written memory, which `carry.written` says how it now
   * stands against each search in `carry.keys`, or that it is gone. A list that grows past
   * `maxKeptMatches` becomes "too many", as a fresh search would find; a search kept at `from`
   * that the write did not read its memory against is dropped.
   *
   * Writes that waited for each other's lock can finish in any order: a carry from a generation
   * the cache has not reached yet waits (a few, for the write ahead of it to carry the searches
   * there, or a search to be found there), one from a generation the cache has left is dropped.
   */
  carryMatches(carry: SearchCarry): void {
    if (carry.to <= carry.from || carry.from < this.searchMatches.filedUnder) return;
    this.waitingCarries.set(carry.from, carry);
    this.applyWaitingCarries();
  }

  private applyWaitingCarries(): void {
    for (let carry = this.waitingCarries.get(this.searchMatches.filedUnder); carry;) {
      this.waitingCarries.delete(carry.from);
      this.applyCarry(carry);
      carry = this.waitingCarries.get(this.searchMatches.filedUnder);
    }
    for (const from of this.waitingCarries.keys()) {
      if (from < this.searchMatches.filedUnder || this.waitingCarries.size > maxWaitingCarries) this.waitingCarries.delete(from);
    }
  }

  private applyCarry({ from, to, keys, id, written }: SearchCarry): void {
    const carried = keys.flatMap((key, index) => {
      const kept = this.searchMatches.get(from, key);
      return kept ? [{ key, kept, matches: written?.matches[index] === true }] : [];
    });
    // Moves the cache to `to` even when nothing is carried, so that a carry from `to` can follow.
    if (carried.length === 0) this.searchMatches.advance(to);
    for (const { key, kept, matches } of carried) {
      const { sortKeys, ids } = kept.matches;
      const at = ids.indexOf(id);
      const next = { sortKeys: [...sortKeys], ids: [...ids] };
      if (at !== -1) {
        next.sortKeys.splice(at, 1);
        next.ids.splice(at, 1);
      }
      if (written && matches) {
        const position = firstIndexBelow(next.sortKeys, written.sortKey);
        next.sortKeys.splice(position, 0, written.sortKey);
        next.ids.splice(position, 0, written.id);
      }
      this.searchMatches.set(to, key, next.ids.length > this.maxKeptMatches ? null : { filter: kept.filter, matches: next });
    }
  }
}

/** The index of the first sort key below `after` in a descending list (its length when none is). */
export function firstIndexBelow(sortKeys: readonly string[], after: string): number {
  let low = 0;
  let high = sortKeys.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sortKeys[middle]! < after) high = middle;
    else low = middle + 1;
  }
  return low;
}
