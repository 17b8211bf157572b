/**
 * What the service worker keeps for reading offline, and whose it is (ADR 0031). Plain functions
 * shared by the worker (src/service-worker) and the page (which empties the caches at sign-out):
 * no DOM, no React, nothing but URLs, headers and the Cache Storage API.
 */

/** The API answers one member has read, one cache per member. */
const apiCachePrefix = "memory-box-api-";
/** The photo renditions one member has seen, one cache per member. */
const photoCachePrefix = "memory-box-photos-";
/** Photos shared to the app while a member read on this device (`shared-photos.ts`), one cache per member. */
export const memberSharesPrefix = "memory-box-shared-";
/** The caches that are one member's: deleted at sign-out and when another member signs in. */
const memberCachePrefixes = [apiCachePrefix, photoCachePrefix, memberSharesPrefix];
/**
 * One entry naming the member the kept copies belong to. Photos are loaded with a cookie the
 * worker cannot read, so this is how it knows whose cache a photo goes to.
 */
export const memberCacheName = "memory-box-member";
const memberKey = "/memory-box-member";

/**
 * GET answers worth keeping: the collection as the member reads it (list pages, a memory, its
 * neighbours and comments, on this day, the timeline), the tags, the box's name, cover and
 * together-since date (ADR 0065), and the map of the collection's
 * places with its basemap choice (issue #32). Everything else under /api (the account, members,
 * the export, place search, the live events, uploads) always goes to the network.
 */
const keptApiPath = /^\/api\/v1\/(?:memories(?:\/[^?]*)?|tags|box|places\/(?:map|settings))$/;
/** Renditions only (ADR 0017): their URL never changes while the photo exists (ADR 0018). */
const photoPathPrefix = "/storage/v1/object/authenticated/memory-photos/";
/** Paths that belong to the server, never the web app's pages. */
const serverPathPrefixes = ["/api/", "/auth/v1/", "/storage/", "/rest/"];

export type OfflineRoute = "api" | "photo" | "page" | "network";

interface RequestLike {
  method: string;
  url: string;
  mode: RequestMode;
  headers: Pick<Headers, "get">;
}

/** How the worker treats a request: kept API answer, kept photo, page (the app shell), or not at all. */
export function routeOf(request: RequestLike, origin: string): OfflineRoute {
  if (request.method !== "GET") return "network";
  const url = new URL(request.url);
  if (url.origin !== origin) return "network";
  const path = url.pathname;
  if (request.mode === "navigate") {
    const serverPath = serverPathPrefixes.some((prefix) => path.startsWith(prefix) || `${path}/` === prefix);
    return serverPath ? "network" : "page";
  }
  if (request.headers.get("accept")?.includes("text/event-stream")) return "network";
  if (keptApiPath.test(path)) return "api";
  if (path.startsWith(photoPathPrefix) && path.length > photoPathPrefix.length) return "photo";
  return "network";
}

/** A member id safe to put in a cache name; anything else is no member. */
const memberId = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * The member a `Bearer` access token names (its `sub` claim), read without verification: it only
 * chooses whose cache an answer is kept in and read from. The server verifies every request that
 * reaches it; a forged token here could only open a cache the forger's own device filled.
 */
export function memberOfAuthorization(authorization: string | null): string | undefined {
  const token = /^Bearer ([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.[A-Za-z0-9_-]*$/.exec(authorization ?? "");
  if (!token?.[2]) return undefined;
  try {
    const base64 = token[2].replace(/-/g, "+").replace(/_/g, "/");
    const claims = JSON.parse(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, "="))) as { sub?: unknown };
    return typeof claims.sub === "string" && memberId.test(claims.sub) ? claims.sub : undefined;
  } catch {
    return undefined;
  }
}

/** The cache a request's answer is kept in and read from; undefined: neither. */
export function cacheNameFor(
  request: RequestLike,
  origin: string,
  /** The member the kept copies belong to (`memberCacheName`), for photos, which carry no token. */
  currentMember: string | undefined,
): string | undefined {
  const route = routeOf(request, origin);
  const bearer = memberOfAuthorization(request.headers.get("authorization"));
  if (route === "api") return bearer ? apiCachePrefix + bearer : undefined;
  if (route === "photo") {
    const member = bearer ?? currentMember;
    return member ? photoCachePrefix + member : undefined;
  }
  return undefined;
}

interface ResponseLike {
  status: number;
  type: ResponseType;
  headers: Pick<Headers, "get">;
}

/** Whether an answer may be kept: a whole, successful, same-origin answer to a GET, nothing marked `no-store`. */
export function isCacheable(request: Pick<RequestLike, "method">, response: ResponseLike): boolean {
  if (request.method !== "GET" || response.status !== 200) return false;
  if (response.type !== "basic" && response.type !== "default") return false;
  if (/(?:^|,)\s*no-store\b/i.test(response.headers.get("cache-control") ?? "")) return false;
  return !response.headers.get("content-type")?.includes("text/event-stream");
}

/** Whether `name` is one of the caches of what members read (not the app shell's precache). */
export function isKeptCopiesCache(name: string): boolean {
  return memberCachePrefixes.some((prefix) => name.startsWith(prefix)) || name === memberCacheName;
}

/** The caches of members other than `member`: dropped when `member` signs in on this device. */
export function othersCaches(names: readonly string[], member: string): string[] {
  return names.filter((name) => memberCachePrefixes.some((prefix) => name.startsWith(prefix) && name !== prefix + member));
}

/**
 * The member the kept copies belong to, if any. Read with `CacheStorage.match`, which, unlike
 * `open`, never makes the cache it looks in: a look after a sign-out leaves nothing behind.
 */
