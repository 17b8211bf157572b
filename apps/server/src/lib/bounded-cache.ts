/**
 * A Map with a size limit, for memoising costly values (prepared statements, URL signatures,
 * counts, pages) without letting the memo grow without bound. It holds at most `capacity`
 * entries: two halves, the recent one taking every write and every entry read from the older
 * one; when the recent half is full it becomes the older half and the former older half is
 * dropped whole. So what was used last survives, and dropping costs nothing per entry: evicting
 * one entry at a time from the front of a single Map slows down sharply once a cache churns
 * (V8 keeps the deleted slots until the Map is rebuilt, and each eviction walks over them).
 */
export class BoundedCache<K, V> {
  private recent = new Map<K, V>();
  private older = new Map<K, V>();
  private readonly halfCapacity: number;

  constructor(capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 2) throw new RangeError("capacity must be an integer of at least 2.");
    this.halfCapacity = Math.floor(capacity / 2);
  }

  get size(): number {
    return this.recent.size + this.older.size;
  }

  get(key: K): V | undefined {
    const value = this.recent.get(key);
    if (value !== undefined) return value;
    const old = this.older.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }

  set(key: K, value: V): void {
    if (this.recent.has(key)) {
      this.recent.set(key, value);
      return;
    }
    this.older.delete(key);
    if (this.recent.size >= this.halfCapacity) {
      this.older = this.recent;
      this.recent = new Map();
    }
    this.recent.set(key, value);
  }

  /** The cached value, or `create()`'s, which is then cached. */
  getOrCreate(key: K, create: () => V): V {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const value = create();
    this.set(key, value);
    return value;
  }

  /** Every entry kept, most recently used half first. */
  *entries(): IterableIterator<[K, V]> {
    yield* this.recent;
    for (const entry of this.older) if (!this.recent.has(entry[0])) yield entry;
  }

  clear(): void {
    this.recent.clear();
    this.older.clear();
  }
}
