import { beforeEach, describe, expect, it, vi } from "vitest";

import { forgetKeptCopies, keepCopiesFor } from "./offline-copies";
import {
  initiatorOf,
  isShareFromThisDevice,
  keepSharedPhotos,
  type ShareRequestFacts,
  shareTtlMs,
  takeSharedPhotos,
  unclaimedSharesCache,
} from "./shared-photos";

const origin = "https://box.example";
const alice = "5f0c9a55-8f7e-4bb4-9f0e-2f3c4f5a6b7c";
const bob = "9a1b2c3d-0000-4000-8000-000000000002";
const now = Date.UTC(2998, 2, 4, 12);

/** Cache Storage as the browser has it: bodies and headers kept, keys answered as absolute requests. */
function fakeCacheStorage({ beforeOpen }: { beforeOpen?: (name: string) => Promise<void> } = {}): CacheStorage {
  type Stored = { body: ArrayBuffer; headers: [string, string][] };
  const caches = new Map<string, Map<string, Stored>>();
  const url = (key: RequestInfo | URL) =>
    new URL(typeof key === "string" ? key : key instanceof URL ? key.href : key.url, origin).href;
  const answer = (stored: Stored | undefined) =>
    stored ? new Response(stored.body.slice(0), { headers: stored.headers }) : undefined;
  const cacheOf = (entries: Map<string, Stored>) =>
    ({
      match: async (key: RequestInfo | URL) => answer(entries.get(url(key))),
      put: async (key: RequestInfo | URL, value: Response) => {
        entries.set(url(key), { body: await value.arrayBuffer(), headers: [...value.headers] });
      },
      keys: async () => [...entries.keys()].map((key) => new Request(key)),
      delete: async (key: RequestInfo | URL) => entries.delete(url(key)),
    }) as unknown as Cache;
  return {
    open: async (name: string) => {
      await beforeOpen?.(name);
      const entries = caches.get(name) ?? new Map<string, Stored>();
      caches.set(name, entries);
      return cacheOf(entries);
    },
    keys: async () => [...caches.keys()],
    delete: async (name: string) => caches.delete(name),
    has: async (name: string) => caches.has(name),
    match: async (key: RequestInfo | URL, options?: MultiCacheQueryOptions) =>
      answer(options?.cacheName === undefined ? undefined : caches.get(options.cacheName)?.get(url(key))),
  };
}

