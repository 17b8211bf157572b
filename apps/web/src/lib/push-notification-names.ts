/**
 * The names the page and the service worker share for Web Push (lib/push-notifications.ts), apart
 * so that the app's first screen can look for them without loading the rest.
 */

/** The cache the device's notification state is kept in (one entry), readable by the page and the worker. */
export const notificationStateCache = "memory-box-notifications";

/** The message the page is sent when the worker has a subscription for it to send. */
export const pendingSubscriptionMessage = "memory-box-push-subscription-pending";

/** Whether this device keeps any notification state: without it there is nothing to send or end. */
export function hasNotificationState(): Promise<boolean> {
  if (typeof caches === "undefined") return Promise.resolve(false);
  return caches.has(notificationStateCache).catch(() => false);
}
