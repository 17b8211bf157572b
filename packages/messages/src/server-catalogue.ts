import { createIntl, createIntlCache, type IntlShape } from "@formatjs/intl";
import { IntlMessageFormat } from "intl-messageformat";
import arErrors from "../catalogue/ar/errors.json" with { type: "json" };
import arExport from "../catalogue/ar/export.json" with { type: "json" };
import arMail from "../catalogue/ar/mail.json" with { type: "json" };
import arNotifications from "../catalogue/ar/notifications.json" with { type: "json" };
import deErrors from "../catalogue/de/errors.json" with { type: "json" };
import deExport from "../catalogue/de/export.json" with { type: "json" };
import deMail from "../catalogue/de/mail.json" with { type: "json" };
import deNotifications from "../catalogue/de/notifications.json" with { type: "json" };
import enErrors from "../catalogue/en/errors.json" with { type: "json" };
import enExport from "../catalogue/en/export.json" with { type: "json" };
import enMail from "../catalogue/en/mail.json" with { type: "json" };
import enNotifications from "../catalogue/en/notifications.json" with { type: "json" };
import esErrors from "../catalogue/es/errors.json" with { type: "json" };
import esExport from "../catalogue/es/export.json" with { type: "json" };
import esMail from "../catalogue/es/mail.json" with { type: "json" };
import esNotifications from "../catalogue/es/notifications.json" with { type: "json" };
import frErrors from "../catalogue/fr/errors.json" with { type: "json" };
import frExport from "../catalogue/fr/export.json" with { type: "json" };
import frMail from "../catalogue/fr/mail.json" with { type: "json" };
import frNotifications from "../catalogue/fr/notifications.json" with { type: "json" };
import nlErrors from "../catalogue/nl/errors.json" with { type: "json" };
import nlExport from "../catalogue/nl/export.json" with { type: "json" };
import nlMail from "../catalogue/nl/mail.json" with { type: "json" };
import nlNotifications from "../catalogue/nl/notifications.json" with { type: "json" };
import plErrors from "../catalogue/pl/errors.json" with { type: "json" };
import plExport from "../catalogue/pl/export.json" with { type: "json" };
import plMail from "../catalogue/pl/mail.json" with { type: "json" };
import plNotifications from "../catalogue/pl/notifications.json" with { type: "json" };
import ptBRErrors from "../catalogue/pt-BR/errors.json" with { type: "json" };
import ptBRExport from "../catalogue/pt-BR/export.json" with { type: "json" };
import ptBRMail from "../catalogue/pt-BR/mail.json" with { type: "json" };
import ptBRNotifications from "../catalogue/pt-BR/notifications.json" with { type: "json" };
import itErrors from "../catalogue/it/errors.json" with { type: "json" };
import itExport from "../catalogue/it/export.json" with { type: "json" };
import itMail from "../catalogue/it/mail.json" with { type: "json" };
import itNotifications from "../catalogue/it/notifications.json" with { type: "json" };
import jaErrors from "../catalogue/ja/errors.json" with { type: "json" };
import jaExport from "../catalogue/ja/export.json" with { type: "json" };
import jaMail from "../catalogue/ja/mail.json" with { type: "json" };
import jaNotifications from "../catalogue/ja/notifications.json" with { type: "json" };
import { defaultLocale } from "./locales";

/**
 * The server's part of the catalogue: the e-mails (mail.json), the human message of each API error
 * (errors.json), the export's pages (export.json) and push notifications (notifications.json), flat id → ICU MessageFormat text, per
 * language. The server holds every language's few hundred lines in memory; the web app's catalogue
 * (web.json) is its own, loaded by the browser one language at a time.
 */
type Messages = Record<string, string>;

interface ServerCatalogue {
  mail: Messages;
  errors: Messages;
  export: Messages;
  /** Push notifications' texts (ADR 0059). */
  notifications: Messages;
}

export type ServerMessageId = keyof typeof enMail | keyof typeof enErrors | keyof typeof enExport | keyof typeof enNotifications;

