import { LRUCache } from "lru-cache";

/** At most `capacity` entries, the least recently used dropped first. */
export class BoundedCache<K extends string, V extends object> extends LRUCache<K, V> {
  constructor(capacity: number) {
    super({ max: capacity });
  }
}
