import { useState } from "react";
// The DOM entry wires React DOM's flushSync into the router; the bare "react-router" one cannot.
import { RouterProvider } from "react-router/dom";

import { AppProvider } from "@/app/provider";
import { createAppRouter } from "@/app/router";

export function App() {
  // Created on first render rather than at import, so importing the app has no side effects on history.
  const [router] = useState(createAppRouter);

  return (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
