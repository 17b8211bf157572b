import { describe, expect, it } from "vitest";
import { ListingCache, type SearchCarry } from "./listing-cache";

/** A write of memory `id` from one generation to the next, matching (or not) each search in `keys`. */
const write = (from: number, to: number, id: string, sortKey: string | null, keys: Record<string, boolean>): SearchCarry => ({
  from,
  to,
  keys: Object.keys(keys),
  id,
  written: sortKey === null ? undefined : { id, sortKey, matches: Object.values(keys) },
});

describe("ListingCache's kept searches over writes", () => {
  const kept = (ids: string[]) => ({ sortKeys: ids.map((id) => id.toLowerCase()), ids });

  it("carries them write by write, whatever order the writes finish in", () => {
    const cache = new ListingCache();
    cache.keepMatches(10, "bay", { q: "bay" }, kept(["D", "B"]));
    cache.keepMatches(10, "pier", { q: "pier" }, kept(["A"]));

    // The second write finishes first: it waits for the first to carry the searches to 12.
    cache.carryMatches(write(12, 14, "C", "c", { bay: true, pier: false }));
    expect(cache.matches(14, "bay")).toBeUndefined();
    expect(cache.matches(10, "bay")).toEqual(kept(["D", "B"]));

    cache.carryMatches(write(10, 12, "B", null, { bay: false, pier: false }));
    expect(cache.matches(12, "bay")).toBeUndefined();
    expect(cache.matches(14, "bay")).toEqual(kept(["D", "C"]));
    expect(cache.matches(14, "pier")).toEqual(kept(["A"]));

    // A write from a generation the cache has left changes nothing.
    cache.carryMatches(write(12, 16, "E", "e", { bay: true }));
    expect(cache.matches(16, "bay")).toBeUndefined();
    expect(cache.matches(14, "bay")).toEqual(kept(["D", "C"]));
  });

  it("takes up a waiting write when a search is found at the generation it starts from", () => {
    const cache = new ListingCache();
    cache.keepMatches(3, "bay", { q: "bay" }, kept(["A"]));
    cache.carryMatches(write(5, 6, "B", "b", { bay: true }));
    // A write that carried nothing moved the generation from 3 to 5; a request finds the search at 5.
    cache.keepMatches(5, "bay", { q: "bay" }, kept(["C", "A"]));
    expect(cache.matches(6, "bay")).toEqual(kept(["C", "B", "A"]));
  });

  it("drops a search the write did not test its memory against, and one grown past what it keeps", () => {
    const cache = new ListingCache(2);
    cache.keepMatches(1, "bay", { q: "bay" }, kept(["B", "A"]));
    cache.keepMatches(1, "pier", { q: "pier" }, kept(["A"]));
    cache.carryMatches(write(1, 2, "C", "c", { bay: true }));
    expect(cache.matches(2, "bay")).toBeNull();
    expect(cache.matches(2, "pier")).toBeUndefined();
  });
});
