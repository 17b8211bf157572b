import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { canReloadForStaleChunk, isStaleChunkError, reloadForStaleChunk } from "@/lib/stale-chunk";

describe("isStaleChunkError", () => {
  it.each([
    ["Chromium", new TypeError("Failed to fetch dynamically imported module: https://example.com/assets/home-a1.js")],
    ["Safari", new TypeError("Importing a module script failed.")],
    ["Firefox", new TypeError("error loading dynamically imported module: https://example.com/assets/home-a1.js")],
    ["Vite's CSS preload", new Error("Unable to preload CSS for /assets/home-a1.css")],
    ["webpack", Object.assign(new Error("Loading chunk 7 failed."), { name: "ChunkLoadError" })],
  ])("recognises %s's failed chunk", (_browser, error) => {
    expect(isStaleChunkError(error)).toBe(true);
  });

  it("leaves other errors alone", () => {
    expect(isStaleChunkError(new TypeError("Cannot read properties of undefined (reading 'title')"))).toBe(false);
    expect(isStaleChunkError("Failed to fetch dynamically imported module")).toBe(false);
    expect(isStaleChunkError(undefined)).toBe(false);
  });
});

describe("reloadForStaleChunk", () => {
  const reload = vi.fn();

  beforeEach(() => {
    sessionStorage.clear();
    reload.mockClear();
    vi.stubGlobal("location", { ...window.location, reload });
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("reloads once a minute at most", () => {
    const start = 1_700_000_000_000;
    reloadForStaleChunk(start);
    reloadForStaleChunk(start + 59_000);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(canReloadForStaleChunk(start + 59_000)).toBe(false);

    reloadForStaleChunk(start + 60_000);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it("does not reload when the attempt cannot be remembered", () => {
    vi.spyOn(Storage.prototype, "setItem").mockImplementation(() => {
      throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    });

    reloadForStaleChunk();

    expect(reload).not.toHaveBeenCalled();
  });
});
