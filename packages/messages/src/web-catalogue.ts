import type { MessageFormatElement } from "@formatjs/icu-messageformat-parser";

import english from "../catalogue/en/web.json";
import { defaultLocale, type Locale } from "./locales";

/** The web app's message ids: the keys of the English catalogue, which every other language has too. */
export type WebMessageId = keyof typeof english;

/**
 * One language's messages for the web app, the first screen and the service worker's notices, as
 * the web app's build loads them: each message already parsed (its ICU syntax tree), a message
 * without placeholders as its plain text, so the ICU parser stays out of the bundle.
 */
export type WebMessages = Record<string, string | MessageFormatElement[]>;

/**
 * Here (development and tests) English is imported with this module and every other language is a
 * chunk of its own, loaded when chosen; the built app replaces this module (apps/web/vite.config.ts)
 * and loads every language, English too, in parts. A language here is offered once it is in
 * `supportedLocales` too (the server's texts with it).
 */
const otherLanguages: Partial<Record<string, () => Promise<{ default: WebMessages }>>> = {
  de: () => import("../catalogue/de/web.json"),
  fr: () => import("../catalogue/fr/web.json"),
  es: () => import("../catalogue/es/web.json"),
  nl: () => import("../catalogue/nl/web.json"),
  pl: () => import("../catalogue/pl/web.json"),
  "pt-BR": () => import("../catalogue/pt-BR/web.json"),
  it: () => import("../catalogue/it/web.json"),
  ja: () => import("../catalogue/ja/web.json"),
  ar: () => import("../catalogue/ar/web.json"),
};

/** The languages the web app has a complete catalogue for. */
export const webCatalogueLocales: readonly string[] = [defaultLocale, ...Object.keys(otherLanguages)];

/**
 * The parts the web app's build cuts the catalogue into, by message id (apps/web/vite.config.ts,
 * `catalogueParts`), each loaded when a screen needs it. Here, in development and in tests, a
 * language comes whole whichever parts are asked for.
 */
export const webMessageParts: readonly string[] = ["shell", "first", "settings", "screens"];

/**
 * The languages whose messages are there at once, without loading anything: English here, which
 * this module imports; none in the built app, where the app's entry carries no message and every
 * language, English too, is loaded before the app is drawn (ADR 0051).
 */
export const bundledWebMessages: Partial<Record<string, WebMessages>> = { [defaultLocale]: english };

/**
 * The web messages of a language (`parts` of them in the built app), loaded on demand. A message a
 * language lacks is English's, filled in here as the built app's files have it filled in at build
 * time (the catalogue check refuses a missing message in CI, so this is a safety net, never a cost).
 */
export async function loadWebMessages(
  locale: Locale | (string & {}),
  // Every part comes with the whole catalogue here; only the built app loads them one by one.
  _parts: readonly string[] = webMessageParts,
): Promise<WebMessages> {
  const load = locale === defaultLocale ? undefined : otherLanguages[locale];
  return load ? { ...english, ...(await load()).default } : english;
}
