import { startFirstScreen } from "@/app/first-screen/start";
import { holdAppUntilFirstScreen } from "@/lib/first-screen";

// The first screen's own entry, run before the app's (ADR 0026). Its failures are silent: the
// app then does the same work its usual way.
holdAppUntilFirstScreen(
  startFirstScreen({
    location: window.location,
    storage: window.localStorage,
    document,
    nowSeconds: Date.now() / 1000,
  }),
);
