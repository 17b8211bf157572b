import { loadWebMessages } from "@memory-box/messages/web";

import { startFirstScreen } from "@/app/first-screen/start";
import { holdAppUntilFirstScreen, whenAppMayStart } from "@/lib/first-screen";
import { applyDocumentLocale, initialLocale } from "@/lib/locale";
import { applyTheme, storedTheme } from "@/lib/theme";

// The member's light or dark choice, before the stylesheet paints anything.
applyTheme(storedTheme());
// The member's language and its direction, before anything is drawn.
applyDocumentLocale(initialLocale());

// The first screen's script (ADR 0026): a bundle of its own, loaded `async` so it runs as soon as
// it arrives (before the stylesheet, before the app's code). Its failures are silent: the app then
// does the same work its usual way.
holdAppUntilFirstScreen(
  startFirstScreen({
    location: window.location,
    storage: window.localStorage,
    document,
    nowSeconds: Date.now() / 1000,
  }),
);

// In the built page the app's entry and its modules are named, not loaded (vite.config.ts): this
// script loads and runs them once the painted photos are shown (at once when nothing is painted),
// so that the app's files do not take the connections the first screen's requests need, and
// evaluating its code does not hold back the first screen's frames.
const domParsed = new Promise<void>((resolve) => {
  if (document.readyState !== "loading") resolve();
  else document.addEventListener("DOMContentLoaded", () => resolve(), { once: true });
});
void Promise.all([whenAppMayStart(null), domParsed])
  .then(() => {
    const entry = document.querySelector<HTMLMetaElement>('meta[name="memory-box-app-entry"]')?.content;
    if (!entry) return;
    // The app is drawn once the shell's messages of the member's language are in (main.tsx): asked
    // for beside its code rather than after it. The app takes the same module; it handles a failure.
    loadWebMessages(initialLocale(), ["shell"]).catch(() => undefined);
    // Its imports are fetched with it, not after it.
    for (const module of document.querySelectorAll<HTMLMetaElement>('meta[name="memory-box-app-module"]')) {
      const link = document.createElement("link");
      link.rel = "modulepreload";
      link.crossOrigin = "";
      link.href = module.content;
      document.head.append(link);
    }
    return import(/* @vite-ignore */ entry);
  })
  .catch((error: unknown) => console.error("The app could not be started:", error));
