import { defaultPushPreferences, type PushMessage } from "@memory-box/contract";
import { describe, expect, it, vi } from "vitest";

import { fakeCacheStorage } from "@/testing/fake-cache-storage";
import {
  forgetNotifications,
  genericTitle,
  keepNotificationState,
  keyBytes,
  notificationBadge,
  notificationIcon,
  openFromNotification,
  readNotificationState,
  resubscribe,
  showPush,
  type NotificationState,
  type WindowLike,
} from "./push-notifications";

// The service worker's notification handlers (src/service-worker/sw.ts hands them its globals).

const origin = "https://box.example";
const now = Date.UTC(2026, 10, 28, 8);
const message: PushMessage = {
  title: "Ben added a memory",
  body: "",
  url: "/memory/6f1b2c3d-0000-4000-8000-000000000001",
  tag: "memories:ben",
  timestamp: now - 5_000,
};
const state: NotificationState = {
  publicKey: "BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U",
  preferences: { ...defaultPushPreferences, time_zone: "Europe/Lisbon" },
  genericTitle: "Neues in Memory Box",
};

function pushWorld(storage = fakeCacheStorage()) {
  const showNotification = vi.fn(async (_title: string, _options: NotificationOptions) => undefined);
  return { storage, showNotification, now: () => now };
}

describe("a push arriving", () => {
  it("shows the message's notification: its words, tag, page to open, time and the app's icons", async () => {
    const world = pushWorld();
    await showPush(JSON.stringify({ ...message, body: "A windy day at the harbour" }), world);
    expect(world.showNotification).toHaveBeenCalledExactlyOnceWith("Ben added a memory", {
      body: "A windy day at the harbour",
      tag: "memories:ben",
      data: { url: message.url },
      timestamp: message.timestamp,
      icon: notificationIcon,
      badge: notificationBadge,
    });
  });

  it.each([
    ["no payload", null],
    ["an empty one", ""],
    ["one that is not JSON", "{not json"],
    ["JSON that is not a message", JSON.stringify({ title: "Ben added a memory" })],
    ["a message whose time is not a number", JSON.stringify({ ...message, timestamp: "yesterday" })],
    ["an array", "[]"],
  ])("shows the generic notification for %s, never nothing", async (_case, payload) => {
    const world = pushWorld();
    await showPush(payload, world);
    expect(world.showNotification).toHaveBeenCalledExactlyOnceWith(genericTitle, {
      tag: "memory-box",
      data: { url: "/" },
      timestamp: now,
      icon: notificationIcon,
      badge: notificationBadge,
    });
  });

  it("writes the generic notification in the member's language when the page kept it", async () => {
    const world = pushWorld();
    await keepNotificationState(world.storage, state);
    await showPush("garbage", world);
    expect(world.showNotification.mock.calls[0]?.[0]).toBe("Neues in Memory Box");
  });

  it("opens home for a message whose page is not one of the app's", async () => {
    for (const url of ["https://evil.example/x", "//evil.example/x", "/\\evil.example", "javascript:alert(1)"]) {
      const world = pushWorld();
      await showPush(JSON.stringify({ ...message, url }), world);
      expect(world.showNotification.mock.calls[0]?.[1]).toMatchObject({ data: { url: "/" } });
    }
  });
});

/** The worker's window clients: some open windows, and a record of what was focused, navigated and opened. */
function fakeClients(urls: string[], { navigable = true } = {}) {
  const done: string[] = [];
  const windows: WindowLike[] = urls.map((url) => ({
    url,
    focus: async () => void done.push(`focus ${url}`),
    navigate: async (to: string) => {
      if (!navigable) throw new TypeError("This window is not controlled.");
      done.push(`navigate ${url} → ${to}`);
    },
  }));
  return {
    done,
    matchAll: async () => windows,
    openWindow: async (url: string) => void done.push(`open ${url}`),
  };
}

describe("a click on a notification", () => {
  it("focuses an open window of the app and takes it to the memory", async () => {
    const clients = fakeClients(["https://other.example/", `${origin}/settings`]);
    await openFromNotification({ url: "/memory/42" }, clients, origin);
    expect(clients.done).toEqual([`focus ${origin}/settings`, `navigate ${origin}/settings → ${origin}/memory/42`]);
  });

  it("opens a new window when none of the app's is open, or the open one cannot be navigated", async () => {
    const none = fakeClients([]);
    await openFromNotification({ url: "/memory/42" }, none, origin);
    expect(none.done).toEqual(["open /memory/42"]);

    const uncontrolled = fakeClients([`${origin}/`], { navigable: false });
    await openFromNotification({ url: "/memory/42" }, uncontrolled, origin);
    expect(uncontrolled.done).toEqual([`focus ${origin}/`, "open /memory/42"]);
  });

  it("refuses a page of another site: home opens instead", async () => {
    for (const data of [{ url: "https://evil.example/" }, { url: "//evil.example/" }, { url: 42 }, null, undefined]) {
      const clients = fakeClients([]);
      await openFromNotification(data, clients, origin);
      expect(clients.done).toEqual(["open /"]);
    }
  });
});

describe("the push service replacing the subscription", () => {
  it("subscribes again with the kept key, keeps the new subscription for the page to send, and tells the open windows", async () => {
    const storage = fakeCacheStorage();
    await keepNotificationState(storage, state);
    const renewed = { endpoint: "https://push.example/new", keys: { p256dh: "BNew", auth: "aNew" } };
    const subscribe = vi.fn(
      async (_options?: PushSubscriptionOptionsInit) => ({ toJSON: () => renewed }) as unknown as PushSubscription,
    );
    const tellWindows = vi.fn(async () => undefined);

    await resubscribe({ storage, pushManager: { subscribe }, tellWindows });

    expect(subscribe).toHaveBeenCalledExactlyOnceWith({ userVisibleOnly: true, applicationServerKey: keyBytes(state.publicKey) });
    expect(await readNotificationState(storage)).toEqual({ ...state, pending: renewed });
    expect(tellWindows).toHaveBeenCalledOnce();
  });

  it("does nothing where notifications are off", async () => {
    const subscribe = vi.fn();
    await resubscribe({ storage: fakeCacheStorage(), pushManager: { subscribe }, tellWindows: vi.fn() });
    expect(subscribe).not.toHaveBeenCalled();
  });

  it("reads the VAPID key's base64url as its 65 bytes", () => {
    const bytes = keyBytes(state.publicKey);
    expect(bytes).toHaveLength(65);
    expect(bytes[0]).toBe(4);
  });
});

describe("the session ending on this device", () => {
  it("ends the browser's subscription and forgets what the worker kept, pending subscription and all", async () => {
    const storage = fakeCacheStorage();
    await keepNotificationState(storage, { ...state, pending: { endpoint: "https://push.example/new" } });
    const unsubscribe = vi.fn(async () => true);
    await forgetNotifications(storage, { getSubscription: async () => ({ unsubscribe }) as unknown as PushSubscription });
    expect(unsubscribe).toHaveBeenCalledOnce();
    expect(await readNotificationState(storage)).toBeNull();

    // Nothing subscribed, no workers: nothing to do, and no failure.
    await forgetNotifications(storage, { getSubscription: async () => null });
    await forgetNotifications(storage, undefined);
  });
});
