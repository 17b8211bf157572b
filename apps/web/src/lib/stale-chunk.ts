/**
 * After a deploy, a page loaded before it asks for lazily loaded chunks (and their CSS) by the old
 * hashed names, which the server no longer has. A reload fetches the new index.html with the new
 * names. It is tried once: the attempt is remembered in sessionStorage, and a second failure soon
 * after is a real outage (or a broken build), which reloading again would only turn into a loop.
 */

/** Each browser words a failed dynamic import its own way; Vite adds its own for a chunk's CSS. */
const staleChunkMessages = [
  /Failed to fetch dynamically imported module/i, // Chromium
  /Importing a module script failed/i, // Safari
  /error loading dynamically imported module/i, // Firefox
  /Unable to preload CSS for/i, // Vite's preload helper
];

const reloadAttemptKey = "memory-box:stale-chunk-reload";

/** A failure within this time of the last reload is the same failure again, not a newer deploy. */
const reloadAttemptWindowMs = 60_000;

export function isStaleChunkError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === "ChunkLoadError" || staleChunkMessages.some((message) => message.test(error.message));
}

/**
 * Whether a reload may be tried now: none was in the last minute. False too when sessionStorage
 * cannot be used (storage disabled), since the attempt could not be remembered.
 */
export function canReloadForStaleChunk(now = Date.now()): boolean {
  try {
    const lastAttempt = sessionStorage.getItem(reloadAttemptKey);
    if (lastAttempt === null) return true;
    // Both ways: a clock set back would otherwise block reloads for as long as it was set back.
    const sinceLastAttempt = Math.abs(now - Number(lastAttempt));
    return Number.isNaN(sinceLastAttempt) || sinceLastAttempt >= reloadAttemptWindowMs;
  } catch {
    return false;
  }
}

/** Notes the attempt and reloads, unless one was tried in the last minute. */
export function reloadForStaleChunk(now = Date.now()): void {
  if (!canReloadForStaleChunk(now)) return;
  try {
    sessionStorage.setItem(reloadAttemptKey, String(now));
  } catch {
    return;
  }
  window.location.reload();
}
