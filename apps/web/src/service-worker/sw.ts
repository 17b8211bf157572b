/**
 * The service worker (ADR 0031): the app shell precached, so the app opens without a network;
 * what a member has read kept in that member's own caches, for reading offline. Built by
 * vite-plugin-pwa (`injectManifest`), which puts the shell's file list in `__WB_MANIFEST`.
 */
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute, type PrecacheEntry } from "workbox-precaching";
import { registerRoute } from "workbox-routing";

import { cacheNameFor, isCacheable, keepCopiesFor, keptMember, memberOfAuthorization, routeOf } from "../lib/offline-copies";

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };

/** How long an API answer may take before a kept copy is shown instead (the answer still refreshes the copy). */
const apiTimeoutMs = 5_000;
/** Photos kept per member; the oldest go first. Thumbnails and previews are tens of kilobytes. */
const maxPhotos = 1_000;

const origin = self.location.origin;

// Pages: the network first, so every page load online is exactly the server's; the precached
// shell when it cannot be reached. Registered before the precache's route, which would otherwise
// answer "/" from the cache.
registerRoute(
  ({ request }) => routeOf(request, origin) === "page",
  async ({ request }) => {
    try {
      return await fetch(request);
    } catch {
      return (await matchPrecache("/index.html")) ?? Response.error();
    }
  },
);

// API answers: network first; the member's kept copy only when the network fails or is slow.
registerRoute(
  ({ request }) => routeOf(request, origin) === "api",
  async ({ request }) => {
    const member = memberOfAuthorization(request.headers.get("authorization"));
    const cacheName = cacheNameFor(request, origin, undefined);
    // No token, no kept copy: a signed-out page gets the server's answer or nothing.
    if (!member || !cacheName) return fetch(request);
    await keepCopiesFor(self.caches, member);
    const network = fetch(request).then(async (response) => {
      // Kept only if the member still reads here: a sign-out during the request emptied the caches.
      if (isCacheable(request, response) && (await keptMember(self.caches)) === member) {
        await (await self.caches.open(cacheName)).put(request.url, response.clone());
      }
      return response;
    });
    // When a kept copy has answered, the network's late failure is nobody's to report.
    network.catch(() => undefined);
    const kept = async () => (await self.caches.open(cacheName)).match(request.url, { ignoreVary: true });
    try {
      return await Promise.race([network, timeout(apiTimeoutMs)]);
    } catch {
      return (await kept()) ?? network;
    }
  },
);

// Photo renditions: a URL always names the same bytes, so the kept copy first.
registerRoute(
  ({ request }) => routeOf(request, origin) === "photo",
  async ({ request }) => {
    const cacheName = cacheNameFor(request, origin, await keptMember(self.caches));
    if (!cacheName) return fetch(request);
    const cache = await self.caches.open(cacheName);
    const kept = await cache.match(request.url, { ignoreVary: true });
    if (kept) return kept;
    const response = await fetch(request);
    if (isCacheable(request, response) && cacheNameFor(request, origin, await keptMember(self.caches)) === cacheName) {
      await cache.put(request.url, response.clone());
      const keys = await cache.keys();
      await Promise.all(keys.slice(0, Math.max(0, keys.length - maxPhotos)).map((key) => cache.delete(key)));
    }
    return response;
  },
);

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// A new version waits until the member chooses "Reload to update"; the first one takes the page at once.
self.addEventListener("message", (event) => {
  if ((event.data as { type?: unknown } | null)?.type === "SKIP_WAITING") void self.skipWaiting();
});
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

function timeout(ms: number): Promise<never> {
  return new Promise((_resolve, reject) => setTimeout(() => reject(new Error("timed out")), ms));
}
