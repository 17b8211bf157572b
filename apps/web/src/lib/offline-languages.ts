/**
 * The catalogue's files for opening offline (ADR 0031, 0051). The worker's precache holds the app
 * shell with English's parts; every other language's parts (five files of some 13 KB each, ten
 * languages) are kept only on a device that reads in that language: the browser's language at
 * install, and any language whose part the app fetches through the worker (a choice in Settings,
 * an account's language on a new device). Plain functions the worker uses, tested without one.
 */
import { defaultLocale, supportedLocales, type Locale } from "@memory-box/messages";

/** The cache of other languages' parts; a member's sign-out keeps it (it holds nothing of theirs). */
export const languagesCacheName = "memory-box-languages";

/** Longest tag first, so "pt-BR"'s files are never read as another language's. */
const localesLongestFirst = [...supportedLocales].sort((a, b) => b.length - a.length);

/** A built file's path from its precache manifest URL ("assets/x.js" or "/assets/x.js"). */
function pathOf(url: string): string {
  return url.startsWith("/") ? url : `/${url}`;
}

/**
 * The language whose catalogue part a built file is (`assets/messages-<locale>-<part>-<hash>.js`,
 * apps/web/vite.config.ts); undefined for English's parts, which the shell needs offline whatever
 * the language, and for every other file.
 */
export function languageOfFile(url: string): Locale | undefined {
  const name = url.slice(url.lastIndexOf("/") + 1);
  const locale = localesLongestFirst.find((candidate) => name.startsWith(`messages-${candidate}-`));
  return locale === defaultLocale ? undefined : locale;
}

/** The precache manifest without other languages' parts, and those parts' paths by language. */
export function splitLanguageFiles<Entry extends string | { url: string }>(
  manifest: readonly Entry[],
): { shell: Entry[]; languages: Map<Locale, string[]> } {
  const shell: Entry[] = [];
  const languages = new Map<Locale, string[]>();
  for (const entry of manifest) {
    const url = typeof entry === "string" ? entry : entry.url;
    const locale = languageOfFile(url);
    if (locale === undefined) {
      shell.push(entry);
      continue;
    }
    languages.set(locale, [...(languages.get(locale) ?? []), pathOf(url)]);
  }
  return { shell, languages };
}

/** What keeping a language's parts needs: the worker's caches and network. */
export interface LanguageWorld {
  storage: CacheStorage;
  fetch: (path: string) => Promise<Response>;
}

/** The path a cache key names (the worker's keys are Requests with whole URLs). */
function keyPath(key: Request | string): string {
  return new URL(typeof key === "string" ? key : key.url, "http://localhost").pathname;
}

/**
 * Keeps every part of one language that is not kept yet. A part that cannot be fetched now (offline,
 * a deploy meanwhile) is left for the next time; the others stay.
 */
export async function keepLanguage(world: LanguageWorld, paths: readonly string[]): Promise<void> {
  const cache = await world.storage.open(languagesCacheName);
  const kept = new Set((await cache.keys()).map(keyPath));
  await Promise.all(
    paths
      .filter((path) => !kept.has(path))
      .map(async (path) => {
        try {
          const response = await world.fetch(path);
          if (response.ok) await cache.put(path, response);
        } catch {
          // Offline: kept the next time a part of this language is fetched online.
        }
      }),
  );
}

/** Drops the kept parts this version of the app no longer names (an earlier build's files). */
export async function dropStaleLanguageFiles(storage: CacheStorage, current: ReadonlyMap<Locale, string[]>): Promise<void> {
  if (!(await storage.has(languagesCacheName))) return;
  const known = new Set([...current.values()].flat());
  const cache = await storage.open(languagesCacheName);
  await Promise.all((await cache.keys()).filter((key) => !known.has(keyPath(key))).map((key) => cache.delete(key)));
}

/**
 * The answer to a fetch of another language's part: the kept copy, else the network's (kept). Either
 * way the rest of that language is kept too (`keepLanguage`, in `waitUntil`), so a screen opened
 * offline later finds its part.
 */
export async function answerLanguageFile(
  path: string,
  paths: readonly string[],
  world: LanguageWorld & { waitUntil: (work: Promise<unknown>) => void },
): Promise<Response> {
  const cache = await world.storage.open(languagesCacheName);
  let response = await cache.match(path);
  if (!response) {
    response = await world.fetch(path);
    if (response.ok) await cache.put(path, response.clone());
  }
  world.waitUntil(keepLanguage(world, paths));
  return response;
}
