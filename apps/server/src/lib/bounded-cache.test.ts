import { describe, expect, it } from "vitest";
import { BoundedCache } from "./bounded-cache";

describe("BoundedCache", () => {
  it("keeps at most `capacity` entries, dropping those least recently used first", () => {
    const cache = new BoundedCache<string, number>(4);
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("c", 3);
    expect(cache.get("a")).toBe(1);
    cache.set("d", 4);
    cache.set("a", 10);
    cache.set("e", 5);
    expect(cache.size).toBeLessThanOrEqual(4);
    // b was neither read nor written since c came; a was read, then written.
    expect([cache.get("a"), cache.get("b"), cache.get("e")]).toEqual([10, undefined, 5]);
    for (let index = 0; index < 1000; index += 1) cache.set(`k${index}`, index);
    expect(cache.size).toBeLessThanOrEqual(4);
    expect(cache.get("k999")).toBe(999);
  });

  it("holds no more than an odd capacity either", () => {
    const cache = new BoundedCache<string, number>(3);
    for (let index = 0; index < 10; index += 1) cache.set(`k${index}`, index);
    expect(cache.size).toBeLessThanOrEqual(3);
    expect(cache.get("k9")).toBe(9);
  });

  it("lists every entry it keeps, each once", () => {
    const cache = new BoundedCache<string, number>(4);
    for (const [index, key] of ["a", "b", "c", "d"].entries()) cache.set(key, index);
    expect(cache.get("a")).toBe(0);
    // Reading "a" moved it to the recent half, which was full: the older half ("b") went.
    expect(new Map(cache.entries())).toEqual(
      new Map([
        ["a", 0],
        ["c", 2],
        ["d", 3],
      ]),
    );
    expect([...cache.entries()].length).toBe(cache.size);
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

  it("refuses a capacity that is not an integer of at least 2", () => {
    expect(() => new BoundedCache(1)).toThrow(RangeError);
    expect(() => new BoundedCache(1.5)).toThrow(RangeError);
  });
});
