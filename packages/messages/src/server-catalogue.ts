import { createIntl, createIntlCache, type IntlShape } from "@formatjs/intl";
import arErrors from "../catalogue/ar/errors.json" with { type: "json" };
import arExport from "../catalogue/ar/export.json" with { type: "json" };
import arMail from "../catalogue/ar/mail.json" with { type: "json" };
import deErrors from "../catalogue/de/errors.json" with { type: "json" };
import deExport from "../catalogue/de/export.json" with { type: "json" };
import deMail from "../catalogue/de/mail.json" with { type: "json" };
import enErrors from "../catalogue/en/errors.json" with { type: "json" };
import enExport from "../catalogue/en/export.json" with { type: "json" };
import enMail from "../catalogue/en/mail.json" with { type: "json" };
import { defaultLocale } from "./locales";

/**
 * The server's part of the catalogue: the e-mails (mail.json), the human message of each API error
 * (errors.json) and the export's pages (export.json), flat id → ICU MessageFormat text, per
 * language. The server holds every language's few hundred lines in memory; the web app's catalogue
 * (web.json) is its own, loaded by the browser one language at a time.
 */
type Messages = Record<string, string>;

export type ServerMessageId = keyof typeof enMail | keyof typeof enErrors | keyof typeof enExport;

const catalogues: Record<string, { mail: Messages; errors: Messages; export: Messages }> = {
  en: { mail: enMail, errors: enErrors, export: enExport },
  de: { mail: deMail, errors: deErrors, export: deExport },
  ar: { mail: arMail, errors: arErrors, export: arExport },
};

/**
 * The languages the server's catalogue has texts for: a superset of `supportedLocales`, which
 * lists those the product offers. A language is written here before it is offered.
 */
export const serverCatalogueLocales: readonly string[] = Object.keys(catalogues);

/** The server's texts of one language, by file, for the catalogue checks. */
export function serverCatalogueOf(locale: string): { mail: Messages; errors: Messages; export: Messages } | undefined {
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
    ...own.mail,
    ...own.errors,
    ...own.export,
  };
  const ownIds = new Set([...Object.keys(own.mail), ...Object.keys(own.errors), ...Object.keys(own.export)]);
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
  return {
    locale,
    direction: directionOf(locale),
    format: (id, values) => intl.formatMessage({ id }, values),
    has: (id) => ownIds.has(id),
    formatDate: (date, options) => intl.formatDate(date, { ...options, timeZone: "UTC" }),
  };
}
