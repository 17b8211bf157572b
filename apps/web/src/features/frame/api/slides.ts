import type { FrameSlide, FrameSlides } from "@memory-box/contract";

import { FrameRemovedError, frameFetch, onFrameForgotten, storedFrameTokens } from "@/features/frame/api/frame-session";

/**
 * What the frame shows and the bytes it showed, kept on the device (ADR 0076) so that it goes on
 * showing through a server or network outage: the slides list in local storage, the photos in
 * Cache Storage, the most recent `mediaCacheLimit` of them.
 */

export const slidesStorageKey = "memory-box-frame-slides";
export const mediaCacheName = "memory-box-frame-media";
/** At most this many photos kept; the oldest go first. */
export const mediaCacheLimit = 200;
const slidesPath = "/api/v1/frame/slides";

/** Every page of slides, and how the frame shows them. */
export interface FrameShow {
  frame: FrameSlides["frame"];
  slides: FrameSlide[];
  refresh_seconds: number;
}

/** Today on this device's calendar ("YYYY-MM-DD"): "On this day" is the frame's own day. */
export function frameToday(now: Date = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** `GET /api/v1/frame/slides?today=`, every page by `next_cursor`; the answer is kept for an outage. */
export async function fetchShow(today: string, signal?: AbortSignal): Promise<FrameShow> {
  let cursor: string | null = null;
  let show: FrameShow | undefined;
  do {
    const query = new URLSearchParams({ today, ...(cursor ? { cursor } : {}) });
    const response = await frameFetch(`${slidesPath}?${query}`, signal);
    if (!response.ok) throw new Error(`The slides were refused (HTTP ${response.status}).`);
    const page = (await response.json()) as FrameSlides;
    show = show
      ? { ...show, slides: [...show.slides, ...page.slides] }
      : { frame: page.frame, slides: [...page.slides], refresh_seconds: page.refresh_seconds };
    cursor = page.next_cursor;
  } while (cursor);
  keepShow(show);
  return show;
}

export function keepShow(show: FrameShow, storage: Storage = window.localStorage): void {
  try {
    storage.setItem(slidesStorageKey, JSON.stringify(show));
  } catch {
    // Full or refused: the frame shows from the network only.
  }
}

/** The slides list kept at the last answer, or null. */
export function keptShow(storage: Storage = window.localStorage): FrameShow | null {
  try {
    const show = JSON.parse(storage.getItem(slidesStorageKey) ?? "null") as FrameShow | null;
    return show && Array.isArray(show.slides) ? show : null;
  } catch {
    return null;
  }
}

function cacheStorage(): CacheStorage | undefined {
  return typeof caches === "undefined" ? undefined : caches;
}

/**
 * A photo's bytes (a slide's `url`, or a video's `video_url`): from the cache when kept, else from
 * the server with the frame's token. A photo (not a video: too large to keep many) is kept, and
 * the oldest beyond `mediaCacheLimit` dropped. Throws FrameRemovedError on a 401, FrameOfflineError
 * when neither the cache nor the server has it.
 */
export async function loadMedia(
  url: string,
  { keep = true, signal }: { keep?: boolean; signal?: AbortSignal } = {},
): Promise<Blob> {
  // A frame forgotten (removed) keeps nothing: its cache is not opened, so not made again.
  if (!storedFrameTokens()) throw new FrameRemovedError();
  const store = cacheStorage();
  const cache = await store?.open(mediaCacheName).catch(() => undefined);
  const kept = await cache?.match(url).catch(() => undefined);
  if (kept) return kept.blob();
  const response = await frameFetch(url, signal);
  if (!response.ok) throw new Error(`The photo was refused (HTTP ${response.status}).`);
  const blob = await response.blob();
  if (keep && cache && storedFrameTokens()) {
    try {
      await cache.put(url, new Response(blob, { headers: { "Content-Type": blob.type } }));
      const keys = await cache.keys();
      for (const old of keys.slice(0, Math.max(0, keys.length - mediaCacheLimit))) await cache.delete(old);
    } catch {
      // Storage full or refused: shown, not kept.
    }
  }
  return blob;
}

/** Everything the frame kept of what it showed: when it is removed, nothing of it stays. */
export async function forgetKeptShow(): Promise<void> {
  try {
    window.localStorage.removeItem(slidesStorageKey);
  } catch {
    // Nothing kept.
  }
  await cacheStorage()
    ?.delete(mediaCacheName)
    .catch(() => false);
}

onFrameForgotten(() => void forgetKeptShow());
