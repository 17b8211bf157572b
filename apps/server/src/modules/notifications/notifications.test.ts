import type { DeviceNotifications, Memory, PushKey, PushPreferences } from "@memory-box/contract";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createMember, memberPassword, type TestMember } from "../../../test/members";
import { PushTestService } from "../../../test/push-test-service";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { createTestDatabase, testEngines } from "../../../test/test-database";
import { openDatabase } from "../../db/database";

// Web Push (issue #33, ADR 0059), end to end: a member's device subscribes through the API; a
// partner's change reaches a push service on loopback, which checks the VAPID signature and
// decrypts the message with the keys the test's "browser" made. Both engines.

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const windowMs = 400;
const hhmm = (date: Date) => date.toISOString().slice(11, 16);

describe.each(testEngines())("push notifications on %s", (engine) => {
  let testApp: TestApp;
  let push: PushTestService;
  let ann: TestMember;
  let ben: TestMember;
  /** The server's clock runs this far ahead of the real one (quiet hours, "On this day"). */
  let clockOffsetMs = 0;
  const preferences = (changes: Partial<PushPreferences> = {}): PushPreferences => ({
    memories: true,
    comments: true,
    reactions: true,
    on_this_day: false,
    on_this_day_at: "08:00",
    quiet_hours: null,
    time_zone: "Europe/Lisbon",
    show_words: false,
    ...changes,
  });

  beforeAll(async () => {
    push = await PushTestService.start();
    testApp = await createTestApp(engine, {
      env: { AUTH_RATE_LIMITS: "false", PUSH_ALLOW_INSECURE_ENDPOINTS: "true" },
      now: () => new Date(Date.now() + clockOffsetMs),
      notifications: { pollMs: 40, onThisDayMs: 40, backoffMs: () => 80, leaseMs: 2000, groupingWindowMs: windowMs },
    });
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
    ben = await createMember(testApp, "ben@memory-box.test", "Ben");
    const key = await testApp.app.inject({ method: "GET", url: "/api/v1/notifications/push-key", headers: ann.headers });
    push.expectKey(key.json<PushKey>().public_key);
  });
  afterAll(async () => {
    await testApp.close();
    await push.close();
  });
  afterEach(async () => {
    clockOffsetMs = 0;
    // Nothing left for the next test: the outbox drained of what is due, then every device off.
    await outboxSettled();
    for (const member of [ann, ben]) await request(member, "DELETE", "/api/v1/notifications/device");
    push.reset();
    expect(push.problems).toEqual([]);
  });

  const request = (
    member: TestMember | { headers: Record<string, string> } | null,
    method: string,
    url: string,
    payload?: object,
  ) =>
    testApp.app.inject({
      method: method as "GET",
      url,
      ...(payload === undefined ? {} : { payload }),
      headers: member ? member.headers : {},
    });
  const subscribe = async (member: TestMember | { headers: Record<string, string> }, changes: Partial<PushPreferences> = {}) => {
    const subscriber = push.subscriber();
    const response = await request(member, "PUT", "/api/v1/notifications/device", {
      subscription: subscriber.subscription,
      preferences: preferences(changes),
    });
    expect(response.statusCode, response.body).toBe(200);
    return subscriber;
  };
  const addMemory = async (member: TestMember, title: string, memoryDate?: string) => {
    const response = await request(member, "POST", "/api/v1/memories", {
      title,
      ...(memoryDate ? { memory_date: memoryDate } : {}),
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Memory>().id;
  };
  const signIn = async (email: string) => {
    const response = await request(null, "POST", "/auth/v1/token?grant_type=password", { email, password: memberPassword });
    expect(response.statusCode, response.body).toBe(200);
    return { headers: { authorization: `Bearer ${response.json<{ access_token: string }>().access_token}` } };
  };
  const subscriptionCount = async () => {
    const database = openDatabase(testApp.config.database);
    try {
      const rows = await database.db.selectFrom("push_subscriptions").select("endpoint").execute();
      return rows.length;
    } finally {
      await database.destroy();
    }
  };
  /**
   * Until nothing in the outbox is being sent or due within a grouping window (what a test queued
   * last reaches the push service before the next test starts); what quiet hours hold stays.
   */
  const outboxSettled = async () => {
    const database = openDatabase(testApp.config.database);
    try {
      const deadline = Date.now() + 5000;
      for (;;) {
        const dueBy = new Date(Date.now() + windowMs + 200).toISOString();
        const due = await database.db
          .selectFrom("push_notifications")
          .select("id")
          .where((eb) => eb.or([eb("state", "=", "running"), eb.and([eb("state", "=", "queued"), eb("run_after", "<=", dueBy)])]))
          .execute();
        if (due.length === 0 || Date.now() > deadline) return;
        await sleep(30);
      }
    } finally {
      await database.destroy();
    }
  };
  const subscribed = async (member: { headers: Record<string, string> }) =>
    (await request(member, "GET", "/api/v1/notifications/device")).json<DeviceNotifications>().subscribed;

  describe("the API", () => {
    it.each([
      ["GET", "/api/v1/notifications/push-key"],
      ["GET", "/api/v1/notifications/device"],
      ["PUT", "/api/v1/notifications/device"],
      ["DELETE", "/api/v1/notifications/device"],
    ])("refuses %s %s signed out or with a forged token (401)", async (method, url) => {
      expect((await request(null, method, url, method === "PUT" ? {} : undefined)).statusCode).toBe(401);
      const forged = { headers: { authorization: `Bearer ${ann.accessToken.slice(0, -4)}AAAA` } };
      expect((await request(forged, method, url, method === "PUT" ? {} : undefined)).statusCode).toBe(401);
    });

    it("gives the instance's VAPID public key, the same in every process on the database", async () => {
      const key = (await request(ann, "GET", "/api/v1/notifications/push-key")).json<PushKey>().public_key;
      expect(Buffer.from(key, "base64url")).toHaveLength(65);
      // Two servers starting at once on a fresh database agree on one generated key.
      const database = await createTestDatabase(engine, { migrated: true });
      try {
        const [first, second] = await Promise.all([
          createTestApp(engine, { sharedDatabase: database.config }),
          createTestApp(engine, { sharedDatabase: database.config }),
        ]);
        const keys = await Promise.all(
          [first, second].map(async (each) => {
            const member = await createMember(each, `k${Math.random()}@memory-box.test`);
            return (
              await each.app.inject({ method: "GET", url: "/api/v1/notifications/push-key", headers: member.headers })
            ).json<PushKey>().public_key;
          }),
        );
        await Promise.all([first.close(), second.close()]);
        expect(keys[0]).toBe(keys[1]);
        expect(keys[0]).not.toBe(key);
      } finally {
        await database.drop();
      }
    });

    it("keeps the device's subscription and preferences for its own session only", async () => {
      expect((await request(ann, "GET", "/api/v1/notifications/device")).json()).toEqual({
        subscribed: false,
        preferences: null,
      });
      await subscribe(ann, { show_words: true });
      expect((await request(ann, "GET", "/api/v1/notifications/device")).json()).toEqual({
        subscribed: true,
        preferences: preferences({ show_words: true }),
      });
      // Another member, and Ann's other device, see their own (none) and cannot turn hers off.
      const annElsewhere = await signIn(ann.email);
      expect(await subscribed(ben)).toBe(false);
      expect(await subscribed(annElsewhere)).toBe(false);
      expect((await request(ben, "DELETE", "/api/v1/notifications/device")).statusCode).toBe(204);
      expect((await request(annElsewhere, "DELETE", "/api/v1/notifications/device")).statusCode).toBe(204);
      expect(await subscribed(ann)).toBe(true);
      expect((await request(ann, "DELETE", "/api/v1/notifications/device")).statusCode).toBe(204);
      expect(await subscribed(ann)).toBe(false);
    });

    it("moves an endpoint sent again from another session to it: one subscription per device", async () => {
      const subscriber = await subscribe(ann);
      const again = await signIn(ann.email);
      const response = await request(again, "PUT", "/api/v1/notifications/device", {
        subscription: subscriber.subscription,
        preferences: preferences(),
      });
      expect(response.statusCode).toBe(200);
      expect(await subscribed(ann)).toBe(false);
      expect(await subscribed(again)).toBe(true);
      expect(await subscriptionCount()).toBe(1);
      await request(again, "DELETE", "/api/v1/notifications/device");
    });

    const good = () => ({ subscription: push.subscriber().subscription, preferences: preferences() });
    it.each([
      [
        "an endpoint that is no URL",
        (b: ReturnType<typeof good>) => void (b.subscription.endpoint = "not a url"),
        "subscription.endpoint",
      ],
      [
        "a huge endpoint",
        (b: ReturnType<typeof good>) => void (b.subscription.endpoint = `https://push.example/${"x".repeat(3000)}`),
        "subscription.endpoint",
      ],
      [
        "an ftp endpoint",
        (b: ReturnType<typeof good>) => void (b.subscription.endpoint = "ftp://push.example/x"),
        "subscription.endpoint",
      ],
      [
        "a key that is no P-256 point",
        (b: ReturnType<typeof good>) => void (b.subscription.keys.p256dh = "AAAA"),
        "subscription.keys.p256dh",
      ],
      [
        "a key that is not base64url",
        (b: ReturnType<typeof good>) => void (b.subscription.keys.p256dh = "a+b/c"),
        "subscription.keys.p256dh",
      ],
      [
        "an auth secret of the wrong size",
        (b: ReturnType<typeof good>) => void (b.subscription.keys.auth = "AAAA"),
        "subscription.keys.auth",
      ],
      [
        "an unknown time zone",
        (b: ReturnType<typeof good>) => void (b.preferences.time_zone = "Mars/Olympus"),
        "preferences.time_zone",
      ],
      [
        "a huge time zone",
        (b: ReturnType<typeof good>) => void (b.preferences.time_zone = "x".repeat(100_000)),
        "preferences.time_zone",
      ],
      [
        "a time that is no time",
        (b: ReturnType<typeof good>) => void (b.preferences.on_this_day_at = "25:00"),
        "preferences.on_this_day_at",
      ],
      [
        "quiet hours with a bad time",
        (b: ReturnType<typeof good>) => void (b.preferences.quiet_hours = { from: "7pm", to: "07:00" }),
        "preferences.quiet_hours.from",
      ],
      [
        "a topic that is not a boolean",
        (b: ReturnType<typeof good>) => void ((b.preferences as Record<string, unknown>).memories = "yes"),
        "preferences.memories",
      ],
      [
        "an unknown preference",
        (b: ReturnType<typeof good>) => void ((b.preferences as Record<string, unknown>).user_id = "x"),
        "preferences",
      ],
    ])("refuses %s with 400 validation_failed naming the field", async (_name, spoil, path) => {
      const body = good();
      spoil(body);
      const response = await request(ann, "PUT", "/api/v1/notifications/device", body);
      expect(response.statusCode, response.body).toBe(400);
      const error = response.json<{ code: string; details: { path: string }[] }>();
      expect(error.code).toBe("validation_failed");
      expect(error.details.map((detail) => detail.path).join(" ")).toContain(path);
      expect(await subscribed(ann)).toBe(false);
    });

    it("refuses http endpoints and private addresses unless the operator allows them", async () => {
      const strict = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
      try {
        const member = await createMember(strict, "strict@memory-box.test");
        for (const endpoint of [
          push.subscriber().endpoint,
          "https://127.0.0.1/push/x",
          "https://10.1.2.3/push/x",
          "https://[::1]/push/x",
          "https://169.254.169.254/latest",
          "https://localhost/push/x",
          "https://user:secret@push.example/x",
        ]) {
          const body = good();
          body.subscription.endpoint = endpoint;
          const response = await strict.app.inject({
            method: "PUT",
            url: "/api/v1/notifications/device",
            headers: member.headers,
            payload: body,
          });
          expect({ endpoint, status: response.statusCode }).toEqual({ endpoint, status: 400 });
          expect(response.json<{ details: { path: string }[] }>().details[0]?.path).toContain("subscription.endpoint");
        }
        const fine = good();
        fine.subscription.endpoint = "https://fcm.googleapis.com/fcm/send/abc";
        const accepted = await strict.app.inject({
          method: "PUT",
          url: "/api/v1/notifications/device",
          headers: member.headers,
          payload: fine,
        });
        expect(accepted.statusCode, accepted.body).toBe(200);
      } finally {
        await strict.close();
      }
    });

    it("documents its routes in the OpenAPI document", async () => {
      const document = (await request(null, "GET", "/api/openapi.json")).json<{ paths: Record<string, object> }>();
      expect(Object.keys(document.paths["/api/v1/notifications/device"]!).sort()).toEqual(["delete", "get", "put"]);
      expect(document.paths["/api/v1/notifications/push-key"]).toHaveProperty("get");
    });
  });

  describe("ending the session ends the subscription", () => {
    it("on sign-out", async () => {
      const device = await signIn(ben.email);
      await subscribe(device);
      expect(await subscriptionCount()).toBe(1);
      expect((await request(device, "POST", "/auth/v1/logout?scope=local")).statusCode).toBe(204);
      expect(await subscriptionCount()).toBe(0);
    });

    it("when the device is signed out from another", async () => {
      const device = await signIn(ben.email);
      await subscribe(device);
      const list = await request(ben, "GET", "/api/v1/account/devices");
      const other = list.json<{ devices: { id: string; current: boolean; last_active_at: string }[] }>().devices;
      // The newest session that is not the asking one is the device just signed in.
      const target = other.filter((each) => !each.current).sort((a, b) => b.last_active_at.localeCompare(a.last_active_at))[0]!;
      expect((await request(ben, "DELETE", `/api/v1/account/devices/${target.id}`)).statusCode).toBe(204);
      expect(await subscriptionCount()).toBe(0);
    });

    it("when a password change ends every other session", async () => {
      const device = await signIn(ben.email);
      await subscribe(device);
      const changed = await request(ben, "PUT", "/auth/v1/user", { password: "another horse battery staple" });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(await subscriptionCount()).toBe(0);
      expect((await request(ben, "PUT", "/auth/v1/user", { password: memberPassword })).statusCode).toBe(200);
    });

    it("when the owner removes the member", async () => {
      const carl = await createMember(testApp, "carl@memory-box.test", "Carl");
      await subscribe(carl);
      expect(await subscriptionCount()).toBe(1);
      const removed = await request(ann, "DELETE", `/api/v1/members/${carl.userId}`);
      expect(removed.statusCode, removed.body).toBe(204);
      expect(await subscriptionCount()).toBe(0);
    });
  });

  describe("delivery", () => {
    it("tells the partner's device of a new memory, encrypted and signed, and nothing for one's own", async () => {
      const annDevice = await subscribe(ann);
      const benDevice = await subscribe(ben);
      const id = await addMemory(ben, "Picnic by the river");
      await push.waitFor(1);
      await sleep(windowMs + 150);
      expect(push.messagesFor(benDevice)).toEqual([]);
      const [message, ...more] = push.messagesFor(annDevice);
      expect(more).toEqual([]);
      expect(message).toMatchObject({ title: "Ben added a memory", body: "", url: `/memory/${id}`, tag: `from-${ben.userId}` });
      expect(typeof message?.timestamp).toBe("number");
      expect(push.received[0]!.headers.urgency).toBe("normal");
    });

    it("shows the memory's words only when the device allows them, in the member's language", async () => {
      const device = await subscribe(ann, { show_words: true });
      await request(ann, "PUT", "/auth/v1/user", { data: { locale: "de" } });
      try {
        await addMemory(ben, "Picknick am Fluss");
        await push.waitFor(1);
        expect(push.messagesFor(device)[0]).toMatchObject({
          title: "Ben hat eine Erinnerung hinzugefügt",
          body: "Picknick am Fluss",
        });
      } finally {
        await request(ann, "PUT", "/auth/v1/user", { data: { locale: null } });
      }
    });

    it("groups a partner's changes within the window into one notification that replaces the first", async () => {
      const device = await subscribe(ann);
      const ids = [await addMemory(ben, "One"), await addMemory(ben, "Two"), await addMemory(ben, "Three")];
      await push.waitFor(2, 3000);
      await sleep(windowMs * 2);
      const messages = push.messagesFor(device);
      const last = messages.at(-1)!;
      expect(last).toMatchObject({ title: "Ben added 3 memories", url: `/memory/${ids[2]}`, tag: `from-${ben.userId}` });
      // At most the first at once and the group at the window's end, under one tag.
      expect(messages.length).toBeLessThanOrEqual(2);
      expect(new Set(messages.map((message) => message.tag)).size).toBe(1);
    });

    it("counts changes made at the same moment once each, in at most two notifications", async () => {
      const device = await subscribe(ann);
      await Promise.all([addMemory(ben, "At once 1"), addMemory(ben, "At once 2"), addMemory(ben, "At once 3")]);
      await push.waitFor(1);
      await sleep(windowMs * 2 + 200);
      const messages = push.messagesFor(device);
      expect(messages.length).toBeLessThanOrEqual(2);
      expect(messages.at(-1)?.title).toBe("Ben added 3 memories");
    });

    it("tells of comments and of reactions to my memories, and not of reactions to the partner's own", async () => {
      const device = await subscribe(ann, { show_words: true });
      const mine = await addMemory(ann, "Mine");
      const bens = await addMemory(ben, "Ben's");
      await push.waitFor(1);
      await sleep(windowMs + 100);
      push.reset();
      await sleep(windowMs);
      await request(ben, "PUT", `/api/v1/memories/${bens}/reactions/${encodeURIComponent("❤️")}`);
      await request(ben, "PUT", `/api/v1/memories/${mine}/reactions/${encodeURIComponent("❤️")}`);
      await push.waitFor(1);
      await sleep(windowMs * 2);
      expect(push.messagesFor(device)).toEqual([
        expect.objectContaining({ title: "Ben reacted to your memory", body: "❤️ Mine", url: `/memory/${mine}` }),
      ]);
      // Taking a reaction back says nothing.
      push.reset();
      await sleep(windowMs);
      await request(ben, "DELETE", `/api/v1/memories/${mine}/reactions/${encodeURIComponent("❤️")}`);
      await sleep(windowMs);
      expect(push.received).toEqual([]);
      const other = await subscribe(ben);
      await request(ann, "POST", `/api/v1/memories/${bens}/comments`, { body: "What a day!" });
      await push.waitFor(1);
      expect(push.messagesFor(other)).toEqual([expect.objectContaining({ title: "Ann commented on a memory", body: "" })]);
    });

    it("removes a subscription the push service says is gone (410)", async () => {
      await subscribe(ann);
      push.answer(410);
      await addMemory(ben, "Gone");
      const deadline = Date.now() + 3000;
      while ((await subscriptionCount()) > 0 && Date.now() < deadline) await sleep(30);
      expect(await subscribed(ann)).toBe(false);
      expect(push.received).toEqual([]);
    });

    it("tries again after a 500 and delivers once", async () => {
      const device = await subscribe(ann);
      push.answer(500, 503);
      await addMemory(ben, "Retried");
      await push.waitFor(1, 3000);
      await sleep(400);
      expect(push.messagesFor(device)).toHaveLength(1);
      expect(push.answered.slice(-3)).toEqual([500, 503, 201]);
    });

    it("gives up a message the push service refuses (400) without retrying", async () => {
      await subscribe(ann);
      const before = push.answered.length;
      push.answer(400);
      await addMemory(ben, "Refused");
      await sleep(500);
      expect(push.answered.length - before).toBe(1);
      expect(await subscribed(ann)).toBe(true);
    });

    it("holds a notification through quiet hours, then sends one for everything meanwhile", async () => {
      const now = new Date();
      const device = await subscribe(ann, {
        time_zone: "UTC",
        quiet_hours: { from: hhmm(new Date(now.getTime() - 3600_000)), to: hhmm(new Date(now.getTime() + 3600_000)) },
      });
      await addMemory(ben, "Late one");
      await request(ben, "POST", "/api/v1/memories", { title: "Later one" });
      await sleep(windowMs + 300);
      expect(push.messagesFor(device)).toEqual([]);
      // The clock passes the end of the quiet hours.
      clockOffsetMs = 2 * 3600_000;
      await push.waitFor(1);
      await sleep(200);
      expect(push.messagesFor(device)).toEqual([expect.objectContaining({ title: "Ben added 2 memories" })]);
    });

    it("sends nothing held by quiet hours that the device has since switched off", async () => {
      const now = new Date();
      const quiet = {
        time_zone: "UTC",
        quiet_hours: { from: hhmm(new Date(now.getTime() - 3600_000)), to: hhmm(new Date(now.getTime() + 3600_000)) },
      };
      const device = await subscribe(ann, quiet);
      await addMemory(ben, "While asleep");
      await sleep(200);
      const changed = await request(ann, "PUT", "/api/v1/notifications/device", {
        subscription: device.subscription,
        preferences: preferences({ ...quiet, memories: false }),
      });
      expect(changed.statusCode).toBe(200);
      clockOffsetMs = 2 * 3600_000;
      await sleep(500);
      expect(push.messagesFor(device)).toEqual([]);
    });

    it("sends the outbox's rows after a runner was killed mid-send, once", async () => {
      const device = await subscribe(ann);
      const database = openDatabase(testApp.config.database);
      try {
        const session = await database.db.selectFrom("push_subscriptions").select("session_id").executeTakeFirstOrThrow();
        const at = Date.now();
        // A row a killed process had taken: its lease runs out and this server's runner sends it.
        await database.db
          .insertInto("push_notifications")
          .values({
            id: "00000000-0000-4000-8000-000000000001",
            session_id: session.session_id,
            actor_id: ben.userId,
            open_key: null,
            dedupe_key: null,
            content: JSON.stringify({
              counts: { memories: 1, comments: 0, reactions: 0 },
              memoryId: "m1",
              title: null,
              words: null,
              emoji: null,
              at,
            }),
            state: "running",
            attempts: 1,
            lease_owner: "killed-process",
            lease_until: new Date(at + 300).toISOString(),
            run_after: new Date(at).toISOString(),
            error_code: null,
            created_at: new Date(at).toISOString(),
            updated_at: new Date(at).toISOString(),
          })
          .execute();
        await sleep(150);
        expect(push.messagesFor(device)).toEqual([]);
        await push.waitFor(1);
        await sleep(300);
        expect(push.messagesFor(device)).toEqual([expect.objectContaining({ title: "Ben added a memory", url: "/memory/m1" })]);
        const row = await database.db
          .selectFrom("push_notifications")
          .selectAll()
          .where("id", "=", "00000000-0000-4000-8000-000000000001")
          .executeTakeFirstOrThrow();
        expect(row).toMatchObject({ state: "sent", attempts: 2 });
      } finally {
        await database.destroy();
      }
    });

    it("keeps queued rows across a restart: a new server on the database sends them once", async () => {
      const now = new Date();
      const device = await subscribe(ann, {
        time_zone: "UTC",
        quiet_hours: { from: hhmm(new Date(now.getTime() - 3600_000)), to: hhmm(new Date(now.getTime() + 3600_000)) },
      });
      await addMemory(ben, "Before the restart");
      await sleep(200);
      // Another process starts on the same database with its clock past the quiet hours.
      const second = await createTestApp(engine, {
        sharedDatabase: testApp.config.database,
        env: { PUSH_ALLOW_INSECURE_ENDPOINTS: "true" },
        now: () => new Date(Date.now() + 2 * 3600_000),
        notifications: { pollMs: 40, onThisDayMs: 40 },
      });
      try {
        await second.app.ready();
        await push.waitFor(1);
        await sleep(300);
        expect(push.messagesFor(device)).toHaveLength(1);
      } finally {
        await second.close();
      }
    });

    it("queues a change once when several servers share the database: only the one that made it", async () => {
      const device = await subscribe(ann);
      // A second server on the same database (on PostgreSQL it receives every bus event too).
      const second = await createTestApp(engine, {
        sharedDatabase: testApp.config.database,
        env: { AUTH_RATE_LIMITS: "false", PUSH_ALLOW_INSECURE_ENDPOINTS: "true" },
        notifications: { pollMs: 40, onThisDayMs: 40, groupingWindowMs: windowMs },
      });
      try {
        await second.app.ready();
        const response = await second.app.inject({
          method: "POST",
          url: "/api/v1/memories",
          headers: ben.headers,
          payload: { title: "From the other server" },
        });
        expect(response.statusCode, response.body).toBe(201);
        await push.waitFor(1);
        await sleep(windowMs * 2);
        expect(push.messagesFor(device)).toEqual([expect.objectContaining({ title: "Ben added a memory" })]);
      } finally {
        await second.close();
      }
    });

    it("sends On this day once at the device's morning time, only with memories of earlier years", async () => {
      const now = new Date();
      const lastYear = `${now.getUTCFullYear() - 3}-${now.toISOString().slice(5, 10)}`;
      const at = hhmm(new Date(now.getTime() + 5 * 60_000));
      const device = await subscribe(ann, { time_zone: "UTC", on_this_day: true, on_this_day_at: at, memories: false });
      await addMemory(ben, "Years ago", lastYear);
      await sleep(300);
      expect(push.messagesFor(device)).toEqual([]);
      clockOffsetMs = 6 * 60_000;
      await push.waitFor(1);
      await sleep(400);
      expect(push.messagesFor(device)).toEqual([
        expect.objectContaining({
          title: "On this day",
          body: "A memory from this day in an earlier year",
          url: "/",
          tag: "on-this-day",
        }),
      ]);
    });
  });
});
