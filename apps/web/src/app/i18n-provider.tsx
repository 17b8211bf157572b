import { defaultLocale, type Locale } from "@memory-box/messages";
import { englishWebMessages, loadWebMessages, type WebMessages } from "@memory-box/messages/web";
import { Direction } from "radix-ui";
import { useEffect, useMemo, useState, type ReactNode } from "react";

import { useLocale } from "@/hooks/use-locale";
import { createIntl, IntlContext, setActiveIntl } from "@/lib/intl";
import { applyDocumentLocale, textDirection } from "@/lib/locale";

const loaded = new Map<Locale, WebMessages>([[defaultLocale, englishWebMessages]]);

/**
 * The catalogue of the member's language for every screen below. English is there at once; another
 * language's chunk is fetched when chosen, and the screens keep the language they had until it
 * has arrived (no blank frame, no reload).
 */
export function I18nProvider({ children }: { children: ReactNode }) {
  const [wanted] = useLocale();
  // The last language that finished loading: shown while the wanted one is on its way.
  const [arrived, setArrived] = useState<Locale>(defaultLocale);
  const shown = loaded.has(wanted) ? wanted : arrived;

  useEffect(() => {
    if (loaded.has(wanted)) return;
    let current = true;
    void loadWebMessages(wanted)
      .then((messages) => {
        loaded.set(wanted, messages);
        if (current) setArrived(wanted);
      })
      .catch((error: unknown) => console.error("The language could not be loaded:", error));
    return () => {
      current = false;
    };
  }, [wanted]);

  const intl = useMemo(() => {
    const created = createIntl(shown, loaded.get(shown)!);
    setActiveIntl(created);
    return created;
  }, [shown]);

  useEffect(() => applyDocumentLocale(shown), [shown]);

  // Radix's tabs, scroll areas and popovers take their direction (arrow keys, sides) from here.
  return (
    <IntlContext value={intl}>
      <Direction.Provider dir={textDirection(shown)}>{children}</Direction.Provider>
    </IntlContext>
  );
}
