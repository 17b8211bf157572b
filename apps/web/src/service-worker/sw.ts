/**
 * The service worker (ADR 0031): the app shell precached, so the app opens without a network.
 * Built by vite-plugin-pwa (`injectManifest`), which puts the shell's file list in `__WB_MANIFEST`.
 */
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute, type PrecacheEntry } from "workbox-precaching";
import { registerRoute } from "workbox-routing";

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };

/** Paths that belong to the server, never the web app's pages. */
const serverPathPrefixes = ["/api/", "/auth/v1/", "/storage/", "/rest/"];

// Pages: the network first, so every page load online is exactly the server's; the precached
// shell when it cannot be reached. Registered before the precache's route, which would otherwise
// answer "/" from the cache.
registerRoute(
  ({ request, url }) =>
    request.mode === "navigate" &&
    url.origin === self.location.origin &&
    !serverPathPrefixes.some((prefix) => url.pathname.startsWith(prefix) || `${url.pathname}/` === prefix),
  async ({ request }) => {
    try {
      return await fetch(request);
    } catch {
      return (await matchPrecache("/index.html")) ?? Response.error();
    }
  },
);

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// A new version waits until the member chooses "Reload to update"; the first one takes the page at once.
self.addEventListener("message", (event) => {
  if ((event.data as { type?: unknown } | null)?.type === "SKIP_WAITING") void self.skipWaiting();
});
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