const catalogues: Record<string, ServerCatalogue> = {
  en: { mail: enMail, errors: enErrors, export: enExport, notifications: enNotifications },
  de: { mail: deMail, errors: deErrors, export: deExport, notifications: deNotifications },
  fr: { mail: frMail, errors: frErrors, export: frExport, notifications: frNotifications },
  es: { mail: esMail, errors: esErrors, export: esExport, notifications: esNotifications },
  nl: { mail: nlMail, errors: nlErrors, export: nlExport, notifications: nlNotifications },
  pl: { mail: plMail, errors: plErrors, export: plExport, notifications: plNotifications },
  "pt-BR": { mail: ptBRMail, errors: ptBRErrors, export: ptBRExport, notifications: ptBRNotifications },
  it: { mail: itMail, errors: itErrors, export: itExport, notifications: itNotifications },
  ja: { mail: jaMail, errors: jaErrors, export: jaExport, notifications: jaNotifications },
  ar: { mail: arMail, errors: arErrors, export: arExport, notifications: arNotifications },
};

/**
 * The languages the server's catalogue has texts for: a superset of `supportedLocales`, which
 * lists those the product offers. A language is written here before it is offered.
 */
export const serverCatalogueLocales: readonly string[] = Object.keys(catalogues);

/** The server's texts of one language, by file, for the catalogue checks. */
export function serverCatalogueOf(locale: string): ServerCatalogue | undefined {
  return catalogues[locale];
}

/**
 * The language the formats of dates and numbers follow: British English for English, whose mails
 * have always said "24 November 2026".
 */
const formatLocales: Record<string, string> = { en: "en-GB" };

/** Languages written right to left, by their primary subtag. */
const rightToLeft = new Set(["ar", "fa", "he", "ur", "yi"]);

/** "rtl" for a language written right to left, else "ltr". */
export function directionOf(locale: string): "ltr" | "rtl" {
  return rightToLeft.has(locale.split("-")[0]?.toLowerCase() ?? "") ? "rtl" : "ltr";
}

/** Formats the server's messages in one language; a message it lacks is the English one. */
export interface ServerMessages {
  /** The language formatted in, one of `serverCatalogueLocales`. */
  readonly locale: string;
  readonly direction: "ltr" | "rtl";
  /** The message `id` with `values` put in. */
  format(id: ServerMessageId, values?: Record<string, string | number>): string;
  /** Whether the catalogue has the message `id` in this language (not the English fallback). */
  has(id: string): boolean;
  /** A date, formatted by `Intl` for this language, in UTC. */
  formatDate(date: Date, options: Intl.DateTimeFormatOptions): string;
}

const cache = createIntlCache();
const formatters = new Map<string, ServerMessages>();

/**
 * The server's messages in `locale` (English for a language the catalogue does not have), made once
 * per language and kept: the ICU texts are parsed the first time each is formatted.
 */
export function serverMessages(locale: string): ServerMessages {
  const known = Object.hasOwn(catalogues, locale) ? locale : defaultLocale;
  let formatter = formatters.get(known);
  if (formatter === undefined) {
    formatter = makeFormatter(known);
    formatters.set(known, formatter);
  }
  return formatter;
}

function makeFormatter(locale: string): ServerMessages {
  const own = catalogues[locale]!;
  const english = catalogues[defaultLocale]!;
  const messages: Messages = {
    ...english.mail,
    ...english.errors,
    ...english.export,
    ...english.notifications,
    ...own.mail,
    ...own.errors,
    ...own.export,
    ...own.notifications,
  };
  const ownIds = new Set([own.mail, own.errors, own.export, own.notifications].flatMap((messages) => Object.keys(messages)));
  const intl: IntlShape<string> = createIntl(
    {
      locale: formatLocales[locale] ?? locale,
      defaultLocale: formatLocales[defaultLocale] ?? defaultLocale,
      timeZone: "UTC",
      messages,
      onError: (error) => {
        throw error;
      },
    },
    cache,
  );
  // Each message compiled once and kept: `intl.formatMessage` looks its formatter up and merges
  // its formats again on every call (8 µs against 1), and an export formats a few messages for
  // each of a million memories.
  const compiled = new Map<string, IntlMessageFormat>();
  const compiledMessage = (id: string): IntlMessageFormat => {
    let message = compiled.get(id);
    if (message === undefined) {
      const text = messages[id];
      if (text === undefined) throw new Error(`The server's catalogue has no message ${id}`);
      message = new IntlMessageFormat(text, formatLocales[locale] ?? locale);
      compiled.set(id, message);
    }
    return message;
  };
  return {
    locale,
    direction: directionOf(locale),
    format: (id, values) => String(compiledMessage(id).format(values)),
    has: (id) => ownIds.has(id),
    formatDate: (date, options) => intl.formatDate(date, { ...options, timeZone: "UTC" }),
  };
}
