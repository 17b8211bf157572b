import { describe, expect, it } from "vitest";

import {
  answerLanguageFile,
  dropStaleLanguageFiles,
  keepLanguage,
  languageOfFile,
  languagesCacheName,
  splitLanguageFiles,
} from "@/lib/offline-languages";
import { fakeCacheStorage } from "@/testing/fake-cache-storage";

const manifest = [
  { url: "index.html", revision: "1" },
  { url: "assets/index-Ab12Cd34.js", revision: null },
  { url: "assets/messages-en-first-Xy-_9876.js", revision: null },
  { url: "assets/messages-de-first-eHX-ab_c.js", revision: null },
  { url: "assets/messages-de-memory-Qw12Er34.js", revision: null },
  { url: "assets/messages-pt-BR-first-Zz11Yy22.js", revision: null },
  "assets/messages-ar-shell-Aa11Bb22.js",
];

/** A network that answers each path with its name, and counts what it was asked. */
function network(offline = false) {
  const asked: string[] = [];
  return {
    asked,
    fetch: async (path: string) => {
      asked.push(path);
      if (offline) throw new TypeError("Failed to fetch");
      return new Response(`source of ${path}`);
    },
  };
}

async function keptPaths(storage: CacheStorage): Promise<string[]> {
  return ((await (await storage.open(languagesCacheName)).keys()) as unknown as string[]).sort();
}

describe("which built files are another language's", () => {
  it("reads the language of a catalogue part from its name, the longest tag first, and English's as the shell's", () => {
    expect(languageOfFile("assets/messages-de-first-eHX-ab_c.js")).toBe("de");
    expect(languageOfFile("/assets/messages-pt-BR-first-Zz11Yy22.js")).toBe("pt-BR");
    expect(languageOfFile("assets/messages-en-first-Xy-_9876.js")).toBeUndefined();
    expect(languageOfFile("assets/index-Ab12Cd34.js")).toBeUndefined();
    expect(languageOfFile("assets/messages-xx-first-Ab12Cd34.js")).toBeUndefined();
  });

  it("precaches the shell and English, and lists every other language's parts by language", () => {
    const { shell, languages } = splitLanguageFiles(manifest);
    expect(shell).toEqual([manifest[0], manifest[1], manifest[2]]);
    expect(Object.fromEntries(languages)).toEqual({
      de: ["/assets/messages-de-first-eHX-ab_c.js", "/assets/messages-de-memory-Qw12Er34.js"],
      "pt-BR": ["/assets/messages-pt-BR-first-Zz11Yy22.js"],
      ar: ["/assets/messages-ar-shell-Aa11Bb22.js"],
    });
  });
});

describe("keeping a language for offline", () => {
  const german = splitLanguageFiles(manifest).languages.get("de")!;

  it("keeps every part of the language the app fetched one of, fetching each once", async () => {
    const storage = fakeCacheStorage();
    const net = network();
    const pending: Promise<unknown>[] = [];

    const answer = await answerLanguageFile(german[0]!, german, {
      storage,
      fetch: net.fetch,
      waitUntil: (work) => pending.push(work),
    });
    await Promise.all(pending);

    expect(await answer.text()).toBe(`source of ${german[0]}`);
    expect(await keptPaths(storage)).toEqual([...german].sort());
    expect(net.asked.sort()).toEqual([...german].sort());
  });

  it("answers from what it kept once offline", async () => {
    const storage = fakeCacheStorage();
    await keepLanguage({ storage, fetch: network().fetch }, german);
    const offline = network(true);

    const answer = await answerLanguageFile(german[1]!, german, { storage, fetch: offline.fetch, waitUntil: () => {} });

    expect(await answer.text()).toBe(`source of ${german[1]}`);
    expect(offline.asked).toEqual([]);
  });

  it("offline with nothing kept, fails as the network does, and keeps nothing half", async () => {
    const storage = fakeCacheStorage();
    const offline = network(true);
    const pending: Promise<unknown>[] = [];

    await expect(
      answerLanguageFile(german[0]!, german, { storage, fetch: offline.fetch, waitUntil: (work) => pending.push(work) }),
    ).rejects.toThrow("Failed to fetch");
    await Promise.all(pending);
    expect(await keptPaths(storage)).toEqual([]);
  });

  it("never keeps an answer that is not the file", async () => {
    const storage = fakeCacheStorage();
    await keepLanguage({ storage, fetch: async () => new Response("gone", { status: 404 }) }, german);
    expect(await keptPaths(storage)).toEqual([]);
  });

  it("drops the parts an earlier build named once the new worker takes over, and keeps the current ones", async () => {
    const storage = fakeCacheStorage();
    const earlier = ["/assets/messages-de-first-Old11111.js"];
    await keepLanguage({ storage, fetch: network().fetch }, [...earlier, ...german]);

    await dropStaleLanguageFiles(storage, splitLanguageFiles(manifest).languages);

    expect(await keptPaths(storage)).toEqual([...german].sort());
  });
});