/** The POST a phone's share sheet sends: multipart, the files in the `photos` field. */
function shareRequest(files: Array<{ name: string; type: string; content: string }>): Request {
  const boundary = "----memory-box-share";
  const parts = files.map(
    (file) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n${file.content}\r\n`,
  );
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nHoliday\r\n${parts.join("")}--${boundary}--\r\n`;
  return new Request(`${origin}/share`, {
    method: "POST",
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    body,
  });
}

const beach = { name: "beach café.jpg", type: "image/jpeg", content: "jpeg bytes" };
const dunes = { name: "dunes.png", type: "image/png", content: "png bytes" };

async function described(files: File[]) {
  return Promise.all(files.map(async (file) => ({ name: file.name, type: file.type, content: await file.text() })));
}

describe("photos shared to the app", () => {
  // The worker's code runs on Node's fetch classes here. Node 24's Request.formData() builds each
  // part with the global File and then refuses any but its own, so jsdom's File must not stand in.
  // (The set-up unstubs globals after each test.)
  beforeEach(async () => {
    const nodeBuffer = "node:buffer";
    vi.stubGlobal("File", ((await import(/* @vite-ignore */ nodeBuffer)) as { File: typeof File }).File);
  });

  it("keeps a share for the member reading here and gives it to them once, names and types intact", async () => {
    const storage = fakeCacheStorage();
    await keepCopiesFor(storage, alice);
    const path = await keepSharedPhotos(shareRequest([beach, dunes]), storage, now);
    expect(path).toMatch(/^\/add-shared\/[0-9a-f-]{36}$/);
    const id = path.split("/").pop()!;
    expect(await storage.keys()).toContain(`memory-box-shared-${alice}`);

    const pickup = await takeSharedPhotos(storage, id, alice, now + 1000);
    expect(pickup.status).toBe("taken");
    expect(await described(pickup.status === "taken" ? pickup.files : [])).toEqual([beach, dunes]);
    // Taken once: a second look finds nothing.
    expect(await takeSharedPhotos(storage, id, alice, now + 2000)).toEqual({ status: "missing" });
  });

  it("never gives one member's share to another, and another member signing in deletes it", async () => {
    const storage = fakeCacheStorage();
    await keepCopiesFor(storage, alice);
    const id = (await keepSharedPhotos(shareRequest([beach]), storage, now)).split("/").pop()!;

    expect(await takeSharedPhotos(storage, id, bob, now)).toEqual({ status: "missing" });
    await keepCopiesFor(storage, bob);
    expect(await storage.keys()).not.toContain(`memory-box-shared-${alice}`);
    expect(await takeSharedPhotos(storage, id, alice, now)).toEqual({ status: "missing" });
  });

  it("deletes a member's share at sign-out", async () => {
    const storage = fakeCacheStorage();
    await keepCopiesFor(storage, alice);
    const id = (await keepSharedPhotos(shareRequest([beach]), storage, now)).split("/").pop()!;
    await forgetKeptCopies(storage);
    expect(await storage.keys()).toEqual([]);
    expect(await takeSharedPhotos(storage, id, alice, now)).toEqual({ status: "missing" });
  });

  it("lets a sign-out that lands while the share is being kept win", async () => {
    let signedOut = false;
    const storage: CacheStorage = fakeCacheStorage({
      // The member signs out after the worker checked who reads here, before it opens their cache.
      beforeOpen: async (name) => {
        if (signedOut || name !== `memory-box-shared-${alice}`) return;
        signedOut = true;
        await forgetKeptCopies(storage);
      },
    });
    await keepCopiesFor(storage, alice);
    await keepSharedPhotos(shareRequest([beach]), storage, now);
    expect(signedOut).toBe(true);
    expect(await storage.keys()).toEqual([]);
  });

  it("keeps a share made while signed out for the sign-in that follows, through a sign-out's purge, for 15 minutes", async () => {
    const storage = fakeCacheStorage();
    const id = (await keepSharedPhotos(shareRequest([beach]), storage, now)).split("/").pop()!;
    expect(await storage.keys()).toEqual([unclaimedSharesCache]);
    // The app starts signed out and empties every member's copies: the share stays.
    await forgetKeptCopies(storage);

    const pickup = await takeSharedPhotos(storage, id, bob, now + shareTtlMs - 1);
    expect(await described(pickup.status === "taken" ? pickup.files : [])).toEqual([beach]);
  });

  it("drops a share left waiting too long, and says so", async () => {
    const storage = fakeCacheStorage();
    const stale = (await keepSharedPhotos(shareRequest([beach]), storage, now)).split("/").pop()!;
    const other = (await keepSharedPhotos(shareRequest([dunes]), storage, now)).split("/").pop()!;
    expect(await takeSharedPhotos(storage, stale, alice, now + shareTtlMs + 1)).toEqual({ status: "stale" });
    // Every stale share went on the way, not only the one asked for.
    expect(await takeSharedPhotos(storage, other, alice, now + shareTtlMs + 1)).toEqual({ status: "missing" });
    expect(await (await storage.open(unclaimedSharesCache)).keys()).toEqual([]);
  });

  it("opens the form with nothing chosen for a POST that is not a form", async () => {
    const storage = fakeCacheStorage();
    const request = new Request(`${origin}/share`, { method: "POST", body: "not a form" });
    const id = (await keepSharedPhotos(request, storage, now)).split("/").pop()!;
    expect(await takeSharedPhotos(storage, id, alice, now)).toEqual({ status: "taken", files: [] });
  });
});

describe("who may post to the share target (ADR 0044)", () => {
  const facts = (overrides: Partial<ShareRequestFacts>): ShareRequestFacts => ({
    origin: null,
    referrer: "",
    initiator: "none",
    ...overrides,
  });

  it.each<[string, Partial<ShareRequestFacts>]>([
    ["the share sheet: no page, an opaque origin, no referrer", { origin: "null" }],
    ["the share sheet without an Origin header", {}],
    ["this app's own page", { origin, referrer: `${origin}/`, initiator: "this-app" }],
    ["this app's own page hiding its referrer", { origin: "null", initiator: "this-app" }],
  ])("takes %s", (_name, overrides) => {
    expect(isShareFromThisDevice(facts(overrides), origin)).toBe(true);
  });

  it.each<[string, Partial<ShareRequestFacts>]>([
    ["another site's form", { origin: "https://evil.example", referrer: "https://evil.example/", initiator: "elsewhere" }],
    ["another site naming itself only in Origin", { origin: "https://evil.example" }],
    ["another site naming itself only in the referrer", { referrer: "https://evil.example/page" }],
    ["another site hiding its address (no-referrer)", { origin: "null", initiator: "elsewhere" }],
    ["a sibling on the same site", { origin: "https://photos.box.example", initiator: "elsewhere" }],
    ["another port of the same host", { origin: "https://box.example:8443" }],
    ["an unreadable referrer", { referrer: "not a url" }],
  ])("refuses %s", (_name, overrides) => {
    expect(isShareFromThisDevice(facts(overrides), origin)).toBe(false);
  });

  it("tells the page that started a navigation: none, one of this app's, or another site's", async () => {
    const clients = {
      get: async (id: string) =>
        ({ mine: { url: `${origin}/memory/1` }, theirs: { url: "https://evil.example/" } })[id as "mine" | "theirs"],
    };
    expect(await initiatorOf("", clients, origin)).toBe("none");
    expect(await initiatorOf("mine", clients, origin)).toBe("this-app");
    expect(await initiatorOf("theirs", clients, origin)).toBe("elsewhere");
    // A page of another origin is not among the worker's clients at all.
    expect(await initiatorOf("unknown", clients, origin)).toBe("elsewhere");
  });
});
