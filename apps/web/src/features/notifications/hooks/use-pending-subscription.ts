import { useEffect } from "react";

import { hasNotificationState, pendingSubscriptionMessage } from "@/lib/push-notification-names";

/**
 * Sends the subscription the service worker made on its own when the push service replaced this
 * device's (it has no session to send it with; lib/push-notifications.ts): at the app's start, and
 * whenever the worker says one is waiting while the app is open. Failures wait for the next start.
 * The code that sends is loaded only on a device that keeps notification state, so home's first
 * screen carries none of it.
 */
export function usePendingSubscription() {
  useEffect(() => {
    if (!("serviceWorker" in navigator) || !("caches" in window)) return;
    const send = () =>
      void hasNotificationState()
        .then(async (kept) => {
          if (!kept) return;
          const { sendPendingSubscription } = await import("@/features/notifications/utils/push-device");
          await sendPendingSubscription(window.caches);
        })
        .catch(() => undefined);
    const onMessage = (event: MessageEvent) => {
      if ((event.data as { type?: unknown } | null)?.type === pendingSubscriptionMessage) send();
    };
    navigator.serviceWorker.addEventListener("message", onMessage);
    send();
    return () => navigator.serviceWorker.removeEventListener("message", onMessage);
  }, []);
}
