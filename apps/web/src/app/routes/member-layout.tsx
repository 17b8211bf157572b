import { QueryClientProvider } from "@tanstack/react-query";
import { Outlet } from "react-router";

import { getQueryClient } from "@/lib/query-client";

/**
 * Layout route of the member screens, inside the session guard: the query cache they share. It
 * is a lazy chunk like the screens themselves, so TanStack Query is loaded only by members.
 */
export function MemberLayout() {
  // One client for the page's life (getQueryClient keeps it), so the cache outlives this layout.
  return (
    <QueryClientProvider client={getQueryClient()}>
      <Outlet />
    </QueryClientProvider>
  );
}
