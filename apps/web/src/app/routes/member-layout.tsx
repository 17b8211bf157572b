import { useEffect } from "react";
import { QueryClientProvider } from "@tanstack/react-query";
import { Outlet } from "react-router";

import { placeParts } from "@/app/place-parts";
import { OfflineBanner } from "@/components/offline-banner";
import { preloadToaster } from "@/components/toaster-loader";
import { MemoryPlacePartsContext } from "@/features/memories/components/place-parts";
import { usePendingSubscription } from "@/features/notifications/hooks/use-pending-subscription";
import { getQueryClient } from "@/lib/query-client";

/** What a member does before anything they save can need a toast: a touch, a click or a key. */
const firstInteractions = ["pointerdown", "keydown"] as const;

/**
 * Layout route of the member screens, inside the session guard: the query cache they share. It
 * is a lazy chunk like the screens themselves, so TanStack Query is loaded only by members. Members
 * save things, and are told how it went: the toaster's code comes with their first touch or key.
 * Offline, a banner above every member screen says that what shows is what the device kept.
 * The memory screens get the places feature's parts here.
 */
export function MemberLayout() {
  // A push subscription the service worker renewed on its own is sent with the session (issue #33).
  usePendingSubscription();
  useEffect(() => {
    // The toaster's code is fetched at the member's first interaction, while the connection is
    // there: a visit that only looks loads none of it (home's first visit stays in its budget).
    const preload = () => {
      for (const event of firstInteractions) window.removeEventListener(event, preload, true);
      preloadToaster();
    };
    for (const event of firstInteractions) window.addEventListener(event, preload, { capture: true, passive: true });
    return () => {
      for (const event of firstInteractions) window.removeEventListener(event, preload, true);
    };
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
