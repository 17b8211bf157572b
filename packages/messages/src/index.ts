export {
  defaultLocale,
  isSupportedLocale,
  localesFromAcceptLanguage,
  negotiateLocale,
  pickLocale,
  pseudoLocale,
  supportedLocales,
} from "./locales";
export type { Locale } from "./locales";
