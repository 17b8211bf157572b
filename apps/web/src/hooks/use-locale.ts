import type { Locale } from "@memory-box/messages";
import { useSyncExternalStore } from "react";

import { currentLocale, setLocale, subscribeToLocale } from "@/lib/locale";

/** The language in use, and the way to change it (at once, without a reload). */
export function useLocale(): [Locale, typeof setLocale] {
  return [useSyncExternalStore(subscribeToLocale, currentLocale, currentLocale), setLocale];
}
