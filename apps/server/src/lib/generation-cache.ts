import { LRUCache } from "lru-cache";

/**
 * Values computed from data at one generation (a counter that grows with every change to that
 * data, such as `memory_stats.generation`): a value stored at another generation is a miss, and
 * the first value stored at a newer one drops the rest. Readers must read the generation before
 * the data, so a stored value is never older than the generation it is filed under. At most
 * `capacity` values are kept, the least recently used dropped first.
 */
export class GenerationCache<V> {
  private generation = -1;
  /** Boxed, so that a value may be null. */
  private readonly values: LRUCache<string, { value: V }>;

  constructor(capacity: number) {
    this.values = new LRUCache({ max: capacity });
  }

  /** The generation the values are filed under (-1 before the first). */
  get filedUnder(): number {
    return this.generation;
  }

  get(generation: number, key: string): V | undefined {
    return generation === this.generation ? this.values.get(key)?.value : undefined;
  }

  /** The generation the values are filed under (-1 before the first), and the values, most recently used first. */
  kept(): { generation: number; entries: [string, V][] } {
    return { generation: this.generation, entries: [...this.values.entries()].map(([key, box]) => [key, box.value]) };
  }

  set(generation: number, key: string, value: V): void {
    if (generation < this.generation) return;
    this.advance(generation);
    this.values.set(key, { value });
  }

  /** Files nothing under a newer generation, dropping the values of older ones. */
  advance(generation: number): void {
    if (generation <= this.generation) return;
    this.values.clear();
    this.generation = generation;
  }
}
