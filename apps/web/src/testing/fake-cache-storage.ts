/**
 * Cache Storage as the browser has it, in memory, with responses reduced to their text: `open` makes a
 * missing cache, `match` with a `cacheName` never does. `beforeOpen` runs before each `open`,
 * so a test can put a sign-out exactly there.
 */
export function fakeCacheStorage({ beforeOpen }: { beforeOpen?: (name: string) => Promise<void> } = {}): CacheStorage {
  const caches = new Map<string, Map<string, string>>();
  const cacheOf = (entries: Map<string, string>) =>
    ({
      match: async (key: string) => (entries.has(key) ? new Response(entries.get(key)) : undefined),
      put: async (key: string, value: Response) => void entries.set(key, await value.text()),
      keys: async () => [...entries.keys()],
      delete: async (key: string) => entries.delete(key),
    }) as unknown as Cache;
  return {
    open: async (name: string) => {
      await beforeOpen?.(name);
      const entries = caches.get(name) ?? new Map<string, string>();
      caches.set(name, entries);
      return cacheOf(entries);
    },
    keys: async () => [...caches.keys()],
    delete: async (name: string) => caches.delete(name),
    has: async (name: string) => caches.has(name),
    match: async (key: string, options?: MultiCacheQueryOptions) => {
      const entries = options?.cacheName === undefined ? undefined : caches.get(options.cacheName);
      const text = entries?.get(key);
      return text === undefined ? undefined : new Response(text);
    },
  };
}
