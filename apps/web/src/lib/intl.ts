import type { Locale } from "@memory-box/messages";
import { bundledWebMessages, type WebMessageId, type WebMessages } from "@memory-box/messages/web";
import { IntlMessageFormat, type PrimitiveType } from "intl-messageformat";
import { createContext, useContext } from "react";

import { intlLocale } from "@/lib/locale";

/** Values a message's placeholders take. */
export type MessageValues = Record<string, PrimitiveType>;

/**
 * The space between two words of a line built of elements (a label and its value, a name and a
 * link): the catalogue holds words, not the spaces between elements.
 */
export const wordSpace = " ";

/**
 * What every text of the app is formatted with (ADR 0048): a message of the catalogue, by id, in
 * the member's language, through FormatJS's ICU formatter; plurals, numbers and dates in it by
 * `Intl` for that language.
 */
export interface AppIntl {
  /** The language (one of ours) and the tag given to `Intl` for it. */
  locale: Locale;
  intlLocale: string;
  formatMessage(descriptor: { id: WebMessageId }, values?: MessageValues): string;
}

/** An `AppIntl` for a language and its messages, which arrive parsed (vite.config.ts), in the built app, in development and in tests. */
export function createIntl(locale: Locale, messages: WebMessages): AppIntl {
  const tag = intlLocale(locale);
  const formats = new Map<string, IntlMessageFormat>();
  const catalogue = messages as Record<string, WebMessages[string]>;
  return {
    locale,
    intlLocale: tag,
    formatMessage({ id }, values) {
      let format = formats.get(id);
      if (!format) {
        // No fallback here: a message a language lacks arrives as English's (filled in by the build,
        // or by loadWebMessages in development), so no language carries English's messages.
        const message = catalogue[id];
        if (message === undefined) {
          if (import.meta.env.DEV) console.error(`No message "${id}" in the catalogue`);
          return id;
        }
        // Plain text: the catalogue arrives parsed (vite.config.ts), a message without placeholders as its text.
        if (typeof message === "string") return message;
        format = new IntlMessageFormat(message, tag);
        formats.set(id, format);
      }
      return String(format.format(values));
    },
  };
}

const dateFormats = new Map<string, globalThis.Intl.DateTimeFormat>();

/**
 * A date formatter for the language in use, made once per language and options (making one costs
 * ~20 ms on a slow machine: never per card).
 */
export function dateTimeFormat(
  options: globalThis.Intl.DateTimeFormatOptions,
  intl: AppIntl = activeIntl(),
): globalThis.Intl.DateTimeFormat {
  const key = `${intl.intlLocale} ${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new globalThis.Intl.DateTimeFormat(intl.intlLocale, options);
    dateFormats.set(key, format);
  }
  return format;
}

let english: AppIntl | undefined;
let active: AppIntl | undefined;

/**
 * The English `AppIntl` with the messages there at once: all of English in development and tests;
 * none in the built app, which sets the member's language before anything is drawn (main.tsx).
 */
export function englishIntl(): AppIntl {
  return (english ??= createIntl("en", bundledWebMessages.en ?? {}));
}

/** The language in use, for code outside components (toasts, thrown messages); `englishIntl()` until set. */
export function activeIntl(): AppIntl {
  return active ?? englishIntl();
}

/** The language the screens show, once one is shown (undefined before the app's first frame). */
export function shownLocale(): Locale | undefined {
  return active?.locale;
}

export function setActiveIntl(intl: AppIntl): void {
  active = intl;
}

/** The provider's language for the screens below it (app/i18n-provider.tsx). */
export const IntlContext = createContext<AppIntl | undefined>(undefined);

let withoutReact = false;

/**
 * Draws `draw` outside React (the first screen, ADR 0039): components are called as functions
 * there, so `useIntl` takes the active language instead of React's context.
 */
export function drawWithoutReact<T>(draw: () => T): T {
  withoutReact = true;
  try {
    return draw();
  } finally {
    withoutReact = false;
  }
}

/**
 * The member's language in a component: the provider's (the screen re-renders when it changes),
 * else the active one (a component rendered on its own in a test, or drawn by the first screen).
 */
export function useIntl(): AppIntl {
  if (withoutReact) return activeIntl();
  // Constant for a component's whole life: the first screen never renders with React.
  // eslint-disable-next-line react-hooks/rules-of-hooks
  return useContext(IntlContext) ?? activeIntl();
}
