import { QueryClient } from "@tanstack/react-query";

import { onSignOut } from "@/lib/auth-context";
import { forgetEarlyAnswers } from "@/lib/first-screen";

let client: QueryClient | undefined;

/**
 * The member screens' one query cache, created on first use. Only the member screens (their lazy
 * layout route) import this module, so TanStack Query is not part of the sign-in screen's code.
 */
export function getQueryClient(): QueryClient {
  client ??= new QueryClient({
    defaultOptions: {
      queries: {
        // Memories change rarely; a short freshness window avoids refetching on every screen change.
        staleTime: 30_000,
        // One retry covers a flaky network without making real errors (401, 404) slow to surface.
        retry: 1,
        // Asked even when the browser says it is offline: the service worker answers with what
        // this device kept (ADR 0031); TanStack's default would leave such a query waiting.
        networkMode: "offlineFirst",
      },
    },
  });
  return client;
}

/** For tests: use `replacement` as the query cache; `undefined` goes back to a new default one on next use. */
export function setQueryClient(replacement: QueryClient | undefined): void {
  client = replacement;
}

// Cached data belongs to the person who fetched it; the next one on this device starts clean. From
// the moment the cache exists, every sign-out empties it, on whatever screen it happens.
onSignOut(() => {
  client?.clear();
  forgetEarlyAnswers();
});
