/**
 * Photos shared to Memory Box from the phone's gallery (the manifest's `share_target`, ADR 0031).
 * The service worker receives the share's POST, keeps the files in Cache Storage and sends the
 * page to the address that opens "Add Memory" with them; the page takes them out of the cache,
 * once. Plain functions shared by the worker and the page, like `offline-copies.ts`.
 */
import { keptMember, memberSharesPrefix } from "./offline-copies";

/** Where the share's POST goes (the manifest's `share_target.action`). */
export const sharePath = "/share";
/** The share's form field holding the files (the manifest's `share_target.params.files[0].name`). */
export const shareFilesField = "photos";
/**
 * Shares received while no one is signed in: the sharer signs in next, and the address they were
 * sent to (it names the share) brings the photos to the form. Not anyone's in Memory Box (they come
 * from the phone's own gallery), so a sign-out does not delete them; they go when taken or stale.
 */
export const unclaimedSharesCache = "memory-box-shared";
/** How long a share waits to be taken (a sign-in, a second factor); after that it is dropped. */
export const shareTtlMs = 15 * 60 * 1000;

const shareId = /^[0-9a-f-]{36}$/;
const manifestKey = (id: string) => `/shared/${id}`;
const fileKey = (id: string, index: number) => `/shared/${id}/${index}`;

/** The page that opens "Add Memory" with a share's photos. */
export function sharedPhotosPath(id: string): string {
  return `/add-shared/${id}`;
}

/** Who started a navigation, as the service worker can tell. */
export type ShareInitiator =
  /** No page: the browser itself (the phone's share sheet launching the installed app). */
  | "none"
  /** One of this app's own pages. */
  | "this-app"
  /** A page of another site (or one the worker cannot see). */
  | "elsewhere";

/** What a POST to the share target says about where it comes from. */
export interface ShareRequestFacts {
  /** The `Origin` header, if any: "null" for an opaque origin (a share sheet, or a page hiding its address). */
  origin: string | null;
  /** The request's referrer: "" for none. */
  referrer: string;
  initiator: ShareInitiator;
}

/**
 * Whether a POST to the share target comes from the phone's share sheet (or this app's own page),
 * never from another site's form (ADR 0044): another site names itself in `Origin` or the
 * referrer, and when it hides both (`Origin: null`, no referrer) it is still the page that started
 * the navigation, which a share sheet never is.
 */
export function isShareFromThisDevice(facts: ShareRequestFacts, appOrigin: string): boolean {
  if (facts.origin !== null && facts.origin !== "null" && facts.origin !== appOrigin) return false;
  if (facts.referrer !== "" && originOf(facts.referrer) !== appOrigin) return false;
  return facts.initiator !== "elsewhere";
}

/**
 * Who started a navigation the worker sees: its client is the page that did; the browser itself
 * (a share sheet) has none; a page of another origin is never one of the worker's clients.
 */
export async function initiatorOf(
  clientId: string,
  clients: { get(id: string): Promise<{ url: string } | null | undefined> },
  appOrigin: string,
): Promise<ShareInitiator> {
  if (!clientId) return "none";
  const client = await clients.get(clientId);
  return client && originOf(client.url) === appOrigin ? "this-app" : "elsewhere";
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * In the worker: keeps the files of a share's POST and answers where the page goes next. Kept for
 * the member reading on this device, or as unclaimed when there is none. A sign-out between the
 * check and the put wins, as for every kept copy (`keepAnswer`).
 */
export async function keepSharedPhotos(request: Request, storage: CacheStorage, now = Date.now()): Promise<string> {
  let files: File[] = [];
  try {
    const form = await request.formData();
    files = form.getAll(shareFilesField).filter((value): value is File => typeof value !== "string");
  } catch {
    // Not a form: the page opens "Add Memory" with nothing chosen, and says so.
  }
  const id = crypto.randomUUID();
  const member = await keptMember(storage);
  const cacheName = member ? memberSharesPrefix + member : unclaimedSharesCache;
  const cache = await storage.open(cacheName);
  await Promise.all(
    files.map((file, index) =>
      cache.put(
        fileKey(id, index),
        new Response(file, { headers: { "content-type": file.type, "x-file-name": encodeURIComponent(file.name) } }),
      ),
    ),
  );
  await cache.put(manifestKey(id), Response.json({ at: now, count: files.length }));
  if (member && (await keptMember(storage)) !== member) await storage.delete(cacheName);
  return sharedPhotosPath(id);
}

export type SharePickup =
  | { status: "taken"; files: File[] }
  /** Waited longer than `shareTtlMs`. */
  | { status: "stale" }
  /** Never here, taken already, another member's, or deleted at a sign-out. */
  | { status: "missing" };

/**
 * In the page, for the signed-in `member`: the share's files, taken out of the device (a share
 * is taken once). Only the member's own shares and unclaimed ones are looked at; stale shares
 * are dropped on the way.
 */
export async function takeSharedPhotos(
  storage: CacheStorage,
  id: string,
  member: string,
  now = Date.now(),
): Promise<SharePickup> {
  let pickup: SharePickup = { status: "missing" };
  for (const cacheName of [memberSharesPrefix + member, unclaimedSharesCache]) {
    if (!(await storage.has(cacheName))) continue;
    const cache = await storage.open(cacheName);
    for (const shared of await sharesIn(cache)) {
      const stale = shared.at + shareTtlMs < now;
      if (shared.id === id && pickup.status === "missing") {
        pickup = stale ? { status: "stale" } : { status: "taken", files: await filesOf(cache, shared.id, shared.count) };
      }
      if (shared.id === id || stale) await forgetShare(cache, shared.id, shared.count);
    }
  }
  return pickup;
}

async function sharesIn(cache: Cache): Promise<Array<{ id: string; at: number; count: number }>> {
  const shares: Array<{ id: string; at: number; count: number }> = [];
  for (const request of await cache.keys()) {
    const id = /^\/shared\/([^/]+)$/.exec(new URL(request.url).pathname)?.[1];
    if (!id || !shareId.test(id)) continue;
    const manifest = (await (await cache.match(request))?.json().catch(() => undefined)) as
      { at?: unknown; count?: unknown } | undefined;
    const at = typeof manifest?.at === "number" ? manifest.at : 0;
    const count = typeof manifest?.count === "number" ? manifest.count : 0;
    shares.push({ id, at, count });
  }
  return shares;
}

async function filesOf(cache: Cache, id: string, count: number): Promise<File[]> {
  const files: File[] = [];
  for (let index = 0; index < count; index++) {
    const response = await cache.match(fileKey(id, index));
    if (!response) continue;
    const name = decodeURIComponent(response.headers.get("x-file-name") ?? "") || `shared-photo-${index + 1}`;
    files.push(new File([await response.arrayBuffer()], name, { type: response.headers.get("content-type") ?? "" }));
  }
  return files;
}

async function forgetShare(cache: Cache, id: string, count: number): Promise<void> {
  await Promise.all(
    [manifestKey(id), ...Array.from({ length: count }, (_, index) => fileKey(id, index))].map((key) => cache.delete(key)),
  );
}