export async function keptMember(storage: CacheStorage): Promise<string | undefined> {
  const entry = await storage.match(memberKey, { cacheName: memberCacheName });
  const member = entry ? await entry.text() : undefined;
  return member && memberId.test(member) ? member : undefined;
}

/**
 * `member` is the one reading on this device: anything kept for someone else is deleted first
 * (a sign-out that never reached this page, a second member on a shared phone). Written by the
 * page, which knows who is signed in; the worker only reads it.
 */
export async function keepCopiesFor(storage: CacheStorage, member: string): Promise<void> {
  if ((await keptMember(storage)) === member) return;
  await Promise.all(othersCaches(await storage.keys(), member).map((name) => storage.delete(name)));
  await (await storage.open(memberCacheName)).put(memberKey, new Response(member));
}

/** At sign-out, or when the app starts without a session: every kept copy of a member's goes. */
export async function forgetKeptCopies(storage: CacheStorage): Promise<void> {
  await Promise.all((await storage.keys()).filter(isKeptCopiesCache).map((name) => storage.delete(name)));
}

/**
 * Keeps `response` under `key` in `cacheName` if `member` still reads on this device, and
 * returns whether it stayed. A sign-out can empty the caches between the check and the put, and
 * the put would then make the member's cache again: so the check is made again after it, and the
 * cache deleted when the member has gone meanwhile. The purge always wins. `limit`: the most
 * entries the cache keeps, the oldest dropped first.
 */
export async function keepAnswer(
  storage: CacheStorage,
  {
    cacheName,
    member,
    key,
    response,
    limit,
  }: { cacheName: string; member: string; key: string; response: Response; limit?: number },
): Promise<boolean> {
  if ((await keptMember(storage)) !== member) return false;
  const cache = await storage.open(cacheName);
  await cache.put(key, response);
  if ((await keptMember(storage)) !== member) {
    await storage.delete(cacheName);
    return false;
  }
  if (limit !== undefined) {
    const keys = await cache.keys();
    await Promise.all(keys.slice(0, Math.max(0, keys.length - limit)).map((entry) => cache.delete(entry)));
  }
  return true;
}

/** What the worker's strategies use of the worker: passed in, so tests can make them slow, fail or race. */
export interface WorkerWorld {
  storage: CacheStorage;
  fetch: (request: Request) => Promise<Response>;
  /** Keeps the worker alive for work that goes on after the answer (`FetchEvent.waitUntil`). */
  waitUntil: (work: Promise<unknown>) => void;
}

/**
 * The collection's API answers: the request leaves at once, with nothing awaited before it; the
 * answer is kept afterwards, beside the page's use of it. The member's kept copy answers only
 * when the network fails or has not answered in `timeoutMs` (the answer still refreshes the copy
 * when it comes). No token, no kept copy: a signed-out page gets the server's answer or nothing.
 */
export async function answerApiRequest(
  request: Request,
  origin: string,
  world: WorkerWorld,
  timeoutMs: number,
): Promise<Response> {
  const member = memberOfAuthorization(request.headers.get("authorization"));
  const cacheName = cacheNameFor(request, origin, undefined);
  if (!member || !cacheName) return world.fetch(request);
  const network = world.fetch(request).then((response) => {
    if (isCacheable(request, response)) {
      const keeping = keepAnswer(world.storage, { cacheName, member, key: request.url, response: response.clone() });
      world.waitUntil(keeping.catch(() => undefined));
    }
    return response;
  });
  // When a kept copy has answered, the network's late failure is nobody's to report.
  network.catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error("timed out")), timeoutMs);
  });
  try {
    return await Promise.race([network, late]);
  } catch {
    const kept =
      (await keptMember(world.storage)) === member
        ? await world.storage.match(request.url, { cacheName, ignoreVary: true })
        : undefined;
    return kept ?? network;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Photo renditions: a URL always names the same bytes (ADR 0018), so the kept copy first. Photos
 * carry a cookie the worker cannot read: they are kept for the member reading on this device, and
 * go to the network alone when there is none. At most `limit` per member.
 */
export async function answerPhotoRequest(request: Request, origin: string, world: WorkerWorld, limit: number): Promise<Response> {
  const member = memberOfAuthorization(request.headers.get("authorization")) ?? (await keptMember(world.storage));
  const cacheName = cacheNameFor(request, origin, member);
  if (!member || !cacheName) return world.fetch(request);
  const kept = await world.storage.match(request.url, { cacheName, ignoreVary: true });
  if (kept) return kept;
  const response = await world.fetch(request);
  if (isCacheable(request, response)) {
    const keeping = keepAnswer(world.storage, { cacheName, member, key: request.url, response: response.clone(), limit });
    world.waitUntil(keeping.catch(() => undefined));
  }
  return response;
}

/**
 * The page's work on these caches, one after the other: a sign-in's `keepCopiesFor` and a
 * sign-out's `forgetKeptCopies` must never interleave (a sign-out's purge landing between a
 * sign-in's check and write would leave the member named after they left).
 */
let deviceWork: Promise<void> = Promise.resolve();

function onThisDevice(work: (storage: CacheStorage) => Promise<void>): void {
  // Where the browser has no Cache Storage (tests, plain http) there is nothing to keep or forget.
  if (typeof caches === "undefined") return;
  deviceWork = deviceWork
    .then(() => work(caches))
    .catch((error: unknown) => console.error("Could not update the copies kept for offline:", error));
}

/** `keepCopiesFor` for the page, when a member's session starts or is found. */
export function keepCopiesForOnThisDevice(member: string): void {
  onThisDevice((storage) => keepCopiesFor(storage, member));
}

/** `forgetKeptCopies` for the page, at sign-out or when the app starts without a session. */
export function forgetKeptCopiesOnThisDevice(): void {
  onThisDevice(forgetKeptCopies);
}
