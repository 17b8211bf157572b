import { useEffect, useState } from "react";
// The DOM entry wires React DOM's flushSync into the router; the bare "react-router" one cannot.
import { RouterProvider } from "react-router/dom";

import { AppProvider } from "@/app/provider";
import { createAppRouter } from "@/app/router";
import { paths } from "@/config/paths";
import { endFirstScreen } from "@/lib/first-screen";

export function App() {
  // Created on first render rather than at import, so importing the app has no side effects on history.
  const [router] = useState(createAppRouter);
  // The painted first screen (ADR 0026) is home's: leaving home, or an error, removes it at once.
  useEffect(
    () =>
      router.subscribe((state) => {
        if (state.location.pathname !== paths.home || state.errors) endFirstScreen();
      }),
    [router],
  );

  return (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
