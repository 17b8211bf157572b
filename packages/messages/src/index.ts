export {
  defaultLocale,
  isSupportedLocale,
  localesFromAcceptLanguage,
  negotiateLocale,
  pickLocale,
  supportedLocales,
} from "./locales";
export type { Locale } from "./locales";
