import type { DeviceNotifications, PushPreferences, PushSubscriptionInput } from "@memory-box/contract";

import { deleteDeviceNotifications, fetchPushKey, putDeviceNotifications } from "@/features/notifications/api/notifications";
import { isAppleMobile, runsInstalled, thisDevice } from "@/lib/install-prompt";
import { keepNotificationState, keyBytes, readNotificationState } from "@/lib/push-notifications";

/**
 * What this browser allows: no Web Push at all; an iPhone or iPad where the app is not on the home
 * screen (Safari offers push only to an installed app); the member said no; or it may ask / has asked.
 */
export type PushSupport = "unsupported" | "ios-not-installed" | "denied" | "available";

/** The browser's parts notifications use, so that tests can give their own. */
export interface PushEnvironment {
  userAgent: string;
  maxTouchPoints: number;
  platform: string;
  /** The app runs installed (from the home screen), not in a browser tab. */
  standalone: boolean;
  notification: Pick<typeof Notification, "permission" | "requestPermission"> | undefined;
  /** The service worker's registration once it is ready; undefined where there are no workers. */
  registration: (() => Promise<Pick<ServiceWorkerRegistration, "pushManager">>) | undefined;
  hasPushManager: boolean;
  storage: CacheStorage | undefined;
}

export function browserPushEnvironment(): PushEnvironment {
  const nav = navigator;
  return {
    ...thisDevice(),
    standalone: runsInstalled(),
    notification: "Notification" in window ? window.Notification : undefined,
    registration: "serviceWorker" in nav ? () => nav.serviceWorker.ready : undefined,
    hasPushManager: "PushManager" in window,
    storage: "caches" in window ? window.caches : undefined,
  };
}

export function pushSupport(env: PushEnvironment): PushSupport {
  if (isAppleMobile(env) && !env.standalone) return "ios-not-installed";
  if (!env.notification || !env.registration || !env.hasPushManager) return "unsupported";
  return env.notification.permission === "denied" ? "denied" : "available";
}

/** The member refused the browser's question (now or before). */
export class PermissionRefused extends Error {
  constructor() {
    super("Notifications are not allowed on this device.");
    this.name = "PermissionRefused";
  }
}

/** The device's own time zone, as the server keeps it with the preferences. */
export function deviceTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** The browser's `PushSubscription.toJSON()` as the API takes it (its endpoint and keys). */
function subscriptionInput(json: PushSubscriptionJSON): PushSubscriptionInput {
  const { endpoint, keys } = json;
  if (!endpoint || !keys?.p256dh || !keys.auth) throw new Error("The browser's subscription has no endpoint or keys.");
  return { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } };
}

async function pushManagerOf(env: PushEnvironment): Promise<Pick<PushManager, "subscribe" | "getSubscription">> {
  if (!env.registration) throw new Error("This browser has no service worker.");
  return (await env.registration()).pushManager;
}

/** What the worker keeps of it, for a notification it cannot read and for subscribing again (lib/push-notifications.ts). */
async function keepForWorker(env: PushEnvironment, publicKey: string, preferences: PushPreferences, genericTitle: string) {
  if (env.storage) await keepNotificationState(env.storage, { publicKey, preferences, genericTitle }).catch(() => undefined);
}

/**
 * Turns notifications on here: asks the browser's permission, subscribes with the instance's key,
 * and tells the server what this device wants.
 */
export async function turnOn(
  env: PushEnvironment,
  preferences: PushPreferences,
  genericTitle: string,
): Promise<DeviceNotifications> {
  const permission = env.notification ? await env.notification.requestPermission() : "denied";
  if (permission !== "granted") throw new PermissionRefused();
  const publicKey = await fetchPushKey();
  const pushManager = await pushManagerOf(env);
  const options = { userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) };
  const subscription = await pushManager.subscribe(options).catch(async (error: unknown) => {
    // A subscription made with another key (the instance's was replaced) stands in the way: it ends first.
    if (!(error instanceof DOMException && error.name === "InvalidStateError")) throw error;
    await (await pushManager.getSubscription())?.unsubscribe();
    return pushManager.subscribe(options);
  });
  const answer = await putDeviceNotifications({ subscription: subscriptionInput(subscription.toJSON()), preferences });
  await keepForWorker(env, publicKey, preferences, genericTitle);
  return answer;
}

/** Saves changed preferences with this device's subscription as the browser has it now. */
export async function savePreferences(
  env: PushEnvironment,
  preferences: PushPreferences,
  genericTitle: string,
): Promise<DeviceNotifications> {
  const pushManager = await pushManagerOf(env);
  const subscription = await pushManager.getSubscription();
  if (!subscription) return turnOn(env, preferences, genericTitle);
  const answer = await putDeviceNotifications({ subscription: subscriptionInput(subscription.toJSON()), preferences });
  const state = env.storage ? await readNotificationState(env.storage) : null;
  if (state) await keepForWorker(env, state.publicKey, preferences, genericTitle);
  return answer;
}

/** Turns notifications off here: the browser's subscription ends, and the server forgets it. */
export async function turnOff(env: PushEnvironment): Promise<void> {
  const pushManager = await pushManagerOf(env).catch(() => undefined);
  const subscription = await pushManager?.getSubscription();
  await subscription?.unsubscribe().catch(() => undefined);
  await deleteDeviceNotifications();
  if (env.storage) await keepNotificationState(env.storage, null).catch(() => undefined);
}

/**
 * Sends a subscription the worker made on its own (the push service replaced the old one) with the
 * kept preferences; nothing when there is none. Answers whether one was sent.
 */
export async function sendPendingSubscription(storage: CacheStorage): Promise<boolean> {
  const state = await readNotificationState(storage);
  if (!state?.pending) return false;
  await putDeviceNotifications({
    subscription: subscriptionInput(state.pending),
    preferences: { ...state.preferences, time_zone: deviceTimeZone() },
  });
  const { pending: _sent, ...rest } = state;
  await keepNotificationState(storage, rest);
  return true;
}
