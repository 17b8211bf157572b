import { startFirstScreen } from "@/app/first-screen/start";
import { holdAppUntilFirstScreen } from "@/lib/first-screen";

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
