import { useEffect } from "react";

import { sendPendingSubscription } from "@/features/notifications/utils/push-device";
import { pendingSubscriptionMessage } from "@/lib/push-notifications";

/**
 * Sends the subscription the service worker made on its own when the push service replaced this
 * device's (it has no session to send it with; lib/push-notifications.ts): at the app's start, and
 * whenever the worker says one is waiting while the app is open. Failures wait for the next start.
 */
export function usePendingSubscription() {
  useEffect(() => {
    if (!("serviceWorker" in navigator) || !("caches" in window)) return;
    const send = () => void sendPendingSubscription(window.caches).catch(() => undefined);
    const onMessage = (event: MessageEvent) => {
      if ((event.data as { type?: unknown } | null)?.type === pendingSubscriptionMessage) send();
    };
    navigator.serviceWorker.addEventListener("message", onMessage);
    send();
    return () => navigator.serviceWorker.removeEventListener("message", onMessage);
  }, []);
}
