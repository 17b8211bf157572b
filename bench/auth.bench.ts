// Auth benchmark: refresh-token grant latency and password-grant throughput under 10 concurrent
// clients on loopback (rate limits off), against the rate at which this machine computes the same
// argon2id hashes with nothing else running, measured in the same run.
import { hash, verify } from "@node-rs/argon2";
import { HttpClient } from "./http";
import { cli, machineLine, round, RunConditions, startServer, watchCommand, watchPid, writeResults } from "./lib";

const concurrency = 10;
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
    AUTH_AUTOCONFIRM: "true",
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
    const refresh = await conditions.load("Refresh-token grant", watched, {
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
Server: production bundle, ${engine}, rate limits off, ${concurrency} concurrent clients on loopback, ${durationMs / 1000} s per run.

| Measure | Result | Target |
|---|---|---|
| Refresh-token grant p50 / p95 / p99 | ${refresh.p50} / **${refresh.p95}** / ${refresh.p99} ms (${refresh.perSecond} req/s, ${refresh.errors} errors) | p95 ≤ 10 ms |
| Password grant throughput | **${signIn.perSecond} sign-ins/s** (p95 ${signIn.p95} ms, ${signIn.errors} errors) | ≥ 80% of the argon2 rate |
| argon2id verify rate alone (m=19 MiB, t=2, p=1; 2 at once) | ${baseline} hashes/s | — |
| Sign-ins per second ÷ argon2 rate | **${Math.round(ratio * 100)}%** | ≥ 80% |

${conditions.markdown()}`,
    );
    console.log({ baseline, refresh, signIn, ratio, conditions: conditions.runs });
  } finally {
    await server.stop();
  }
}

await main();
