import { createBrowserRouter, type RouteObject } from "react-router";

import { AuthRoute } from "@/app/routes/auth";
import { Spinner } from "@/components/ui/spinner";
import { routePatterns } from "@/config/paths";

/**
 * The route table, exported so tests can mount it in a memory router.
 * Only the sign-in screen is bundled up front; every other screen is its own chunk,
 * so a signed-out visitor downloads the least code.
 */
export const routes: RouteObject[] = [
  {
    // Shown while the first screen's chunk loads on a cold start.
    hydrateFallbackElement: <Spinner size="lg" className="min-h-svh" />,
    children: [
      { path: routePatterns.auth, Component: AuthRoute },
      {
        path: routePatterns.home,
        lazy: { Component: async () => (await import("@/app/routes/home")).HomeRoute },
      },
      {
        path: routePatterns.memory,
        lazy: { Component: async () => (await import("@/app/routes/memory-detail")).MemoryDetailRoute },
      },
      {
        path: "*",
        lazy: { Component: async () => (await import("@/app/routes/not-found")).NotFoundRoute },
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
