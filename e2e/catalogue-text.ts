import fs from "node:fs";
import { parse, TYPE } from "@formatjs/icu-messageformat-parser";
import { pseudoLocale } from "@memory-box/messages";
import { pseudoMessage } from "@memory-box/messages/pseudo";
import IntlMessageFormat from "intl-messageformat";

/**
 * The language a journey that asks for it runs in (the screens journey): E2E_LOCALE, one of the
 * languages of packages/messages/catalogue or the pseudo-locale (en-XA), English by default.
 */
export const journeyLocale = process.env.E2E_LOCALE ?? "en";

/** Every message of a language (web, mail, errors, export), by id. */
export function catalogue(locale: string): Record<string, string> {
  const folder = new URL(`../packages/messages/catalogue/${locale}/`, import.meta.url);
  if (!fs.existsSync(folder)) throw new Error(`E2E_LOCALE=${locale}: the catalogue has no such language`);
  return Object.assign(
    {},
    ...fs
      .readdirSync(folder)
      .filter((file) => file.endsWith(".json"))
      .map((file) => JSON.parse(fs.readFileSync(new URL(file, folder), "utf8")) as Record<string, string>),
  ) as Record<string, string>;
}

/** The web app's messages of a language (its `web.json`), by id. */
export function webCatalogue(locale: string): Record<string, string> {
  return JSON.parse(
    fs.readFileSync(new URL(`../packages/messages/catalogue/${locale}/web.json`, import.meta.url), "utf8"),
  ) as Record<string, string>;
}

/**
 * What the page says in `locale` where it says `english` in English, so that a journey written in
 * English finds its buttons and headings in any language: the catalogue's message whose English is
 * `english`, its simple placeholders (`{title}`) filled from `values`. A text not in the catalogue
 * yet is English in every language and comes back as it is. An English text the language says in
 * two ways is refused: name the one meant by its id instead (`t("auth.tab.signIn")`), which
 * finds that message in any language.
 */
export function textsIn(locale: string): (english: string, values?: Record<string, string | number>) => string {
  if (locale === pseudoLocale) return pseudoTexts;
  const english = catalogue("en");
  const own = locale === "en" ? english : catalogue(locale);
  const translations = new Map<string, Set<string>>();
  for (const [id, message] of Object.entries(english)) {
    const found = translations.get(message) ?? new Set<string>();
    found.add(own[id] ?? message);
    translations.set(message, found);
  }
  return (text, values = {}) => {
    const found = text in english ? [own[text] ?? english[text]!] : [...(translations.get(text) ?? [text])];
    if (found.length > 1) throw new Error(`"${text}" is said in ${found.length} ways in ${locale}: ${found.join(" / ")}`);
    return found[0]!.replace(/\{(\w+)\}/g, (placeholder, name: string) => (name in values ? String(values[name]) : placeholder));
  };
}

/**
 * What the page says in the pseudo-locale where it says `english` in English: the message made
 * as the app makes it (pseudo-locale.ts), its placeholders filled from `values` (those not given
 * stay `{name}`). A text not in the catalogue is English there too.
 */
function pseudoTexts(english: string, values: Record<string, string | number> = {}): string {
  const messages = catalogue("en");
  if (english in messages) return pseudoTexts(messages[english]!, values);
  if (!Object.values(messages).includes(english)) return english;
  const message = parse(english);
  const given = { ...values };
  for (const element of message)
    if (element.type === TYPE.argument && !(element.value in given)) given[element.value] = `{${element.value}}`;
  return String(new IntlMessageFormat(pseudoMessage(message), "en").format(given));
}
