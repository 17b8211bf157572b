import { match } from "@formatjs/intl-localematcher";

/**
 * The languages Memory Box speaks, as BCP 47 tags. English is the default: the seed's texts, byte for
 * byte, and the answer for any language we do not have. A language is added here once every key of
 * the catalogue has its text in it (the catalogue check refuses a missing one).
 */
export const supportedLocales = ["en", "de", "fr", "es", "pt-BR", "it", "nl", "pl", "ja", "ar"] as const;
/**
 * The pseudo-locale (pseudo-locale.ts): English framed, accented and longer, for looking at the
 * screens as a longer language sets them. Never offered, never kept: only a browser whose first
 * language is this tag gets it (the screens journey's).
 */
export const pseudoLocale = "en-XA";
export type Locale = (typeof supportedLocales)[number] | typeof pseudoLocale;
export const defaultLocale: Locale = "en";

export function isSupportedLocale(value: unknown): value is Locale {
  return typeof value === "string" && (supportedLocales as readonly string[]).includes(value);
}

/**
 * The best of our languages for what a browser asks for, in its order of preference
 * (`navigator.languages`, or an `Accept-Language` header read by `localesFromAcceptLanguage`).
 * "pt-PT" finds "pt-BR" when that is the Portuguese we have; nothing close finds English. The server
 * may pass the languages it offers (`available`) instead of `supportedLocales`.
 */
export function negotiateLocale(requested: readonly string[]): Locale;
export function negotiateLocale(requested: readonly string[], available: readonly string[]): string;
export function negotiateLocale(requested: readonly string[], available: readonly string[] = supportedLocales): string {
  const valid = requested.filter((tag) => {
    try {
      return Intl.getCanonicalLocales(tag).length === 1;
    } catch {
      return false;
    }
  });
  return match(valid, available, defaultLocale, { algorithm: "best fit" });
}

/** The tags of an `Accept-Language` header, most wanted first ("*" and malformed parts left out). */
export function localesFromAcceptLanguage(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .slice(0, 1_000)
    .split(",")
    .map((part, index) => {
      const [tag = "", ...parameters] = part.trim().split(";");
      const q = parameters.map((parameter) => /^\s*q=([01](?:\.\d{1,3})?)\s*$/.exec(parameter)?.[1]).find(Boolean);
      return { tag: tag.trim(), weight: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag && entry.tag !== "*" && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.tag);
}

/**
 * The browser's side of `negotiateLocale`, without its matching data (kilobytes the first screen
 * cannot carry): the first of the requested languages that we have, by its whole tag, else by its
 * language alone ("de-CH" finds "de", "pt-PT" finds "pt-BR"); nothing close finds English.
 */
export function pickLocale(requested: readonly string[]): Locale {
  const ours = supportedLocales.map((locale) => ({ locale, tag: locale.toLowerCase(), language: locale.split("-")[0]! }));
  for (const wanted of requested) {
    const tag = wanted.trim().toLowerCase();
    const exact = ours.find((entry) => entry.tag === tag);
    if (exact) return exact.locale;
    const sameLanguage = ours.find((entry) => entry.language === tag.split("-")[0]);
    if (sameLanguage) return sameLanguage.locale;
  }
  return defaultLocale;
}
