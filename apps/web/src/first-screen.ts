import { startFirstScreen } from "@/app/first-screen/start";
import { holdAppUntilFirstScreen, whenAppMayStart } from "@/lib/first-screen";

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

// In the built page the app's entry is preloaded, not run (vite.config.ts): this script runs it
// once the painted photos are shown (at once when nothing is painted), so that evaluating the
// app's code does not hold back the answers, the photos and the frames of the first screen.
const appEntry = document.querySelector<HTMLLinkElement>("link[data-app-entry]");
if (appEntry) {
  const domParsed = new Promise<void>((resolve) => {
    if (document.readyState !== "loading") resolve();
    else document.addEventListener("DOMContentLoaded", () => resolve(), { once: true });
  });
  void Promise.all([whenAppMayStart(null), domParsed])
    .then(() => import(/* @vite-ignore */ appEntry.href))
    .catch((error: unknown) => console.error("The app could not be started:", error));
}
