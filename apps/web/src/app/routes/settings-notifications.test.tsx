import {
  defaultPushPreferences,
  type DeviceNotifications,
  type DeviceNotificationsInput,
  type EmailDigestPreferences,
} from "@memory-box/contract";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { onTestFinished, describe, expect, it, vi } from "vitest";

import { keepNotificationState, keyBytes, pendingSubscriptionMessage, readNotificationState } from "@/lib/push-notifications";
import { FakeAuthClient, fakeSession } from "@/testing/fake-auth-client";
import { fakeCacheStorage } from "@/testing/fake-cache-storage";
import { renderApp } from "@/testing/render-app";
import { apiError, deferred, stubMemoryApi, type ApiHandler } from "@/testing/stub-memory-api";

// Settings → Notifications (issue #33) against a stubbed API and a stand-in for the browser's
// Notification, service worker and push manager.

const publicKey = "BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U";
const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const subscriptionJson = { endpoint: "https://push.example/send/abc", expirationTime: null, keys: { p256dh: "BPd", auth: "au" } };
const preferences = { ...defaultPushPreferences, time_zone: timeZone };
const iPhone =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

/** The browser's parts, as a test wants them: permission, push support, an iPhone, the app installed. */
function fakeBrowser({
  permission = "default",
  answer = "granted",
  push = true,
  userAgent,
  standalone = false,
  subscribed = false,
}: {
  permission?: NotificationPermission;
  answer?: NotificationPermission;
  push?: boolean;
  userAgent?: string;
  standalone?: boolean;
  subscribed?: boolean;
} = {}) {
  let current: PushSubscription | null = null;
  const unsubscribe = vi.fn(async () => {
    current = null;
    return true;
  });
  const subscription = () =>
    ({ endpoint: subscriptionJson.endpoint, toJSON: () => subscriptionJson, unsubscribe }) as unknown as PushSubscription;
  if (subscribed) current = subscription();
  const subscribe = vi.fn(async (_options?: PushSubscriptionOptionsInit) => (current = subscription()));
  const requestPermission = vi.fn(async () => {
    FakeNotification.permission = answer;
    return answer;
  });
  class FakeNotification {
    static permission = permission;
    static requestPermission = requestPermission;
  }
  vi.stubGlobal("Notification", FakeNotification);
  const storage = fakeCacheStorage();
  vi.stubGlobal("caches", storage);
  if (push) vi.stubGlobal("PushManager", class {});
  const registration = { pushManager: { subscribe, getSubscription: async () => current } };
  const worker = { ready: Promise.resolve(registration), addEventListener: vi.fn(), removeEventListener: vi.fn() };
  Object.defineProperty(navigator, "serviceWorker", { configurable: true, value: push ? worker : undefined });
  if (!push) Reflect.deleteProperty(navigator, "serviceWorker");
  if (userAgent) vi.spyOn(navigator, "userAgent", "get").mockReturnValue(userAgent);
  if (standalone) Object.defineProperty(navigator, "standalone", { configurable: true, value: true });
  onTestFinished(() => {
    Reflect.deleteProperty(navigator, "serviceWorker");
    Reflect.deleteProperty(navigator, "standalone");
    vi.restoreAllMocks();
  });
  /** What the service worker posts to the page, as its `message` event. */
  const fromWorker = (data: unknown) => {
    for (const [type, listener] of worker.addEventListener.mock.calls as [string, (event: MessageEvent) => void][])
      if (type === "message") listener(new MessageEvent("message", { data }));
  };
  return { requestPermission, subscribe, unsubscribe, storage, fromWorker };
}

/** The notification routes as a small server keeps them. */
function stubNotifications(
  device: DeviceNotifications = { subscribed: false, preferences: null },
  email: EmailDigestPreferences = { digest: "off", time_zone: "UTC" },
  overrides: Record<string, ApiHandler> = {},
) {
  return stubMemoryApi({
    "GET /api/v1/members": () => ({ members: [], your_role: "member" }),
    "GET /api/v1/notifications/push-key": () => ({ public_key: publicKey }),
    "GET /api/v1/notifications/device": () => device,
    "PUT /api/v1/notifications/device": ({ body }) => {
      device = {
        subscribed: true,
        preferences: (body as DeviceNotificationsInput).preferences,
      };
      return device;
    },
    "DELETE /api/v1/notifications/device": () => {
      device = { subscribed: false, preferences: null };
      return undefined;
    },
    "GET /api/v1/notifications/email": () => email,
    "PUT /api/v1/notifications/email": ({ body }) => (email = body as EmailDigestPreferences),
    ...overrides,
  });
}

