import { describe, expect, it, vi } from "vitest";

import { answerMapFile, dropStaleMapFiles, mapCacheName, splitMapFiles } from "@/lib/offline-map";
import { fakeCacheStorage } from "@/testing/fake-cache-storage";

describe("the map's files offline", () => {
  it("leaves the map's files out of the precache and names them", () => {
    const { shell, map } = splitMapFiles([
      "index.html",
      { url: "assets/index-abc.js", revision: null },
      { url: "assets/map-map-engine-abc.js", revision: null },
      "assets/map-maplibre-gl-worker-def.js",
      "/assets/map-countries-50m-ghi.json",
    ]);

    expect(shell).toEqual(["index.html", { url: "assets/index-abc.js", revision: null }]);
    expect(map).toEqual([
      "/assets/map-map-engine-abc.js",
      "/assets/map-maplibre-gl-worker-def.js",
      "/assets/map-countries-50m-ghi.json",
    ]);
  });

  it("answers from the network once, then from the kept copy, offline too", async () => {
    const storage = fakeCacheStorage();
    const fetch = vi.fn(async () => new Response("atlas"));

    expect(await (await answerMapFile("/assets/map-countries-50m-ghi.json", { storage, fetch })).text()).toBe("atlas");
    const offline = vi.fn(async (): Promise<Response> => {
      throw new TypeError("Failed to fetch");
    });
    expect(await (await answerMapFile("/assets/map-countries-50m-ghi.json", { storage, fetch: offline })).text()).toBe("atlas");
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(offline).not.toHaveBeenCalled();
  });

  it("keeps no failed answer", async () => {
    const storage = fakeCacheStorage();
    const response = await answerMapFile("/assets/map-x.js", {
      storage,
      fetch: async () => new Response("gone", { status: 404 }),
    });

    expect(response.status).toBe(404);
    expect(await (await storage.open(mapCacheName)).keys()).toEqual([]);
  });

  it("drops the files an earlier build named", async () => {
    const storage = fakeCacheStorage();
    const cache = await storage.open(mapCacheName);
    await cache.put("/assets/map-old.js", new Response("old"));
    await cache.put("/assets/map-new.js", new Response("new"));

    await dropStaleMapFiles(storage, ["/assets/map-new.js"]);

    expect(await cache.keys()).toEqual(["/assets/map-new.js"]);
  });
});
