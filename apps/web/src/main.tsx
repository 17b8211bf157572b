import { StrictMode } from "react";
import { createRoot } from "react-dom/client";

import { App } from "@/app/app";
import { loadMessages } from "@/lib/catalogue";
import { whenAppMayStart } from "@/lib/first-screen";
import { keepInstallPrompt } from "@/lib/install-prompt";
import { currentLocale } from "@/lib/locale";
import { applyTheme, storedTheme } from "@/lib/theme";
import "@/index.css";

// Already done by the first screen's script in the built page; in development this is the first code to run.
applyTheme(storedTheme());
// The browser offers its install prompt once, early: kept for the first-run guide (ADR 0066).
keepInstallPrompt();

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");

// The member's language is asked for at once (English is in this bundle): the app is drawn in it
// from its first frame. Should it fail to arrive, the app starts in English and asks again.
const language = loadMessages(currentLocale()).catch((error: unknown) =>
  console.error("The language could not be loaded:", error),
);

// After a painted first screen has shown its photos (ADR 0026): rendering the app sooner would
// take the main thread from the frames that show them.
void Promise.all([whenAppMayStart(), language]).then(() =>
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
