/**
 * What the service worker keeps for reading offline, and whose it is (ADR 0031). Plain functions
 * shared by the worker (src/service-worker) and the page (which empties the caches at sign-out):
 * no DOM, no React, nothing but URLs, headers and the Cache Storage API.
 */

/** The API answers one member has read, one cache per member. */
const apiCachePrefix = "memory-box-api-";
/** The photo renditions one member has seen, one cache per member. */
const photoCachePrefix = "memory-box-photos-";
/**
 * One entry naming the member the kept copies belong to. Photos are loaded with a cookie the
 * worker cannot read, so this is how it knows whose cache a photo goes to.
 */
export const memberCacheName = "memory-box-member";
const memberKey = "/memory-box-member";

/**
 * GET answers worth keeping: the collection as the member reads it (list pages, a memory, its
 * neighbours and comments, on this day, the timeline) and the tags. Everything else under /api
 * (the account, members, the export, the live events, uploads) always goes to the network.
 */
const keptApiPath = /^\/api\/v1\/(?:memories(?:\/[^?]*)?|tags)$/;
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
  return name.startsWith(apiCachePrefix) || name.startsWith(photoCachePrefix) || name === memberCacheName;
}

/** The caches of members other than `member`: dropped when `member` signs in on this device. */
export function othersCaches(names: readonly string[], member: string): string[] {
  return names.filter(
    (name) =>
      (name.startsWith(apiCachePrefix) || name.startsWith(photoCachePrefix)) &&
      name !== apiCachePrefix + member &&
      name !== photoCachePrefix + member,
  );
}

/** The member the kept copies belong to, if any. */
export async function keptMember(storage: CacheStorage): Promise<string | undefined> {
  const entry = await (await storage.open(memberCacheName)).match(memberKey);
  const member = entry ? await entry.text() : undefined;
  return member && memberId.test(member) ? member : undefined;
}

/**
 * `member` is the one reading on this device: anything kept for someone else is deleted first
 * (a sign-out that never reached the worker, a second member on a shared phone).
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

/** `forgetKeptCopies` for the page: where the browser has no Cache Storage (tests, plain http) there is nothing to forget. */
export function forgetKeptCopiesOnThisDevice(): void {
  if (typeof caches === "undefined") return;
  forgetKeptCopies(caches).catch((error: unknown) => console.error("Could not delete the copies kept for offline:", error));
}
