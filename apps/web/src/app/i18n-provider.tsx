import type { Locale } from "@memory-box/messages";
import { Direction } from "radix-ui";
import { useEffect, useMemo, useSyncExternalStore, type ReactNode } from "react";

import { useLocale } from "@/hooks/use-locale";
import { hasMessages, loadMessages, messagesOf, messagesVersion, subscribeToMessages } from "@/lib/catalogue";
import { activeIntl, createIntl, IntlContext, setActiveIntl } from "@/lib/intl";
import { applyDocumentLocale, textDirection } from "@/lib/locale";

/**
 * The catalogue of the member's language for every screen below. The language the app started in
 * is there before it is drawn (main.tsx); another one is fetched when chosen (the parts of it the
 * screens need, lib/catalogue.ts), and the screens keep the language they had until it has
 * arrived (no blank frame, no reload).
 */
export function I18nProvider({ children }: { children: ReactNode }) {
  const [wanted] = useLocale();
  // Re-rendered when a part arrives: the wanted language may be complete now.
  useSyncExternalStore(subscribeToMessages, messagesVersion);
  // The language shown until now stays while the wanted one is on its way.
  const shown: Locale = hasMessages(wanted) ? wanted : activeIntl().locale;

  useEffect(() => {
    if (hasMessages(wanted)) return;
    loadMessages(wanted).catch((error: unknown) => console.error("The language could not be loaded:", error));
  }, [wanted]);

  const intl = useMemo(() => {
    const created = createIntl(shown, messagesOf(shown));
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
