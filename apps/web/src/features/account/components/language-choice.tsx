import { supportedLocales, type Locale } from "@memory-box/messages";
import { useId } from "react";

import { saveAccountLocale } from "@/features/account/api/account-locale";
import { useLocale } from "@/hooks/use-locale";
import { useIntl } from "@/lib/intl";
import { storedLocale } from "@/lib/locale";
import { notify } from "@/lib/notify";

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
 * The language of Memory Box: the browser's languages until the member chooses one; applied at
 * once on this device, without a reload, and kept on the account for the e-mails they get.
 */
export function LanguageChoice() {
  const intl = useIntl();
  const id = useId();
  const [, setLocale] = useLocale();
  const chosen = storedLocale() ?? browser;

  function choose(value: string) {
    const locale = value === browser ? undefined : (value as Locale);
    setLocale(locale);
    void saveAccountLocale(locale ?? null).then((kept) => {
      if (!kept)
        notify.error(
          intl.formatMessage({ id: "settings.language.notSavedTitle" }),
          intl.formatMessage({ id: "settings.language.notSaved" }),
        );
    });
  }
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={id} className="text-sm font-medium">
        {intl.formatMessage({ id: "settings.language.label" })}
      </label>
      <select
        id={id}
        value={chosen}
        onChange={(event) => choose(event.target.value)}
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
