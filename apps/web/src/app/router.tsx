import { createBrowserRouter, type RouteObject } from "react-router";

import { AuthRoute } from "@/app/routes/auth";
import { PageSpinner } from "@/components/page-spinner";
import { routePatterns } from "@/config/paths";
import { RequireAuth } from "@/features/auth/components/require-auth";

/**
 * The route table. Only the auth screen (and the guard) is bundled up front; every other screen
 * is its own chunk, so a signed-out visitor downloads the least code.
 *
 * A fresh tree per router: React Router writes resolved `lazy` properties back into the route
 * objects, so two routers sharing one tree (tests) would see each other's half-finished loads.
 */
export function createRoutes(): RouteObject[] {
  return [
    {
      // Shown while the first screen's chunk loads on a cold start; to the visitor it is the same wait as the session's.
      hydrateFallbackElement: <PageSpinner />,
      children: [
        { path: routePatterns.auth, Component: AuthRoute },
        {
          // The member screens: a session is required.
          Component: RequireAuth,
          children: [
            {
              // Their query cache; lazy, so TanStack Query stays out of the auth screen's code.
              lazy: { Component: async () => (await import("@/app/routes/member-layout")).MemberLayout },
              children: [
                {
                  path: routePatterns.home,
                  lazy: { Component: async () => (await import("@/app/routes/home")).HomeRoute },
                },
                {
                  path: routePatterns.memory,
                  lazy: { Component: async () => (await import("@/app/routes/memory-detail")).MemoryDetailRoute },
                },
              ],
            },
          ],
        },
        {
          path: "*",
          lazy: { Component: async () => (await import("@/app/routes/not-found")).NotFoundRoute },
        },
      ],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(createRoutes());
}
