/**
 * The service worker (ADR 0031): the app shell precached, so the app opens without a network;
 * what a member has read kept in that member's own caches, for reading offline. Built by
 * vite-plugin-pwa (`injectManifest`), which puts the shell's file list in `__WB_MANIFEST`.
 */
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute, type PrecacheEntry } from "workbox-precaching";
import { registerRoute } from "workbox-routing";

import { pickLocale } from "@memory-box/messages";
import { answerLanguageFile, dropStaleLanguageFiles, keepLanguage, splitLanguageFiles } from "../lib/offline-languages";
import { answerMapFile, dropStaleMapFiles, splitMapFiles } from "../lib/offline-map";
import { answerApiRequest, answerPhotoRequest, routeOf, type WorkerWorld } from "../lib/offline-copies";
import { initiatorOf, isShareFromThisDevice, keepSharedPhotos, sharePath } from "../lib/shared-photos";
import { openFromNotification, pendingSubscriptionMessage, resubscribe, showPush } from "../lib/push-notifications";

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };

/** How long an API answer may take before a kept copy is shown instead (the answer still refreshes the copy). */
const apiTimeoutMs = 5_000;
/** Photos kept per member; the oldest go first. Thumbnails and previews are tens of kilobytes. */
const maxPhotos = 1_000;

const origin = self.location.origin;

// The shell with English's catalogue parts is precached; another language's parts are kept only
// on a device that reads in it (lib/offline-languages.ts): the browser's language from the
// install on, any other once the app fetches one of its parts.
// The map's code and data (issue #32) are kept only on a device that has shown a map (lib/offline-map.ts).
const { shell: withoutMap, map: mapFiles } = splitMapFiles(self.__WB_MANIFEST);
const { shell, languages } = splitLanguageFiles(withoutMap);
const mapPaths = new Set(mapFiles);
const languageOfPath = new Map([...languages].flatMap(([locale, paths]) => paths.map((path) => [path, locale] as const)));

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
  ({ request, event }) => answerApiRequest(request, origin, worldOf(event), apiTimeoutMs),
);

// Photo renditions: a URL always names the same bytes, so the kept copy first.
registerRoute(
  ({ request }) => routeOf(request, origin) === "photo",
  ({ request, event }) => answerPhotoRequest(request, origin, worldOf(event), maxPhotos),
);

// Photos shared from the phone's gallery (the manifest's share target): kept on the device, then
// "Add Memory" opens with them. A 303, so the page that opens is a GET of its own. Another site's
// form posted here keeps nothing and opens home (ADR 0044).
registerRoute(
  ({ request, url }) => request.mode === "navigate" && url.origin === origin && url.pathname === sharePath,
  async ({ request, event }) => {
    const facts = {
      origin: request.headers.get("origin"),
      referrer: request.referrer,
      initiator: await initiatorOf((event as FetchEvent).clientId, self.clients, origin),
    };
    if (!isShareFromThisDevice(facts, origin)) return Response.redirect("/", 303);
    return Response.redirect(await keepSharedPhotos(request, self.caches), 303);
  },
  "POST",
);

// Another language's catalogue part: the kept copy first (a URL names the same bytes for ever).
registerRoute(
  ({ request, url }) => request.method === "GET" && url.origin === origin && languageOfPath.has(url.pathname),
  ({ url, event }) =>
    answerLanguageFile(url.pathname, languages.get(languageOfPath.get(url.pathname)!)!, {
      ...languageWorld(),
      waitUntil: (work) => event.waitUntil(work),
    }),
);

// The map's files: the kept copy first (a URL names the same bytes for ever), else the network's, kept.
registerRoute(
  ({ request, url }) => request.method === "GET" && url.origin === origin && mapPaths.has(url.pathname),
  ({ url }) => answerMapFile(url.pathname, languageWorld()),
);

precacheAndRoute(shell);
cleanupOutdatedCaches();

self.addEventListener("install", (event) => {
  const paths = languages.get(pickLocale(self.navigator.languages));
  // Never a reason to fail the install: a part not kept now is kept once the app fetches it.
  if (paths) event.waitUntil(keepLanguage(languageWorld(), paths).catch(() => undefined));
});

// A new version waits until the member chooses "Reload to update"; the first one takes the page at once.
self.addEventListener("message", (event) => {
  if ((event.data as { type?: unknown } | null)?.type === "SKIP_WAITING") void self.skipWaiting();
});
self.addEventListener("activate", (event) =>
  event.waitUntil(
    Promise.all([
      self.clients.claim(),
      dropStaleLanguageFiles(self.caches, languages).catch(() => undefined),
      dropStaleMapFiles(self.caches, mapFiles).catch(() => undefined),
    ]),
  ),
);

// Notifications (issue #33, lib/push-notifications.ts): a push always shows something; a click
// opens the app's page it names; a subscription the push service replaced is renewed here and sent
// by the page (the worker has no session to send it with).
self.addEventListener("push", (event) => {
  let text: string | null = null;
  try {
    text = event.data?.text() ?? null;
  } catch {
    text = null;
  }
  event.waitUntil(
    showPush(text, {
      storage: self.caches,
      showNotification: (title, options) => self.registration.showNotification(title, options),
      now: () => Date.now(),
    }),
  );
});
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openFromNotification(event.notification.data, self.clients, origin));
});
self.addEventListener("pushsubscriptionchange", (event) => {
  (event as ExtendableEvent).waitUntil(
    resubscribe({
      storage: self.caches,
      pushManager: self.registration.pushManager,
      tellWindows: async () => {
        for (const client of await self.clients.matchAll({ type: "window" }))
          client.postMessage({ type: pendingSubscriptionMessage });
      },
    }),
  );
});

/** The worker's Cache Storage and network, for the catalogue's parts and the map's files. */
function languageWorld() {
  return { storage: self.caches, fetch: (path: string) => fetch(path) };
}

/** The worker's own Cache Storage and network, and its event's lifetime for the bookkeeping after an answer. */
function worldOf(event: ExtendableEvent): WorkerWorld {
  return {
    storage: self.caches,
    fetch: (request) => fetch(request),
    waitUntil: (work) => event.waitUntil(work),
  };
}
