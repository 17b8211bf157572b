import { startFirstScreen } from "@/app/first-screen/start";
// The styles come with the page itself (render-blocking), so the first screen is painted styled.
import "@/index.css";

// The page's one script: starts the first screen (ADR 0026), then loads the app. Failures of the
// first screen are silent: the app does the same work its usual way.
void startFirstScreen({
  location: window.location,
  storage: window.localStorage,
  document,
  nowSeconds: Date.now() / 1000,
}).catch(() => false);
void import("@/main");
