import { defaultLocale, isSupportedLocale, pickLocale, pseudoLocale, type Locale } from "@memory-box/messages";

/**
 * The language Memory Box speaks to this member: the one chosen in Settings (kept on this device,
 * and on the account, which a new device takes at sign-in: `adoptAccountLocale`), else the best of ours for the
 * browser's `navigator.languages`, else English. No React here: the first screen's script reads it
 * too, before anything is painted.
 */
const storageKey = "memory-box-locale";

/** Languages written right to left, by primary subtag. */
const rightToLeft = new Set(["ar", "fa", "he", "ur"]);

/**
 * The tag given to `Intl` for dates, numbers and relative times. English is US English, as the
 * seed's texts have always been ("November 25, 2026").
 */
const intlTags: Partial<Record<Locale, string>> = { en: "en-US", [pseudoLocale]: "en-US" };

export function intlLocale(locale: Locale): string {
  return intlTags[locale] ?? locale;
}

export function textDirection(locale: string): "ltr" | "rtl" {
  return rightToLeft.has(locale.split("-")[0]!.toLowerCase()) ? "rtl" : "ltr";
}

/** The member's own choice on this device, if any (and still one of ours). */
export function storedLocale(storage: Pick<Storage, "getItem"> = window.localStorage): Locale | undefined {
  try {
    const value = storage.getItem(storageKey);
    return isSupportedLocale(value) ? value : undefined;
  } catch {
    // Storage refused (a private window's policy): the browser's languages decide.
    return undefined;
  }
}

/** The language to start in: the member's choice, else the browser's languages. */
export function initialLocale(
  storage: Pick<Storage, "getItem"> = window.localStorage,
  languages: readonly string[] = typeof navigator === "undefined" ? [] : navigator.languages,
): Locale {
  return (
    storedLocale(storage) ?? (languages[0]?.toLowerCase() === pseudoLocale.toLowerCase() ? pseudoLocale : pickLocale(languages))
  );
}

/** `<html lang dir>` for a language: screen readers, hyphenation, fonts and the layout's direction. */
export function applyDocumentLocale(locale: Locale, root: HTMLElement = document.documentElement): void {
  root.lang = locale;
  root.dir = textDirection(locale);
}

let current: Locale | undefined;
const listeners = new Set<() => void>();

/** The language in use now (dates and numbers outside React read it too). */
export function currentLocale(): Locale {
  current ??= initialLocale();
  return current;
}

/**
 * Changes the language at once, everywhere, without a reload, and keeps the choice on this
 * device (Settings keeps it on the account too). `undefined` forgets the choice: the browser's
 * languages decide again. `<html lang dir>` follows once the language's messages are shown
 * (I18nProvider), not before.
 */
export function setLocale(
  locale: Locale | undefined,
  storage: Pick<Storage, "setItem" | "removeItem"> = window.localStorage,
): void {
  try {
    if (locale === undefined) storage.removeItem(storageKey);
    else storage.setItem(storageKey, locale);
  } catch {
    // Not kept on this device; it still applies until the page is left.
  }
  const next = locale ?? initialLocale();
  if (next === current) return;
  current = next;
  for (const listener of listeners) listener();
}

/**
 * At sign-in, a device with no choice of its own takes the account's language (chosen in Settings
 * on another device, kept as the account's `locale`), at once and from then on, as if chosen here.
 * A device whose member chose a language here keeps it. Says whether the language was taken.
 */
export function adoptAccountLocale(
  accountLocale: unknown,
  storage: Pick<Storage, "getItem" | "setItem" | "removeItem"> = window.localStorage,
): boolean {
  if (!isSupportedLocale(accountLocale) || storedLocale(storage) !== undefined) return false;
  setLocale(accountLocale, storage);
  return true;
}

export function subscribeToLocale(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export { defaultLocale };
