import { StrictMode } from "react";
import { createRoot } from "react-dom/client";

import { App } from "@/app/app";
import { loadMessages, messagesOf } from "@/lib/catalogue";
import { whenAppMayStart } from "@/lib/first-screen";
import { keepInstallPrompt } from "@/lib/install-prompt";
import { createIntl, setActiveIntl } from "@/lib/intl";
import { currentLocale, defaultLocale } from "@/lib/locale";
import { applyTheme, storedTheme } from "@/lib/theme";
import "@/index.css";

// Already done by the first screen's script in the built page; in development this is the first code to run.
applyTheme(storedTheme());
// The browser offers its install prompt once, early: kept for the first-run guide (ADR 0066).
keepInstallPrompt();

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");

// The shell's messages in the member's language, before anything is drawn: the app is drawn in it
// from its first frame (no English, no message ids first). This bundle carries no message, English
// included, so no language's first load pays for another's (ADR 0051); the first screen's script
// asked for the file already, beside this bundle (first-screen.ts). Should it fail to arrive, the
// app starts in English (which the service worker keeps offline) and asks for it again.
const locale = currentLocale();
const language = loadMessages(locale)
  .then(() => locale)
  .catch(async (error: unknown) => {
    console.error("The language could not be loaded:", error);
    await loadMessages(defaultLocale).catch((fallback: unknown) => console.error("English could not be loaded:", fallback));
    return defaultLocale;
  })
  // The language the app starts in, until the screens have all they need of the wanted one: the
  // first route's loader asks for more parts before the first frame (I18nProvider shows the active
  // language until they are in), and code outside components formats in it.
  .then((started) => setActiveIntl(createIntl(started, messagesOf(started))));

// After a painted first screen has shown its photos (ADR 0026): rendering the app sooner would
// take the main thread from the frames that show them.
void Promise.all([whenAppMayStart(), language]).then(() =>
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
