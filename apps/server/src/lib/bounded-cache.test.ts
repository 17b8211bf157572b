import { describe, expect, it } from "vitest";
import { BoundedCache } from "./bounded-cache";

describe("BoundedCache", () => {
  it("keeps at most `capacity` entries, dropping the oldest first", () => {
    const cache = new BoundedCache<string, number>(2);
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("a", 10);
    expect(cache.size).toBe(2);
    cache.set("c", 3);
    expect([cache.get("a"), cache.get("b"), cache.get("c")]).toEqual([undefined, 2, 3]);
    expect(cache.size).toBe(2);
  });

  it("creates a missing value once and reuses it", () => {
    const cache = new BoundedCache<string, { n: number }>(10);
    let created = 0;
    const make = () => ({ n: (created += 1) });
    const first = cache.getOrCreate("k", make);
    expect(cache.getOrCreate("k", make)).toBe(first);
    expect(created).toBe(1);
    cache.clear();
    expect(cache.getOrCreate("k", make)).not.toBe(first);
  });

  it("refuses a capacity that is not a positive integer", () => {
    expect(() => new BoundedCache(0)).toThrow(RangeError);
    expect(() => new BoundedCache(1.5)).toThrow(RangeError);
  });
});
