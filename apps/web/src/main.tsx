import { StrictMode } from "react";
import { createRoot } from "react-dom/client";

import { App } from "@/app/app";
import { whenAppMayStart } from "@/lib/first-screen";
import { applyTheme, storedTheme } from "@/lib/theme";
import "@/index.css";

// Already done by the first screen's script in the built page; in development this is the first code to run.
applyTheme(storedTheme());

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");

// After a painted first screen has shown its photos (ADR 0026): rendering the app sooner would
// take the main thread from the frames that show them.
void whenAppMayStart().then(() =>
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
