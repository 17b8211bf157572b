// Push notifications benchmark (issue #33, ADR 0059): the production server on loopback with a
// Web Push service in this process (tests' PushTestService: it checks each VAPID signature and
// decrypts each message, as a browser's push service and service worker would).
//   - delay: 100 partners each add a memory, one after another; how long from the create request
//     being sent to its notification reaching the push service (each partner's first change in the
//     grouping window, so each goes at once);
//   - fan-out: the create request's own latency with no device subscribed, then with 20 devices
//     (each change sent to all 20), then with none again: the request should not wait for any of it.
//
//   BENCH_ENGINE          sqlite | postgres (default sqlite)
//   BENCH_POSTGRES_URL    where to create the scratch database (default postgres://postgres@127.0.0.1:5432/test)
//   BENCH_PUSH_CHANGES    changes of each run (default 100)
import { PushTestService } from "../apps/server/test/push-test-service";
import { cli, machineLine, round, RunConditions, scratchPostgresDatabase, startServer, watchPid, writeResults } from "./lib";

const engine = process.env.BENCH_ENGINE === "postgres" ? "postgres" : "sqlite";
const changes = Math.max(20, Number(process.env.BENCH_PUSH_CHANGES ?? 100));
const adminUrl = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const password = "correct horse battery staple";
const devicesForFanOut = 20;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const figures = (values: number[]) =>
  `${round(percentile(values, 50))} / **${round(percentile(values, 95))}** / ${round(percentile(values, 99))} ms`;

const scratch = engine === "postgres" ? await scratchPostgresDatabase(adminUrl) : undefined;
const push = await PushTestService.start({ deferChecks: true });
const server = await startServer(
  {
    AUTH_AUTOCONFIRM: "true",
    AUTH_INVITE_ONLY: "false",
    AUTH_RATE_LIMITS: "false",
    PUSH_ALLOW_INSECURE_ENDPOINTS: "true",
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
  },
  { serverOnly: true },
);
const conditions = new RunConditions("load generator and push service");
const watched = [watchPid("server", server.pid)];

async function api(method: string, path: string, token: string | null, body?: object): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { "content-type": "application/json" } : {}),
      "x-supabase-api-version": "2024-01-01",
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
}

