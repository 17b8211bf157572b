import { useState } from "react";
import { QueryClientProvider } from "@tanstack/react-query";
// The DOM entry wires React DOM's flushSync into the router; the bare "react-router" one cannot.
import { RouterProvider } from "react-router/dom";

import { createAppRouter } from "@/app/router";
import { queryClient } from "@/lib/query-client";

export function App() {
  // Created on first render rather than at import, so importing the app has no side effects on history.
  const [router] = useState(createAppRouter);

  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
