/**
 * Search compares text as a person reads it: without case and without accents, on both engines
 * alike. The text is folded here, once, in TypeScript (never by the database, whose collations
 * and lower() differ between SQLite and PostgreSQL), both when a memory is stored and when a
 * query arrives, so the database only compares folded text with folded text.
 */
import { supportedLocales } from "@memory-box/messages";

/** "Café DÉJÀ-VU" → "cafe deja-vu": compatibility-decomposed, combining marks removed, lower-cased. */
export function foldForSearch(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .normalize("NFC");
}

/**
 * What a memory is found by: its title, description and tags, and its place's name and its
 * country's names in every language the app speaks ("Portugal", "Portogallo", "ポルトガル"…), so a
 * search typed in any of them finds it; folded, one per line.
 */
export function memorySearchText(fields: {
  title: string;
  content: string | null;
  tags: readonly string[];
  place?: { name: string; country_code: string | null } | null | undefined;
}): string {
  const place = fields.place ? [fields.place.name, ...countryNames(fields.place.country_code)] : [];
  return foldForSearch([fields.title, fields.content ?? "", ...fields.tags, ...place].join("\n"));
}

const countryNamers = new Map<string, Intl.DisplayNames>();

/** A country's names in the app's languages, without repeats; none for null or an unknown code. */
export function countryNames(code: string | null): string[] {
  if (code === null) return [];
  const names = new Set<string>();
  for (const locale of supportedLocales) {
    let namer = countryNamers.get(locale);
    if (!namer) {
      namer = new Intl.DisplayNames([locale], { type: "region", fallback: "none" });
      countryNamers.set(locale, namer);
    }
    try {
      const name = namer.of(code);
      if (name) names.add(name);
    } catch {
      // Not a region code Intl knows: the place's name still finds the memory.
    }
  }
  return [...names];
}

/** A word's surrounding punctuation ("(mountain," → "mountain"); a word of punctuation alone stays as typed. */
const edgePunctuation = /^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu;

/**
 * The words of a query, folded and without repeats: each must occur somewhere in a memory's text
 * (in any order, anywhere in a word). Empty when the query has no word at all.
 */
export function searchWords(query: string): string[] {
  const words = foldForSearch(query)
    .split(/\s+/u)
    .map((word) => word.replace(edgePunctuation, "") || word)
    .filter((word) => word !== "");
  // A word inside another adds nothing: "moun mountain" asks no more than "mountain".
  const unique = [...new Set(words)];
  return unique.filter((word) => !unique.some((other) => other !== word && other.includes(word)));
}

/** The trigram indexes (SQLite's FTS5 table, PostgreSQL's pg_trgm) serve words of this many characters or more; shorter ones are compared row by row. */
export const trigramLength = 3;

/** Whether the trigram indexes can serve a word (by characters, not UTF-16 units). */
export function servedByTrigrams(word: string): boolean {
  return [...word].length >= trigramLength;
}

/** `%word%` for LIKE with backslash as its escape: the word's wildcards and backslashes taken literally. */
export function containsPattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
