// Auth benchmark: refresh-token grant latency at a fixed offered rate (an open loop, as many devices
// refreshing independently) and its capacity under 10 concurrent clients; password-grant throughput
// under 10 concurrent clients on loopback (rate limits off), against the rate at which this machine
// computes the same argon2id hashes with nothing else running, measured in the same run.
import { hash, verify } from "@node-rs/argon2";
import { HttpClient } from "./http";
import { cli, machineLine, round, RunConditions, runOpenLoop, startServer, watchCommand, watchPid, writeResults } from "./lib";

const concurrency = 10;
/** The offered rate of the latency target: well below capacity (~800–2,000/s on two cores), so p95 is the grant's own time, not a queue's. */
const refreshRate = Number(process.env.BENCH_REFRESH_RATE ?? 250);
/** Sessions refreshing in the open loop, each its own chain. */
const refreshSessions = 50;
const durationMs = Number(process.env.BENCH_SECONDS ?? 10) * 1000;
const argon2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
const password = "correct horse battery staple";

async function argon2Rate(conditions: RunConditions): Promise<number> {
  const stored = await hash(password, argon2);
  // The server runs at most two hashes at once (PasswordHasher); so does the baseline.
  const result = await conditions.load("argon2id verify alone, in the bench process", [], {
    concurrency: 2,
    durationMs,
    request: () => verify(stored, password),
  });
  return result.perSecond;
}

async function main(): Promise<void> {
  const engine = process.env.BENCH_DATABASE_URL ? "PostgreSQL" : "SQLite";
  const conditions = new RunConditions();
  const baseline = await argon2Rate(conditions);

  const server = await startServer({
    AUTH_RATE_LIMITS: "false",
    // Members sign up straight into a session: an open installation, as autoconfirm requires.
    AUTH_AUTOCONFIRM: "true",
    AUTH_INVITE_ONLY: "false",
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
  });
  try {
    const emails = Array.from({ length: concurrency }, (_, i) => `bench${i}@memory-box.test`);
    cli(server, ["invite", ...emails]);
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}/auth/v1${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-supabase-api-version": "2024-01-01" },
        body: JSON.stringify(body),
      });
    const refreshTokens: string[] = [];
    for (const email of emails) {
      const response = await post("/signup", { email, password });
      const session = (await response.json()) as { refresh_token: string };
      refreshTokens.push(session.refresh_token);
    }

    // The load loops use a lean node:http client on kept-alive sockets: fetch costs more CPU per
    // request, and the load generator shares the two cores with the server.
    const client = new HttpClient(server.url, concurrency);
    const watched = [
      watchPid("Server process", server.pid),
      ...(process.env.BENCH_DATABASE_URL ? [watchCommand("PostgreSQL", "postgres")] : []),
    ];
    const postJson = (path: string, body: unknown) => {
      const payload = Buffer.from(JSON.stringify(body));
      return client.request(
        "POST",
        `/auth/v1${path}`,
        { "content-type": "application/json", "content-length": payload.length, "x-supabase-api-version": "2024-01-01" },
        payload,
      );
    };
    // Sessions of their own for the open loop: a refresh token works once, so each slot keeps its chain.
    const openLoopTokens: string[] = [];
    for (let index = 0; index < refreshSessions; index += 1) {
      const response = await postJson("/token?grant_type=password", { email: emails[index % emails.length], password });
      openLoopTokens.push((JSON.parse(response.body.toString("utf8")) as { refresh_token: string }).refresh_token);
    }
    const refreshAtRate = await conditions.measure(
      `Refresh-token grant, ${refreshRate}/s offered`,
      watched,
      () =>
        runOpenLoop({
          ratePerSecond: refreshRate,
          durationMs,
          slots: refreshSessions,
          request: async (slot) => {
            const response = await postJson("/token?grant_type=refresh_token", { refresh_token: openLoopTokens[slot] });
            if (response.status !== 200) return false;
            openLoopTokens[slot] = (JSON.parse(response.body.toString("utf8")) as { refresh_token: string }).refresh_token;
            return true;
          },
        }),
      (result) => result.requests + result.errors,
    );
    const refresh = await conditions.load("Refresh-token grant, 10 clients in a closed loop", watched, {
      concurrency,
      durationMs,
      request: async (worker) => {
        const response = await postJson("/token?grant_type=refresh_token", { refresh_token: refreshTokens[worker] });
        if (response.status !== 200) return false;
        refreshTokens[worker] = (JSON.parse(response.body.toString("utf8")) as { refresh_token: string }).refresh_token;
        return true;
      },
    });
    const signIn = await conditions.load("Password grant", watched, {
      concurrency,
      durationMs,
      request: async (worker) =>
        (await postJson("/token?grant_type=password", { email: emails[worker], password })).status === 200,
    });
    client.close();

    const ratio = round(signIn.perSecond / baseline, 3);
    writeResults(
      `Auth (${engine})`,
      `${machineLine()}
Server: production bundle, ${engine}, rate limits off, on loopback, ${durationMs / 1000} s per run. The refresh target is latency at a fixed offered rate: ${refreshRate} refreshes per second sent on schedule whatever the answers' speed (${refreshSessions} sessions, each refreshing its own chain; latency counted from when a request was due). Its capacity is measured apart, with ${concurrency} clients each sending the next refresh when the last one answered: there p95 is about twice ${concurrency} ÷ throughput, a queue's length, and moves with the speed of the machine's cores (bench/why-the-list-ratio-moves.md).

| Measure | Result | Target |
|---|---|---|
| Refresh-token grant at ${refreshRate}/s offered, p50 / p95 / p99 | ${refreshAtRate.p50} / **${refreshAtRate.p95}** / ${refreshAtRate.p99} ms (${refreshAtRate.perSecond} req/s answered, ${refreshAtRate.errors} errors) | p95 ≤ 10 ms |
| Refresh-token grant capacity, ${concurrency} clients in a closed loop, p50 / p95 / p99 | **${refresh.perSecond} req/s** (${refresh.p50} / ${refresh.p95} / ${refresh.p99} ms, ${refresh.errors} errors) | — |
| Password grant throughput | **${signIn.perSecond} sign-ins/s** (p95 ${signIn.p95} ms, ${signIn.errors} errors) | ≥ 80% of the argon2 rate |
| argon2id verify rate alone (m=19 MiB, t=2, p=1; 2 at once) | ${baseline} hashes/s | — |
| Sign-ins per second ÷ argon2 rate | **${Math.round(ratio * 100)}%** | ≥ 80% |

${conditions.markdown()}`,
    );
    console.log({ baseline, refreshAtRate, refresh, signIn, ratio, conditions: conditions.runs });
  } finally {
    await server.stop();
  }
}

await main();