function open() {
  return renderApp("/settings/notifications", { client: new FakeAuthClient({ session: fakeSession() }) });
}

const theSwitch = () => screen.findByRole("switch", { name: "Notifications on this device" });

describe("Settings → Notifications on this device", () => {
  it("is a section of Settings", async () => {
    fakeBrowser();
    stubNotifications();
    open();
    const nav = await screen.findByRole("navigation", { name: "Settings" });
    expect(within(nav).getByRole("link", { name: "Notifications" })).toHaveAttribute("aria-current", "page");
    expect(await screen.findByRole("heading", { name: "On this device" })).toBeInTheDocument();
  });

  it("turns notifications on: asks the browser, subscribes with the instance's key, and sends the subscription with the defaults and this device's time zone", async () => {
    const browser = fakeBrowser();
    const api = stubNotifications();
    const { user } = open();

    const toggle = await theSwitch();
    expect(toggle).toHaveAttribute("aria-checked", "false");
    expect(screen.queryByRole("group", { name: "Tell me about" })).not.toBeInTheDocument();
    await user.click(toggle);

    await waitFor(() => expect(toggle).toHaveAttribute("aria-checked", "true"));
    expect(browser.requestPermission).toHaveBeenCalledOnce();
    expect(browser.subscribe).toHaveBeenCalledExactlyOnceWith({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(publicKey),
    });
    expect(api.calls("PUT /api/v1/notifications/device").map((call) => call.body)).toEqual([
      { subscription: { endpoint: subscriptionJson.endpoint, keys: subscriptionJson.keys }, preferences },
    ]);
    // The worker is left what it needs: the key, the preferences, the generic title in the member's language.
    expect(await readNotificationState(browser.storage)).toEqual({
      publicKey,
      preferences,
      genericTitle: "Something new in Memory Box",
    });

    const topics = screen.getByRole("group", { name: "Tell me about" });
    for (const topic of ["New memories", "Comments", "Reactions to my memories", '"On this day" each morning'])
      expect(within(topics).getByRole("checkbox", { name: topic })).toBeChecked();
    expect(screen.getByRole("checkbox", { name: "Show what the memory says" })).not.toBeChecked();
    expect(screen.getByRole("checkbox", { name: "Show what the memory says" })).toHaveAccessibleDescription(
      'When this is off, a notification only says who did what ("Ben added a memory"), so no one glancing at your screen can read it.',
    );
    expect(screen.getByLabelText('Time for "On this day"')).toHaveValue("08:00");
  });

  it("ends a subscription made with another key before subscribing with the instance's", async () => {
    const browser = fakeBrowser({ subscribed: true });
    browser.subscribe.mockRejectedValueOnce(
      new DOMException("A subscription with a different applicationServerKey exists.", "InvalidStateError"),
    );
    const api = stubNotifications();
    const { user } = open();

    const toggle = await theSwitch();
    await user.click(toggle);
    await waitFor(() => expect(toggle).toHaveAttribute("aria-checked", "true"));
    expect(browser.unsubscribe).toHaveBeenCalledOnce();
    expect(browser.subscribe).toHaveBeenCalledTimes(2);
    expect(api.calls("PUT /api/v1/notifications/device")).toHaveLength(1);
  });

  it("saves changed topics, times, quiet hours and the memory's words with the same subscription", async () => {
    const browser = fakeBrowser({ permission: "granted", subscribed: true });
    const api = stubNotifications({ subscribed: true, preferences });
    const { user } = open();

    const comments = await screen.findByRole("checkbox", { name: "Comments" });
    const save = screen.getByRole("button", { name: "Save" });
    expect(save).toBeDisabled();
    await user.click(comments);
    fireEvent.change(screen.getByLabelText('Time for "On this day"'), { target: { value: "07:30" } });
    const quiet = screen.getByRole("group", { name: "Quiet hours" });
    fireEvent.change(within(quiet).getByLabelText("From"), { target: { value: "23:00" } });
    await user.click(screen.getByRole("checkbox", { name: "Show what the memory says" }));
    await user.click(save);

    expect(await screen.findByText("Saved.")).toBeInTheDocument();
    expect(browser.subscribe).not.toHaveBeenCalled();
    expect(api.calls("PUT /api/v1/notifications/device").map((call) => call.body)).toEqual([
      {
        subscription: { endpoint: subscriptionJson.endpoint, keys: subscriptionJson.keys },
        preferences: {
          ...preferences,
          comments: false,
          on_this_day_at: "07:30",
          quiet_hours: { from: "23:00", to: "07:00" },
          show_words: true,
        },
      },
    ]);

    // Quiet hours off: null is sent, and the times go.
    await user.click(within(quiet).getByRole("checkbox", { name: "Hold notifications back during these hours" }));
    expect(within(quiet).queryByLabelText("From")).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(api.calls("PUT /api/v1/notifications/device")).toHaveLength(2));
    expect(
      (api.calls("PUT /api/v1/notifications/device")[1]?.body as DeviceNotificationsInput).preferences.quiet_hours,
    ).toBeNull();
  });

  it("turns notifications off: the browser's subscription ends and the server forgets it", async () => {
    const browser = fakeBrowser({ permission: "granted", subscribed: true });
    await keepNotificationState(browser.storage, { publicKey, preferences, genericTitle: "x" });
    const api = stubNotifications({ subscribed: true, preferences });
    const { user } = open();

    const toggle = await theSwitch();
    await waitFor(() => expect(toggle).toHaveAttribute("aria-checked", "true"));
    await user.click(toggle);

    await waitFor(() => expect(toggle).toHaveAttribute("aria-checked", "false"));
    expect(browser.unsubscribe).toHaveBeenCalledOnce();
    expect(api.calls("DELETE /api/v1/notifications/device")).toHaveLength(1);
    expect(screen.queryByRole("group", { name: "Tell me about" })).not.toBeInTheDocument();
    expect(await readNotificationState(browser.storage)).toBeNull();
  });

  it("shows the wait while it turns them on, the switch disabled", async () => {
    fakeBrowser();
    const held = deferred<Response>();
    stubNotifications(undefined, undefined, { "PUT /api/v1/notifications/device": () => held.promise });
    const { user } = open();

    const toggle = await theSwitch();
    await user.click(toggle);
    expect(await screen.findByText("Turning notifications on...")).toBeInTheDocument();
    expect(toggle).toBeDisabled();
    held.resolve(Response.json({ subscribed: true, preferences }));
    await waitFor(() => expect(toggle).toHaveAttribute("aria-checked", "true"));
    expect(screen.queryByText("Turning notifications on...")).not.toBeInTheDocument();
  });

  it("says what the API refused, and stays off", async () => {
    fakeBrowser();
    stubNotifications(undefined, undefined, {
      "PUT /api/v1/notifications/device": () =>
        apiError(400, "validation_failed", "preferences.time_zone: must be a known time zone"),
    });
    const { user } = open();

    const toggle = await theSwitch();
    await user.click(toggle);
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Not saved");
    expect(alert).toHaveTextContent("preferences.time_zone: must be a known time zone");
    expect(toggle).toHaveAttribute("aria-checked", "false");
    expect(toggle).toBeEnabled();
  });

  it("explains how to allow notifications again once they were blocked", async () => {
    fakeBrowser({ permission: "denied" });
    stubNotifications();
    open();

    expect(await screen.findByRole("alert")).toHaveTextContent("Notifications are blocked for Memory Box");
    expect(screen.getByRole("alert")).toHaveTextContent("open the site's settings");
    expect(await theSwitch()).toBeDisabled();
  });

  it("turns to the blocked explanation when the member says no", async () => {
    fakeBrowser({ answer: "denied" });
    const api = stubNotifications();
    const { user } = open();
    await user.click(await theSwitch());
    expect(await screen.findByText("Notifications are blocked for Memory Box")).toBeInTheDocument();
    expect(api.calls("PUT /api/v1/notifications/device")).toHaveLength(0);
  });

  it("says so when the browser's question was dismissed", async () => {
    const browser = fakeBrowser({ answer: "default" });
    stubNotifications();
    const { user } = open();
    const toggle = await theSwitch();
    await user.click(toggle);
    expect(await screen.findByRole("alert")).toHaveTextContent("Notifications were not allowed.");
    expect(browser.subscribe).not.toHaveBeenCalled();
    expect(toggle).toBeEnabled();
  });

  it("says when the browser has no Web Push", async () => {
    fakeBrowser({ push: false });
    stubNotifications();
    open();
    expect(await screen.findByText("Not available in this browser")).toBeInTheDocument();
    expect(screen.queryByRole("switch")).not.toBeInTheDocument();
    // The e-mail digest is still offered.
    expect(await screen.findByRole("group", { name: "Send me a digest" })).toBeInTheDocument();
  });

  it("on an iPhone in Safari, explains that notifications need the app on the Home Screen", async () => {
    fakeBrowser({ push: false, userAgent: iPhone });
    stubNotifications();
    open();
    expect(await screen.findByText("Add Memory Box to your Home Screen first")).toBeInTheDocument();
    expect(screen.getByText(/Add to Home Screen/)).toBeInTheDocument();
    expect(screen.queryByRole("switch")).not.toBeInTheDocument();
  });

  it("on an iPhone with the app installed, offers the switch", async () => {
    fakeBrowser({ userAgent: iPhone, standalone: true });
    stubNotifications();
    open();
    expect(await theSwitch()).toBeEnabled();
  });

  it("sends a subscription the service worker renewed on its own, once the app opens with a session", async () => {
    const browser = fakeBrowser({ permission: "granted", subscribed: true });
    const renewed = { endpoint: "https://push.example/send/renewed", keys: { p256dh: "BRe", auth: "re" } };
    await keepNotificationState(browser.storage, { publicKey, preferences, genericTitle: "x", pending: renewed });
    const api = stubNotifications({ subscribed: true, preferences });
    open();

    await waitFor(() => expect(api.calls("PUT /api/v1/notifications/device")).toHaveLength(1));
    expect(api.calls("PUT /api/v1/notifications/device")[0]?.body).toEqual({ subscription: renewed, preferences });
    await waitFor(async () => expect((await readNotificationState(browser.storage))?.pending).toBeUndefined());
  });

  it("sends one at once when the service worker says it renewed the subscription while the app is open", async () => {
    const browser = fakeBrowser({ permission: "granted", subscribed: true });
    await keepNotificationState(browser.storage, { publicKey, preferences, genericTitle: "x" });
    const api = stubNotifications({ subscribed: true, preferences });
    open();
    await theSwitch();
    expect(api.calls("PUT /api/v1/notifications/device")).toHaveLength(0);

    const renewed = { endpoint: "https://push.example/send/renewed", keys: { p256dh: "BRe", auth: "re" } };
    await keepNotificationState(browser.storage, { publicKey, preferences, genericTitle: "x", pending: renewed });
    browser.fromWorker({ type: pendingSubscriptionMessage });
    await waitFor(() => expect(api.calls("PUT /api/v1/notifications/device")).toHaveLength(1));
    expect(api.calls("PUT /api/v1/notifications/device")[0]?.body).toEqual({ subscription: renewed, preferences });
  });

  it("shows the save under way, then that it is saved", async () => {
    fakeBrowser({ permission: "granted", subscribed: true });
    const held = deferred<Response>();
    stubNotifications({ subscribed: true, preferences }, undefined, { "PUT /api/v1/notifications/device": () => held.promise });
    const { user } = open();

    await user.click(await screen.findByRole("checkbox", { name: "New memories" }));
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByRole("button", { name: "Saving..." })).toBeDisabled();
    expect(screen.getByRole("switch", { name: "Notifications on this device" })).toBeDisabled();
    expect(screen.getByRole("checkbox", { name: "Comments" })).toBeDisabled();
    held.resolve(Response.json({ subscribed: true, preferences: { ...preferences, memories: false } }));
    expect(await screen.findByText("Saved.")).toBeInTheDocument();
    expect(screen.getByRole("checkbox", { name: "New memories" })).not.toBeChecked();
  });
});

