/**
 * A Map with a size limit: adding an entry beyond `capacity` drops the oldest one. Reads do not
 * reorder (first in, first out rather than least recently used), so a hit costs one Map lookup;
 * these caches are read far more often than they fill. For memoising costly values (prepared
 * statements, URL signatures, counts) without letting the memo grow without bound.
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new RangeError("capacity must be a positive integer.");
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  set(key: K, value: V): void {
    if (!this.entries.has(key) && this.entries.size >= this.capacity) {
      // A Map iterates in insertion order: the first key is the oldest.
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, value);
  }

  /** The cached value, or `create()`'s, which is then cached. */
  getOrCreate(key: K, create: () => V): V {
    const cached = this.entries.get(key);
    if (cached !== undefined) return cached;
    const value = create();
    this.set(key, value);
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
