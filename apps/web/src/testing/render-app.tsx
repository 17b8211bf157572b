import { QueryClient } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { onTestFinished } from "vitest";

import { AppProvider } from "@/app/provider";
import { createRoutes } from "@/app/router";
import { setAuthClient } from "@/lib/auth-client";
import { setQueryClient } from "@/lib/query-client";
import { FakeAuthClient } from "@/testing/fake-auth-client";

/**
 * Renders the real route table and providers at `path`, with `client` standing in for the auth
 * server. Returns the router too, so a test can check where navigation went.
 */
export function renderApp(path: string, { client = new FakeAuthClient() }: { client?: FakeAuthClient } = {}) {
  setAuthClient(client);
  onTestFinished(() => setAuthClient(undefined));

  // The member screens' cache, fresh for each test and without retries (failures show at once).
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  setQueryClient(queryClient);
  onTestFinished(() => setQueryClient(undefined));

  const router = createMemoryRouter(createRoutes(), { initialEntries: [path] });
  const user = userEvent.setup({ delay: null });
  const view = render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, user, router, client, queryClient };
}

/** The router's current path plus query, e.g. `/auth?next=/memory/42`. */
export function currentPath(router: ReturnType<typeof createMemoryRouter>): string {
  const { pathname, search } = router.state.location;
  return `${pathname}${search}`;
}
