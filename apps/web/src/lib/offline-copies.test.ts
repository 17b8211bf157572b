import { describe, expect, it, vi } from "vitest";
import { fakeCacheStorage } from "@/testing/fake-cache-storage";

import {
  answerApiRequest,
  answerPhotoRequest,
  cacheNameFor,
  forgetKeptCopies,
  isCacheable,
  keepAnswer,
  keepCopiesFor,
  keptMember,
  memberCacheName,
  memberOfAuthorization,
  othersCaches,
  routeOf,
} from "./offline-copies";

const origin = "https://box.example";
const alice = "5f0c9a55-8f7e-4bb4-9f0e-2f3c4f5a6b7c";
const bob = "9a1b2c3d-0000-4000-8000-000000000002";

/** A token shaped like the server's: only the claims matter here, the signature is never checked. */
function tokenOf(claims: object): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "ES256", typ: "JWT" })}.${part(claims)}.c2lnbmF0dXJl`;
}

function request(
  path: string,
  { method = "GET", mode = "cors", token, accept }: { method?: string; mode?: RequestMode; token?: string; accept?: string } = {},
) {
  const headers = new Headers();
  if (token) headers.set("authorization", `Bearer ${token}`);
  if (accept) headers.set("accept", accept);
  return { method, url: `${origin}${path}`, mode, headers };
}

function response(status = 200, headers: Record<string, string> = {}, type: ResponseType = "basic") {
  return { status, type, headers: new Headers(headers) };
}

describe("routeOf", () => {
  it("keeps the collection's reads: list pages, a memory, on this day, the timeline, comments, tags, the box", () => {
    for (const path of [
      "/api/v1/memories",
      "/api/v1/memories?q=sea&cursor=abc",
      "/api/v1/memories/42",
      "/api/v1/memories/on-this-day",
      "/api/v1/memories/timeline?from=2024-05",
      "/api/v1/memories/42/comments",
      "/api/v1/memories/42/neighbours",
      "/api/v1/tags",
      "/api/v1/box",
    ]) {
      expect(routeOf(request(path), origin), path).toBe("api");
    }
  });

  it("never keeps the account, members, the export, the live events, uploads or the auth API", () => {
    for (const path of [
      "/api/v1/account/devices",
      "/api/v1/account/export?ticket=t",
      "/api/v1/members",
      "/api/v1/events",
      "/api/v1/photos",
      "/api/v1/photo-access",
      "/auth/v1/user",
      "/auth/v1/token?grant_type=password",
      "/rest/v1/memories",
      "/api/health",
    ]) {
      expect(routeOf(request(path), origin), path).toBe("network");
    }
    expect(routeOf(request("/api/v1/memories", { accept: "text/event-stream" }), origin)).toBe("network");
  });

  it("never anything but a GET", () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE", "HEAD"]) {
      expect(routeOf(request("/api/v1/memories/42", { method }), origin)).toBe("network");
      expect(routeOf(request("/storage/v1/object/authenticated/memory-photos/a/thumb.webp", { method }), origin)).toBe("network");
    }
  });

  it("keeps photo renditions, and nothing from another origin", () => {
    expect(routeOf(request("/storage/v1/object/authenticated/memory-photos/a/b/thumb.webp"), origin)).toBe("photo");
    expect(routeOf(request("/storage/v1/object/authenticated/memory-photos/"), origin)).toBe("network");
    expect(routeOf(request("/storage/v1/object/public/memory-photos/a"), origin)).toBe("network");
    expect(routeOf({ ...request("/api/v1/memories"), url: "https://elsewhere.example/api/v1/memories" }, origin)).toBe("network");
  });

  it("treats the app's pages as pages, and the server's own addresses opened in the browser as the server's", () => {
    for (const path of ["/", "/memory/42", "/auth", "/auth?view=forgot", "/settings/members"]) {
      expect(routeOf(request(path, { mode: "navigate" }), origin), path).toBe("page");
    }
    for (const path of ["/auth/v1/verify?token=t", "/api/v1/account/export?ticket=t", "/api", "/storage/v1/x"]) {
      expect(routeOf(request(path, { mode: "navigate" }), origin), path).toBe("network");
    }
  });
});

describe("memberOfAuthorization", () => {
  it("reads the token's subject without checking it", () => {
    expect(memberOfAuthorization(`Bearer ${tokenOf({ sub: alice, role: "authenticated" })}`)).toBe(alice);
  });

  it("is no member for anything else", () => {
    expect(memberOfAuthorization(null)).toBeUndefined();
    expect(memberOfAuthorization("")).toBeUndefined();
    expect(memberOfAuthorization(`Basic ${btoa("user:pass")}`)).toBeUndefined();
    expect(memberOfAuthorization("Bearer not-a-jwt")).toBeUndefined();
    expect(memberOfAuthorization(`Bearer ${tokenOf({ role: "anon" })}`)).toBeUndefined();
    expect(memberOfAuthorization(`Bearer ${tokenOf({ sub: 42 })}`)).toBeUndefined();
    // A subject that would escape its cache's name.
    expect(memberOfAuthorization(`Bearer ${tokenOf({ sub: "../memory-box-api-x" })}`)).toBeUndefined();
    expect(memberOfAuthorization("Bearer e30.!!!.x")).toBeUndefined();
  });
});

describe("cacheNameFor", () => {
  it("keeps each member's API answers apart", () => {
    const forAlice = cacheNameFor(request("/api/v1/memories", { token: tokenOf({ sub: alice }) }), origin, bob);
    const forBob = cacheNameFor(request("/api/v1/memories", { token: tokenOf({ sub: bob }) }), origin, alice);
    expect(forAlice).toContain(alice);
    expect(forBob).toContain(bob);
    expect(forAlice).not.toBe(forBob);
  });

  it("answers an API request without a token from no cache at all, whoever read last", () => {
    expect(cacheNameFor(request("/api/v1/memories"), origin, alice)).toBeUndefined();
    expect(cacheNameFor(request("/api/v1/memories/42"), origin, undefined)).toBeUndefined();
  });

  it("keeps photos for the member reading on this device, and none when no one is", () => {
    const photo = "/storage/v1/object/authenticated/memory-photos/a/thumb.webp";
    expect(cacheNameFor(request(photo), origin, alice)).toContain(alice);
    expect(cacheNameFor(request(photo), origin, undefined)).toBeUndefined();
    expect(cacheNameFor(request(photo, { token: tokenOf({ sub: bob }) }), origin, alice)).toContain(bob);
  });

  it("keeps nothing else", () => {
    expect(cacheNameFor(request("/api/v1/account/devices", { token: tokenOf({ sub: alice }) }), origin, alice)).toBeUndefined();
    expect(cacheNameFor(request("/", { mode: "navigate" }), origin, alice)).toBeUndefined();
  });
});

describe("isCacheable", () => {
  it("keeps a whole, successful answer to a GET", () => {
    expect(isCacheable({ method: "GET" }, response(200, { "content-type": "application/json" }))).toBe(true);
  });

  it("never keeps an error, a partial or redirected answer, another origin's or a no-store one", () => {
    for (const status of [201, 204, 206, 301, 304, 400, 401, 403, 404, 500, 503]) {
      expect(isCacheable({ method: "GET" }, response(status)), String(status)).toBe(false);
    }
    expect(isCacheable({ method: "GET" }, response(200, {}, "opaque"))).toBe(false);
    expect(isCacheable({ method: "GET" }, response(200, {}, "cors"))).toBe(false);
    expect(isCacheable({ method: "GET" }, response(200, { "cache-control": "private, no-store" }))).toBe(false);
    expect(isCacheable({ method: "GET" }, response(200, { "content-type": "text/event-stream" }))).toBe(false);
  });

  it("never keeps the answer to anything but a GET", () => {
    expect(isCacheable({ method: "POST" }, response(200))).toBe(false);
  });
});

describe("whose copies the device keeps", () => {
  it("drops another member's caches when a member starts reading, and keeps the app shell's", async () => {
    const storage = fakeCacheStorage();
    await keepCopiesFor(storage, alice);
    await storage.open(`memory-box-api-${alice}`);
    await storage.open(`memory-box-photos-${alice}`);
    await storage.open("workbox-precache-v2-https://box.example/");
    expect(await keptMember(storage)).toBe(alice);

    await keepCopiesFor(storage, bob);
    expect(await keptMember(storage)).toBe(bob);
    expect(await storage.keys()).toEqual([memberCacheName, "workbox-precache-v2-https://box.example/"]);
  });

  it("forgets every member's copies at sign-out, the shell stays", async () => {
    const storage = fakeCacheStorage();
    await keepCopiesFor(storage, alice);
    await storage.open(`memory-box-api-${alice}`);
    await storage.open(`memory-box-photos-${bob}`);
    await storage.open("workbox-precache-v2-https://box.example/");

    await forgetKeptCopies(storage);
    expect(await storage.keys()).toEqual(["workbox-precache-v2-https://box.example/"]);
    expect(await keptMember(storage)).toBeUndefined();
  });

  it("names the caches of members other than the one reading", () => {
    const names = [`memory-box-api-${alice}`, `memory-box-photos-${alice}`, `memory-box-api-${bob}`, memberCacheName, "other"];
    expect(othersCaches(names, alice)).toEqual([`memory-box-api-${bob}`]);
  });
});

describe("a sign-out racing the worker's keeping", () => {
  const apiCache = `memory-box-api-${alice}`;

  it("keeps an answer while the member still reads on the device", async () => {
    const storage = fakeCacheStorage();
    await keepCopiesFor(storage, alice);
    const kept = await keepAnswer(storage, { cacheName: apiCache, member: alice, key: "/a", response: new Response("a") });
    expect(kept).toBe(true);
    expect(await (await storage.match("/a", { cacheName: apiCache }))?.text()).toBe("a");
  });

  it("lets the purge win when it lands between the check and the put: the member's cache is not made again", async () => {
    let signedOut = false;
    const storage: CacheStorage = fakeCacheStorage({
      // The member signs out after the worker checked who reads, before it opens the cache to put.
      beforeOpen: async (name) => {
        if (name === apiCache && !signedOut) {
          signedOut = true;
          await forgetKeptCopies(storage);
        }
      },
    });
    await keepCopiesFor(storage, alice);

    const kept = await keepAnswer(storage, { cacheName: apiCache, member: alice, key: "/a", response: new Response("a") });
    expect(signedOut).toBe(true);
    expect(kept).toBe(false);
    expect(await storage.keys()).toEqual([]);
  });

  it("keeps nothing for a member who no longer reads here, and looking makes no cache", async () => {
    const storage = fakeCacheStorage();
    expect(await keepAnswer(storage, { cacheName: apiCache, member: alice, key: "/a", response: new Response("a") })).toBe(false);
    await keepCopiesFor(storage, bob);
    expect(await keepAnswer(storage, { cacheName: apiCache, member: alice, key: "/a", response: new Response("a") })).toBe(false);
    expect(await storage.keys()).toEqual([memberCacheName]);
  });

  it("drops the oldest photos past the limit", async () => {
    const storage = fakeCacheStorage();
    await keepCopiesFor(storage, alice);
    const cacheName = `memory-box-photos-${alice}`;
    for (const key of ["/1", "/2", "/3"]) {
      await keepAnswer(storage, { cacheName, member: alice, key, response: new Response(key), limit: 2 });
    }
    expect(await (await storage.open(cacheName)).keys()).toEqual(["/2", "/3"]);
  });
});

describe("the worker's strategies", () => {
  const token = tokenOf({ sub: alice });
  const memoryUrl = `${origin}/api/v1/memories/42`;
  const apiRequest = (withToken = true) =>
    new Request(memoryUrl, { headers: withToken ? { authorization: `Bearer ${token}` } : {} });

  function world(storage: CacheStorage, fetch: (request: Request) => Promise<Response>) {
    const work: Promise<unknown>[] = [];
    return { storage, fetch: vi.fn(fetch), waitUntil: (promise: Promise<unknown>) => void work.push(promise), work };
  }

  it("sends an API request before any cache bookkeeping, and answers even while Cache Storage hangs", async () => {
    const hanging = new Promise<never>(() => undefined);
    const stuck = {
      open: () => hanging,
      keys: () => hanging,
      delete: () => hanging,
      has: () => hanging,
      match: () => hanging,
    } as unknown as CacheStorage;
    const w = world(stuck, async () => new Response("fresh", { status: 200 }));

    const answer = await answerApiRequest(apiRequest(), origin, w, 5_000);
    expect(await answer.text()).toBe("fresh");
    expect(w.fetch).toHaveBeenCalledTimes(1);
    // The keeping goes on beside the answer, the worker held alive for it.
    expect(w.work).toHaveLength(1);
  });

  it("keeps the answer for the member reading here, and answers from it when the network fails", async () => {
    const storage = fakeCacheStorage();
    await keepCopiesFor(storage, alice);
    const online = world(storage, async () => new Response("fresh", { status: 200 }));
    await answerApiRequest(apiRequest(), origin, online, 5_000);
    await Promise.all(online.work);

    const offline = world(storage, async () => {
      throw new TypeError("Failed to fetch");
    });
    expect(await (await answerApiRequest(apiRequest(), origin, offline, 5_000)).text()).toBe("fresh");
    // Without the token, nothing from the device.
    await expect(answerApiRequest(apiRequest(false), origin, offline, 5_000)).rejects.toThrow("Failed to fetch");
    // After a sign-out, not even to the old token.
    await forgetKeptCopies(storage);
    await expect(answerApiRequest(apiRequest(), origin, offline, 5_000)).rejects.toThrow("Failed to fetch");
    expect(await storage.keys()).toEqual([]);
  });

  it("keeps no answer for a token whose member is not the one signed in here", async () => {
    const storage = fakeCacheStorage();
    await keepCopiesFor(storage, bob);
    const w = world(storage, async () => new Response("fresh", { status: 200 }));
    await answerApiRequest(apiRequest(), origin, w, 5_000);
    await Promise.all(w.work);
    expect(await storage.keys()).toEqual([memberCacheName]);
  });

  it("answers a kept photo without the network, and sends photos to the network alone when no one reads here", async () => {
    const photoUrl = `${origin}/storage/v1/object/authenticated/memory-photos/a/thumb.webp`;
    const storage = fakeCacheStorage();
    const nobody = world(storage, async () => new Response("bytes", { status: 200 }));
    await answerPhotoRequest(new Request(photoUrl), origin, nobody, 10);
    expect(nobody.work).toHaveLength(0);
    expect(await storage.keys()).toEqual([]);

    await keepCopiesFor(storage, alice);
    const first = world(storage, async () => new Response("bytes", { status: 200 }));
    await answerPhotoRequest(new Request(photoUrl), origin, first, 10);
    await Promise.all(first.work);
    const again = world(storage, async () => {
      throw new TypeError("Failed to fetch");
    });
    expect(await (await answerPhotoRequest(new Request(photoUrl), origin, again, 10)).text()).toBe("bytes");
    expect(again.fetch).not.toHaveBeenCalled();
  });
});