async function signUp(email: string): Promise<string> {
  const response = await api("POST", "/auth/v1/signup", null, { email, password });
  if (!response.ok) throw new Error(`sign-up of ${email}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

async function signIn(email: string): Promise<string> {
  const response = await api("POST", "/auth/v1/token?grant_type=password", null, { email, password });
  if (!response.ok) throw new Error(`sign-in of ${email}: ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

async function subscribeDevice(token: string): Promise<void> {
  const subscriber = push.subscriber();
  const response = await api("PUT", "/api/v1/notifications/device", token, {
    subscription: subscriber.subscription,
    preferences: {
      memories: true,
      comments: true,
      reactions: true,
      on_this_day: false,
      on_this_day_at: "08:00",
      quiet_hours: null,
      time_zone: "UTC",
      show_words: false,
    },
  });
  if (!response.ok) throw new Error(`subscribing: ${response.status} ${await response.text()}`);
}

/** Adds a memory; the request's latency and when it was sent. */
async function addMemory(token: string, title: string): Promise<{ sentAt: number; ms: number }> {
  const sentAt = performance.timeOrigin + performance.now();
  const started = performance.now();
  const response = await api("POST", "/api/v1/memories", token, { title });
  await response.arrayBuffer();
  if (response.status !== 201) throw new Error(`adding a memory: ${response.status}`);
  return { sentAt, ms: performance.now() - started };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

try {
  const owner = "ann@memory-box.test";
  const partners = Array.from({ length: changes }, (_, i) => `partner-${String(i).padStart(3, "0")}@memory-box.test`);
  cli(server, ["invite", owner, ...partners]);
  const annToken = await signUp(owner);
  const partnerTokens: string[] = [];
  for (const email of partners) partnerTokens.push(await signUp(email));
  const keyResponse = await api("GET", "/api/v1/notifications/push-key", annToken);
  push.expectKey(((await keyResponse.json()) as { public_key: string }).public_key);

  // Delay: one device; each partner's change is their first in the window, so it goes at once.
  await subscribeDevice(annToken);
  const delays = await conditions.measure(`delay: ${changes} changes, 1 device`, watched, async () => {
    const found: number[] = [];
    for (const [index, token] of partnerTokens.entries()) {
      const before = push.arrivals.length;
      const { sentAt } = await addMemory(token, `Delay ${index}`);
      await push.waitFor(before + 1, 10_000);
      found.push(push.arrivals[before]! - sentAt);
      await sleep(20);
    }
    return found;
  });
  await api("DELETE", "/api/v1/notifications/device", annToken);

  // Fan-out: the create request's latency with 0 and 20 devices (20 of Ann's sessions). "Settled":
  // each create waits until the last one's pushes all arrived, so the request meets no earlier
  // change's fan-out; "back to back": 20 ms apart, the outbox still sending the earlier ones.
  const half = Math.floor(changes / 2);
  const createRun = async (label: string, tokens: string[], settle: () => Promise<void>) =>
    conditions.measure(label, watched, async () => {
      const times: number[] = [];
      for (const [index, token] of tokens.entries()) {
        times.push((await addMemory(token, `${label} ${index}`)).ms);
        await settle();
      }
      return times;
    });
  const quietPause = () => sleep(150);
  const noDevices = await createRun(`fan-out: ${half} creates, 0 devices`, partnerTokens.slice(0, half), quietPause);
  const deviceTokens: string[] = [];
  for (let i = 0; i < devicesForFanOut; i++) deviceTokens.push(await signIn(owner));
  for (const token of deviceTokens) await subscribeDevice(token);
  let expected = push.arrivals.length;
  const settledStarted = Date.now();
  const settled = await createRun(
    `fan-out: ${half} creates, ${devicesForFanOut} devices, settled`,
    partnerTokens.slice(0, half),
    async () => {
      expected += devicesForFanOut;
      await push.waitFor(expected, 60_000);
      await sleep(20);
    },
  );
  const settledSeconds = (Date.now() - settledStarted) / 1000;
  const backToBackStarted = Date.now();
  const backToBack = await createRun(
    `fan-out: ${half} creates, ${devicesForFanOut} devices, back to back`,
    partnerTokens.slice(half, 2 * half),
    () => sleep(20),
  );
  expected += half * devicesForFanOut;
  await push.waitFor(expected, 120_000);
  const backToBackSeconds = (Math.max(...push.arrivals.slice(-half * devicesForFanOut)) - backToBackStarted) / 1000;
  for (const token of deviceTokens) await api("DELETE", "/api/v1/notifications/device", token);
  await sleep(500);
  const noDevicesAgain = await createRun(`fan-out: ${half} creates, 0 devices again`, partnerTokens.slice(0, half), quietPause);
  // Every message is checked now: its VAPID JWT and its decryption, as the tests do.
  await push.checkDeferred();
  if (push.received.length !== push.arrivals.length) throw new Error("some messages could not be read");
  if (push.problems.length > 0) throw new Error(`the push service refused messages: ${push.problems.join("; ")}`);
  const pushes = half * devicesForFanOut;

  const p95 = percentile(delays, 95);
  // Against the better of the two runs without devices: noise on a shared machine only ever adds.
  const ratio = percentile(settled, 95) / Math.min(percentile(noDevices, 95), percentile(noDevicesAgain, 95));
  const markdown = [
    machineLine(),
    `The production server bundle on ${engine === "postgres" ? "PostgreSQL (a scratch database on the same machine)" : "SQLite"}, on loopback; the push service is a plain HTTP server in the bench process that answers 201 at once, noting the time, and after the runs checks every message's VAPID JWT (ES256, audience, expiry) and decrypts it (aes128gcm) with the subscription's keys, as the tests do (checking meanwhile would slow the bench's own client, in the same process) (PUSH_ALLOW_INSECURE_ENDPOINTS=true lets the server send to it). Requests one after another. Delay: ${changes} partners each add one memory (20 ms apart) while one device of the member is subscribed; from the create request being sent to the push service receiving the notification (each partner's first change in the grouping window, so it is sent at once; later ones in the window are grouped and wait for its end by design). Fan-out: the create request's own latency (sent to answered) with no device subscribed (150 ms apart), with ${devicesForFanOut} devices (sessions) of the member subscribed and each change going to all ${devicesForFanOut}: settled (the next create only once the last one's ${devicesForFanOut} pushes arrived: ${pushes} pushes in ${round(settledSeconds, 1)} s with the creates) and back to back (20 ms apart, the outbox still sending earlier changes' pushes: ${pushes} pushes, the last received ${round(backToBackSeconds, 1)} s after the first create), then with none again.`,
    "",
    "| Measure | Result | Target | Verdict |",
    "|---|---|---|---|",
    `| Partner's change → push service, p50 / p95 / p99 (${changes} changes) | ${figures(delays)} | p95 ≤ 2,000 ms | ${p95 <= 2000 ? "pass" : "fail"} |`,
    `| Create request, 0 devices, p50 / p95 / p99 (${half}) | ${figures(noDevices)} | — | — |`,
    `| Create request, ${devicesForFanOut} devices, settled, p50 / p95 / p99 (${half}) | ${figures(settled)} | as with 0 (noise aside) | ${ratio <= 1.5 ? "pass" : "fail"} |`,
    `| Create request, ${devicesForFanOut} devices, back to back, p50 / p95 / p99 (${half}) | ${figures(backToBack)} | — | — |`,
    `| Create request, 0 devices again, p50 / p95 / p99 (${half}) | ${figures(noDevicesAgain)} | — | — |`,
    `| p95 with ${devicesForFanOut} devices (settled) ÷ the smaller p95 with none | ${round(ratio)} | ≤ 1.5 | ${ratio <= 1.5 ? "pass" : "fail"} |`,
    "",
    conditions.markdown(),
  ].join("\n");
  writeResults(`Push notifications (${engine === "postgres" ? "PostgreSQL" : "SQLite"})`, markdown);
  console.log(markdown);
} finally {
  await server.stop();
  await push.close();
  await scratch?.drop();
}
