/**
 * Web Push on this device (issue #33), the parts shared by the service worker (src/service-worker)
 * and the page (Settings → Notifications): what a push shows, where a click leads, and what the
 * worker needs to subscribe again on its own when the push service replaces a subscription.
 *
 * The worker has no session (auth-js keeps it in the page's localStorage), so it cannot tell the
 * API of a replaced subscription itself: it subscribes again with the same key and keeps the new
 * subscription as pending here; the page sends it (`PUT /api/v1/notifications/device`, with the
 * stored preferences) when it is open, at once if a window is open, else at the app's next start.
 */
import type { PushMessage, PushPreferences } from "@memory-box/contract";
import { notificationStateCache, pendingSubscriptionMessage } from "./push-notification-names";

export { notificationStateCache, pendingSubscriptionMessage };
const stateKey = "/notifications/state";

/** The app's icons, as the manifest names them (vite.config.ts). */
export const notificationIcon = "/pwa-192x192.png";
export const notificationBadge = "/pwa-192x192.png";

/** Shown when a push arrives that cannot be read and nothing better is kept (the page keeps it translated). */
export const genericTitle = "Something new in Memory Box";

/** What this device's page last told the worker: the key it subscribed with, its preferences, the generic title in the member's language. */
export interface NotificationState {
  publicKey: string;
  preferences: PushPreferences;
  genericTitle: string;
  /** A subscription the worker made on its own, not yet sent to the API. */
  pending?: PushSubscriptionJSON;
}

export async function readNotificationState(storage: CacheStorage): Promise<NotificationState | null> {
  try {
    const cache = await storage.open(notificationStateCache);
    const answer = await cache.match(stateKey);
    return answer ? ((await answer.json()) as NotificationState) : null;
  } catch {
    return null;
  }
}

/** Keeps the state (null forgets it: notifications were turned off here). */
export async function keepNotificationState(storage: CacheStorage, state: NotificationState | null): Promise<void> {
  const cache = await storage.open(notificationStateCache);
  if (state === null) await cache.delete(stateKey);
  else await cache.put(stateKey, Response.json(state));
}

/** A push's payload as the contract has it, or null when it is not one (empty, not JSON, fields missing). */
export function pushMessageOf(text: string | null | undefined): PushMessage | null {
  if (!text) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const { title, body, url, tag, timestamp } = value as Record<string, unknown>;
  if (typeof title !== "string" || title === "" || typeof body !== "string" || typeof url !== "string") return null;
  if (typeof tag !== "string" || typeof timestamp !== "number" || !Number.isInteger(timestamp)) return null;
  return { title, body, url, tag, timestamp };
}

/** Only a path of this app opens from a notification: never another site, nor `//host` or `/\host`. */
export function isAppPath(url: unknown): url is string {
  return typeof url === "string" && url.startsWith("/") && !url.startsWith("//") && !url.startsWith("/\\");
}

export interface ShownNotification {
  title: string;
  options: NotificationOptions & { timestamp?: number };
}

/** The notification a push shows: the message's, or the generic one when it cannot be read (never nothing). */
export function notificationFor(text: string | null | undefined, fallbackTitle: string, now: number): ShownNotification {
  const message = pushMessageOf(text);
  const icons = { icon: notificationIcon, badge: notificationBadge };
  if (!message) return { title: fallbackTitle, options: { ...icons, tag: "memory-box", data: { url: "/" }, timestamp: now } };
  return {
    title: message.title,
    options: {
      ...icons,
      body: message.body,
      tag: message.tag,
      data: { url: isAppPath(message.url) ? message.url : "/" },
      timestamp: message.timestamp,
    },
  };
}

/** What the worker's `push` handler needs. */
export interface PushWorld {
  storage: CacheStorage;
  showNotification: (title: string, options: NotificationOptions) => Promise<void>;
  now: () => number;
}

/** `push`: show what came, or the generic notification (a push that shows nothing costs the site its permission). */
export async function showPush(text: string | null | undefined, world: PushWorld): Promise<void> {
  const state = pushMessageOf(text) ? null : await readNotificationState(world.storage);
  const { title, options } = notificationFor(text, state?.genericTitle ?? genericTitle, world.now());
  await world.showNotification(title, options);
}

/** The worker's window clients, as much of them as a click needs. */
export interface WindowLike {
  url: string;
  focus: () => Promise<unknown>;
  navigate: (url: string) => Promise<unknown>;
}
export interface ClientsLike {
  matchAll: (options: { type: "window"; includeUncontrolled: boolean }) => Promise<readonly WindowLike[]>;
  openWindow: (url: string) => Promise<unknown>;
}

/**
 * `notificationclick`: an open window of the app is focused and taken to the page, else a new one
 * opens there. A URL that is not one of the app's paths opens home instead.
 */
export async function openFromNotification(data: unknown, clients: ClientsLike, origin: string): Promise<void> {
  const url = (data as { url?: unknown } | null)?.url;
  const path = isAppPath(url) ? url : "/";
  const windows = await clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows.find((window) => new URL(window.url).origin === origin);
  if (open) {
    await open.focus();
    // Navigating needs the window to be controlled; a new one is the way when it is not.
    try {
      await open.navigate(new URL(path, origin).href);
      return;
    } catch {
      // falls through to a new window
    }
  }
  await clients.openWindow(path);
}

/** Base64url (the VAPID key) to the bytes `pushManager.subscribe` takes. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** What the worker's `pushsubscriptionchange` handler needs. */
export interface ResubscribeWorld {
  storage: CacheStorage;
  pushManager: Pick<PushManager, "subscribe">;
  /** Tells the open windows of the app that a subscription waits to be sent. */
  tellWindows: () => Promise<void>;
}

/**
 * `pushsubscriptionchange`: subscribe again with the key the page subscribed with, and keep the new
 * subscription for the page to send with its preferences. Nothing when notifications are off here.
 */
export async function resubscribe(world: ResubscribeWorld): Promise<void> {
  const state = await readNotificationState(world.storage);
  if (!state) return;
  const subscription = await world.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(state.publicKey),
  });
  await keepNotificationState(world.storage, { ...state, pending: subscription.toJSON() });
  await world.tellWindows();
}

/**
 * At sign-out, and when the app starts without a session: a device's notifications end with its
 * session (the server forgets the subscription then), so the browser's subscription ends too, and
 * nothing is kept that the worker could send for the next member to sign in here.
 */
export async function forgetNotifications(
  storage: CacheStorage,
  pushManager: Pick<PushManager, "getSubscription"> | undefined,
): Promise<void> {
  await storage.delete(notificationStateCache);
  const subscription = await pushManager?.getSubscription();
  await subscription?.unsubscribe();
}

/** `forgetNotifications` for the page (nothing where the browser has no workers or Cache Storage). */
export function forgetNotificationsOnThisDevice(): void {
  if (typeof caches === "undefined" || typeof navigator === "undefined" || !("serviceWorker" in navigator)) return;
  void navigator.serviceWorker
    .getRegistration()
    .then((registration) => forgetNotifications(caches, registration?.pushManager))
    .catch((error: unknown) => console.error("Could not end this device's notifications:", error));
}