describe("Settings → Notifications: the e-mail digest", () => {
  it("shows the member's choice and saves another with this device's time zone", async () => {
    fakeBrowser();
    const api = stubNotifications(undefined, { digest: "daily", time_zone: "Europe/Lisbon" });
    const { user } = open();

    expect(await screen.findByRole("heading", { name: "Email digest" })).toBeInTheDocument();
    expect(await screen.findByRole("radio", { name: "Daily, in the morning" })).toBeChecked();
    await user.click(screen.getByRole("radio", { name: "Weekly, on Monday morning" }));
    expect(await screen.findByText("Saved.")).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "Weekly, on Monday morning" })).toBeChecked();
    expect(api.calls("PUT /api/v1/notifications/email").map((call) => call.body)).toEqual([
      { digest: "weekly", time_zone: timeZone },
    ]);
  });

  it("says when the choice was not saved, and keeps the saved one", async () => {
    fakeBrowser();
    stubNotifications(
      undefined,
      { digest: "off", time_zone: "UTC" },
      {
        "PUT /api/v1/notifications/email": () => apiError(503, "unavailable"),
      },
    );
    const { user } = open();

    await user.click(await screen.findByRole("radio", { name: "Daily, in the morning" }));
    expect(await screen.findByText("Your choice was not saved. Check your connection and try again.")).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "Never" })).toBeChecked();
  });
});
