import { supportedLocales, type Locale } from "@memory-box/messages";
import { useId } from "react";

import { useLocale } from "@/hooks/use-locale";
import { useIntl } from "@/lib/intl";
import { storedLocale } from "@/lib/locale";

/** A language in its own name ("Deutsch", "English"), as its speakers look for it in a list. */
function ownName(locale: string): string {
  try {
    const name = new Intl.DisplayNames([locale], { type: "language" }).of(locale) ?? locale;
    return name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
  } catch {
    return locale;
  }
}

const browser = "browser";

/**
 * The language of Memory Box on this device: the browser's languages until the member chooses
 * one; applied at once, without a reload. When the account keeps the language, this choice saves
 * it there too (`setLocale` is the one place it changes).
 */
export function LanguageChoice() {
  const intl = useIntl();
  const id = useId();
  const [, setLocale] = useLocale();
  const chosen = storedLocale() ?? browser;
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={id} className="text-sm font-medium">
        {intl.formatMessage({ id: "settings.language.label" })}
      </label>
      <select
        id={id}
        value={chosen}
        onChange={(event) => setLocale(event.target.value === browser ? undefined : (event.target.value as Locale))}
        className="h-9 w-full max-w-xs rounded-md border border-input bg-background px-3 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        <option value={browser}>{intl.formatMessage({ id: "settings.language.browser" })}</option>
        {supportedLocales.map((locale) => (
          <option key={locale} value={locale} lang={locale}>
            {ownName(locale)}
          </option>
        ))}
      </select>
    </div>
  );
}
