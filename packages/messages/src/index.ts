export { defaultLocale, isSupportedLocale, localesFromAcceptLanguage, negotiateLocale, supportedLocales } from "./locales";
export type { Locale } from "./locales";
