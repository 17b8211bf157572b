import { useEffect } from "react";
import { QueryClientProvider } from "@tanstack/react-query";
import { Outlet } from "react-router";

import { placeParts } from "@/app/place-parts";
import { OfflineBanner } from "@/components/offline-banner";
import { preloadToaster } from "@/components/toaster-loader";
import { MemoryPlacePartsContext } from "@/features/memories/components/place-parts";
import { usePendingSubscription } from "@/features/notifications/hooks/use-pending-subscription";
import { getQueryClient } from "@/lib/query-client";

/** Once the first member screen is up, the toaster's code is fetched too, while the connection is there. */
const toasterPreloadDelayMs = 2_000;

/**
 * Layout route of the member screens, inside the session guard: the query cache they share. It
 * is a lazy chunk like the screens themselves, so TanStack Query is loaded only by members. Members
 * save things, and are told how it went: the toaster's code comes soon after the first screen.
 * Offline, a banner above every member screen says that what shows is what the device kept.
 * The memory screens get the places feature's parts here.
 */
export function MemberLayout() {
  // A push subscription the service worker renewed on its own is sent with the session (issue #33).
  usePendingSubscription();
  useEffect(() => {
    const timer = setTimeout(preloadToaster, toasterPreloadDelayMs);
    return () => clearTimeout(timer);
  }, []);

  // One client for the page's life (getQueryClient keeps it), so the cache outlives this layout.
  return (
    <QueryClientProvider client={getQueryClient()}>
      <OfflineBanner />
      <MemoryPlacePartsContext value={placeParts}>
        <Outlet />
      </MemoryPlacePartsContext>
    </QueryClientProvider>
  );
}
