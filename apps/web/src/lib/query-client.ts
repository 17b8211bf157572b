import { QueryClient } from "@tanstack/react-query";

/** The app's single query cache, shared by every screen. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Memories change rarely; a short freshness window avoids refetching on every screen change.
      staleTime: 30_000,
      // One retry covers a flaky network without making real errors (401, 404) slow to surface.
      retry: 1,
    },
  },
});
