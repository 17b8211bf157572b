import { createDecipheriv, createECDH, hkdfSync, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { PushMessage } from "@memory-box/contract";
import { expect, test } from "./fixtures";
import { expectAccessible, memberApiAs, memberPage } from "./support";

// Notifications (issue #33): the service worker is what this journey is about.
test.use({ serviceWorkers: "allow" });

/**
 * A push service on loopback, standing in for the browser's own: Chromium's is Google's (FCM),
 * which a run on a closed network cannot reach, so the page's `pushManager` hands out a
 * subscription whose endpoint is this server and whose keys the journey holds. What the product's
 * server sends there is decrypted as the browser would (RFC 8291, aes128gcm) and handed to the
 * service worker as the push service would, through DevTools' `ServiceWorker.deliverPushMessage`.
 * Everything between the partner's change and the notification on screen is the product's own.
 */
async function loopbackPushService() {
  const receiver = createECDH("prime256v1");
  receiver.generateKeys();
  const auth = randomBytes(16);
  const received: Array<{ path: string; headers: http.IncomingHttpHeaders; body: Buffer }> = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ path: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    received,
    subscription: {
      endpoint: `http://127.0.0.1:${port}/push/${randomBytes(8).toString("hex")}`,
      expirationTime: null,
      keys: { p256dh: receiver.getPublicKey().toString("base64url"), auth: auth.toString("base64url") },
    },
    /** A message's body as the browser reads it (RFC 8291 over RFC 8188's aes128gcm, one record). */
    decrypt(body: Buffer): string {
      const salt = body.subarray(0, 16);
      const idLength = body.readUInt8(20);
      const senderKey = body.subarray(21, 21 + idLength);
      const records = body.subarray(21 + idLength);
      const shared = receiver.computeSecret(senderKey);
      const info = Buffer.concat([Buffer.from("WebPush: info\0"), receiver.getPublicKey(), senderKey]);
      const ikm = Buffer.from(hkdfSync("sha256", shared, auth, info, 32));
      const key = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
      const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
      const decipher = createDecipheriv("aes-128-gcm", key, nonce);
      decipher.setAuthTag(records.subarray(records.length - 16));
      const padded = Buffer.concat([decipher.update(records.subarray(0, records.length - 16)), decipher.final()]);
      // The last record ends with the delimiter 2, then any padding of zeros.
      let end = padded.length - 1;
      while (end >= 0 && padded[end] === 0) end--;
      expect(padded[end], "the last record's delimiter").toBe(2);
      return padded.subarray(0, end).toString("utf8");
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test("a member turns notifications on in Settings; the partner's new memory shows as a notification for it", async ({
  browser,
  request,
  server,
}) => {
  const push = await loopbackPushService();
  await test.info().attach("push endpoint", { body: push.subscription.endpoint });

  // Ben's browser: notifications allowed (the test answers the browser's question), its push
  // manager subscribing at the loopback push service.
  // A page without the app first: the push manager is replaced before the app ever runs.
  const ben = await memberPage(browser, "notify-ben", "/api/health");
  const context = ben.context();
  await context.grantPermissions(["notifications"], { origin: server.url });
  await context.addInitScript((subscription) => {
    let current: PushSubscription | null = null;
    const made = () =>
      ({
        endpoint: subscription.endpoint,
        expirationTime: null,
        options: { userVisibleOnly: true, applicationServerKey: null },
        getKey: () => null,
        toJSON: () => subscription,
        unsubscribe: async () => {
          current = null;
          return true;
        },
      }) as unknown as PushSubscription;
    PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
      if (!options?.userVisibleOnly || !options.applicationServerKey) throw new DOMException("No key", "NotAllowedError");
      current = made();
      return current;
    };
    PushManager.prototype.getSubscription = async () => current;
  }, push.subscription);

  // The service worker in charge of the page, as on a device that has opened the app before.
  await ben.goto("/settings/notifications");
  await ben.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await ben.reload();
  await expect.poll(() => ben.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

  // Settings → Notifications: on, then quiet hours off (the browser's clock may well be in them).
  const toggle = ben.getByRole("switch", { name: "Notifications on this device" });
  await expect(toggle).toHaveAttribute("aria-checked", "false");
  const subscribed = ben.waitForResponse(
    (response) => new URL(response.url()).pathname === "/api/v1/notifications/device" && response.request().method() === "PUT",
  );
  await toggle.click();
  expect((await subscribed).status()).toBe(200);
  await expect(toggle).toHaveAttribute("aria-checked", "true");
  await ben.getByRole("checkbox", { name: "Hold notifications back during these hours" }).uncheck();
  await ben.getByRole("button", { name: "Save" }).click();
  await expect(ben.getByText("Saved.")).toBeVisible();
  // Off by default: the notification says who did what, not the memory's words.
  await expect(ben.getByRole("checkbox", { name: "Show what the memory says" })).not.toBeChecked();
  await expectAccessible(ben, "Settings → Notifications, on");

  // The DevTools session the push service's deliveries go through.
  const cdp = await context.newCDPSession(ben);
  const registrationId = new Promise<string>((resolve) => {
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const ours = registrations.find((registration) => registration.scopeURL === `${server.url}/` && !registration.isDeleted);
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send("ServiceWorker.enable");

  // Ann, the partner, adds a memory through the API.
  const run = Date.now().toString(36);
  const memory = await memberApiAs(request, "notify-ann").createMemory({ title: `Harbour at dawn ${run}`, photo_ids: [] });

  // The server sends it to Ben's device's push service: encrypted for its keys, signed with VAPID.
  await expect.poll(() => push.received.length, { timeout: 20_000 }).toBeGreaterThan(0);
  const sent = push.received[0]!;
  expect(sent.path).toBe(new URL(push.subscription.endpoint).pathname);
  expect(sent.headers["content-encoding"]).toBe("aes128gcm");
  expect(sent.headers.authorization).toMatch(/^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=[\w-]+$/);
  const payload = push.decrypt(sent.body);
  const message = JSON.parse(payload) as PushMessage;
  expect(message.url).toBe(`/memory/${memory.id}`);
  expect(message.title).toContain("Ann");
  expect(`${message.title} ${message.body}`).not.toContain(`Harbour at dawn ${run}`);

  // The push service delivers it; the service worker shows the notification (on a busy machine the
  // worker may take seconds to wake). A delivery the browser dropped while its worker was waking is
  // made again, as a push service does until the browser takes the message: under the same tag, a
  // second one replaces the first rather than adding one.
  const deliver = async () =>
    cdp.send("ServiceWorker.deliverPushMessage", { origin: server.url, registrationId: await registrationId, data: payload });
  await deliver();
  let deliveredAt = Date.now();
  await expect
    .poll(
      async () => {
        const shown = await ben.evaluate(async () => {
          const registration = await navigator.serviceWorker.ready;
          return (await registration.getNotifications()).map((notification) => ({
            title: notification.title,
            tag: notification.tag,
            url: (notification.data as { url?: string } | null)?.url,
          }));
        });
        if (shown.length === 0 && Date.now() - deliveredAt > 8_000) {
          test.info().annotations.push({ type: "push delivered again", description: "no notification 8 s after delivery" });
          await deliver();
          deliveredAt = Date.now();
        }
        return shown;
      },
      { timeout: 30_000 },
    )
    .toContainEqual({ title: message.title, tag: message.tag, url: `/memory/${memory.id}` });

  await cdp.detach();
  await push.close();
  await context.close();
});
