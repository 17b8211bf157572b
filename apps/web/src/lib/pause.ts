/**
 * Waits `ms`, or less when `signal` aborts first: it then resolves at once, and the caller looks at
 * the signal. The abort listener goes when the wait ends either way, so a signal that lives for
 * days (a frame's slideshow, a live stream) does not gather one listener per wait.
 */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done);
  });
}
