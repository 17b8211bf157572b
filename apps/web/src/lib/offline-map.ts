/**
 * The map's files for opening offline (issue #32, ADR 0057): MapLibre, its worker and stylesheet,
 * and the Natural Earth atlas, some 600 KB compressed, named `assets/map-…` by the build
 * (apps/web/vite.config.ts). They are left out of the precache every device downloads, and kept
 * in a cache of their own once a map has fetched them, so the map opens offline on a device that
 * has shown one. Plain functions the worker uses, tested without one.
 */

/** The cache of the map's files; a sign-out keeps it (it holds nothing of a member's). */
export const mapCacheName = "memory-box-map";

/** A built file's path from its precache manifest URL ("assets/x.js" or "/assets/x.js"). */
function pathOf(url: string): string {
  return url.startsWith("/") ? url : `/${url}`;
}

/** The path a cache key names (the worker's keys are Requests with whole URLs). */
function keyPath(key: Request | string): string {
  return new URL(typeof key === "string" ? key : key.url, "http://localhost").pathname;
}

/** Whether a built file is one of the map's. */
export function isMapFile(url: string): boolean {
  return pathOf(url).startsWith("/assets/map-");
}

/** The precache manifest without the map's files, and those files' paths. */
export function splitMapFiles<Entry extends string | { url: string }>(
  manifest: readonly Entry[],
): { shell: Entry[]; map: string[] } {
  const shell: Entry[] = [];
  const map: string[] = [];
  for (const entry of manifest) {
    const url = typeof entry === "string" ? entry : entry.url;
    if (isMapFile(url)) map.push(pathOf(url));
    else shell.push(entry);
  }
  return { shell, map };
}

/** What keeping the map's files needs: the worker's caches and network. */
export interface MapFileWorld {
  storage: CacheStorage;
  fetch: (path: string) => Promise<Response>;
}

/** The answer to a fetch of a map file: the kept copy (a hashed name never changes its bytes), else the network's, kept. */
export async function answerMapFile(path: string, world: MapFileWorld): Promise<Response> {
  const cache = await world.storage.open(mapCacheName);
  const kept = await cache.match(path);
  if (kept) return kept;
  const response = await world.fetch(path);
  if (response.ok) await cache.put(path, response.clone());
  return response;
}

/** Drops the kept map files this version of the app no longer names (an earlier build's). */
export async function dropStaleMapFiles(storage: CacheStorage, current: readonly string[]): Promise<void> {
  if (!(await storage.has(mapCacheName))) return;
  const known = new Set(current);
  const cache = await storage.open(mapCacheName);
  const keys = await cache.keys();
  await Promise.all(keys.filter((key) => !known.has(keyPath(key))).map((key) => cache.delete(key)));
}
