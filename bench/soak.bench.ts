import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { multipartContentType, multipartPayload } from "../apps/server/test/multipart";
import { HttpClient } from "./http";
import { growPostgres, growSqlite } from "./lifetime-seed";
import { machineLine, round, scratchPostgresDatabase, startServer, summarize, writeResults, type RunningServer } from "./lib";

// Issue #37 item 2, a soak: mixed load on the production server for SOAK_MINUTES (30 by default)
// on each engine — lists, searches, writes, photo uploads, token refreshes, and 20 live streams
// open throughout — then: errors (0), p99 of the reads (≤ 50 ms), resident memory at the end
// against after warm-up (within 10 %), and open files and sockets (no growth). PostgreSQL runs
// when BENCH_DATABASE_URL (or TEST_DATABASE_URL) names a server to make a scratch database on;
// BENCH_ENGINE=sqlite or postgres runs that engine only. Each engine has a section of its own.
// The collection is a couple's of some years first (SOAK_MEMORIES, 100,000 by default, seeded
// straight into the database by bench/lifetime-seed.ts): larger than SQLite's page cache (64 MB),
// so the cache is at its working size after warm-up, as on a server that has run for a while,
// rather than growing with a small database for the whole run.

const minutes = Number(process.env.SOAK_MINUTES ?? 30);
const seededMemories = Number(process.env.SOAK_MEMORIES ?? 100_000);
// Warm-up: until V8's heap and the allocator's arenas have grown to their working size (a sixth of
// the run, at most 5 minutes). Resident memory saws up and down by ~15 % as the garbage collector
// runs, so "after warm-up" and "at the end" are each the median of the samples of a window (a tenth
// of the run, at least a minute) rather than whichever point of the saw one sample happened to hit.
const warmUpMs = Math.min(300_000, (minutes * 60_000) / 6);
const windowMs = Math.max(60_000, (minutes * 60_000) / 10);
const liveStreams = 20;
const workers = 4;
const sampleEveryMs = 10_000;
const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
/** sqlite, postgres or both (the default): a run of one engine, for one engine's figures again. */
const engineChoice = process.env.BENCH_ENGINE ?? "both";

interface Session {
  access: string;
  refresh: string;
}

interface Sample {
  atMs: number;
  rssMb: number;
  files: number;
  sockets: number;
}

function median(window: Sample[], measure: "rssMb"): number {
  const sorted = window.map((sample) => sample[measure]).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function fewest(window: Sample[], measure: "files" | "sockets"): number {
  return Math.min(...window.map((sample) => sample[measure]));
}

/** What of the process's open descriptors are, and how many of them are sockets. */
function descriptors(pid: number): { files: number; sockets: number } {
  const entries = fs.readdirSync(`/proc/${pid}/fd`);
  let sockets = 0;
  for (const entry of entries) {
    try {
      if (fs.readlinkSync(`/proc/${pid}/fd/${entry}`).startsWith("socket:")) sockets += 1;
    } catch {
      // closed meanwhile
    }
  }
  return { files: entries.length, sockets };
}

const password = "correct horse battery";
const emails = Array.from({ length: workers }, (_, n) => `soak-${n}@memory-box.test`);

async function signUp(client: HttpClient, email: string): Promise<string> {
  const { user } = await client.json<{ user: { id: string } }>("POST", "/auth/v1/signup", {}, { email, password });
  return user.id;
}

async function signIn(client: HttpClient, email: string): Promise<Session> {
  const session = await client.json<{ access_token: string; refresh_token: string }>(
    "POST",
    "/auth/v1/token?grant_type=password",
    {},
    { email, password },
  );
  return { access: session.access_token, refresh: session.refresh_token };
}

/** A live stream kept open and read (and dropped) for the whole run; reopened if the server ends it. */
function openStream(url: string, token: string, stop: AbortSignal, counts: { events: number; reopened: number }): void {
  const open = () => {
    if (stop.aborted) return;
    const request = http.get(
      `${url}/api/v1/events`,
      { headers: { authorization: `Bearer ${token}` }, signal: stop },
      (response) => {
        response.on("data", (chunk: Buffer) => (counts.events += chunk.toString("utf8").split("\nevent: ").length - 1));
        response.on("end", () => {
          if (!stop.aborted) {
            counts.reopened += 1;
            setTimeout(open, 1000);
          }
        });
        response.on("error", () => undefined);
      },
    );
    request.on("error", () => undefined);
  };
  open();
}

/**
 * Members signed up, then the collection seeded with the server stopped; the server started again
 * on it (its address, and so its tokens' issuer, is new: the members sign in there).
 */
async function seededServer(env: Record<string, string>, grow: (userIds: string[]) => Promise<unknown>): Promise<RunningServer> {
  const first = await startServer(env, { serverOnly: true });
  const client = new HttpClient(first.url, workers);
  let userIds: string[];
  try {
    userIds = await Promise.all(emails.map((email) => signUp(client, email)));
  } finally {
    client.close();
    await first.stop();
  }
  const started = performance.now();
  await grow(userIds);
  console.log(`seeded ${seededMemories} memories in ${round((performance.now() - started) / 1000, 1)} s`);
  return startServer(env, { serverOnly: true });
}

async function soak(database: Record<string, string>, grow: (userIds: string[]) => Promise<unknown>): Promise<string> {
  const server = await seededServer(
    { AUTH_RATE_LIMITS: "false", AUTH_INVITE_ONLY: "false", AUTH_AUTOCONFIRM: "true", LOG_LEVEL: "warn", ...database },
    grow,
  );
  const client = new HttpClient(server.url, workers + 2);
  const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: "#b87" } })
    .jpeg()
    .toBuffer();
  try {
    const sessions = await Promise.all(emails.map((email) => signIn(client, email)));
    const headers = (worker: number) => ({ authorization: `Bearer ${sessions[worker]!.access}` });
    for (let n = 0; n < 200; n += 1)
      await client.json("POST", "/api/v1/memories", headers(n % workers), {
        title: `Soak memory ${n} lighthouse`,
        tags: [`tag-${n % 12}`],
        memory_date: `20${String(10 + (n % 15)).padStart(2, "0")}-0${1 + (n % 9)}-1${n % 9}`,
      });

    const stop = new AbortController();
    const streamCounts = { events: 0, reopened: 0 };
    for (let n = 0; n < liveStreams; n += 1) openStream(server.url, sessions[n % workers]!.access, stop.signal, streamCounts);

    /** Each kind of read's own latencies, for which reads make the p99. */
    const reads = { list: [] as number[], tag: [] as number[], search: [] as number[] };
    const writes: number[] = [];
    const failures = new Map<string, number>();
    const fail = (what: string) => failures.set(what, (failures.get(what) ?? 0) + 1);
    const samples: Sample[] = [];
    const started = performance.now();
    const sampler = setInterval(
      () => samples.push({ atMs: performance.now() - started, rssMb: server.rssMb(), ...descriptors(server.pid) }),
      sampleEveryMs,
    );
    const endAt = started + minutes * 60_000;
    let turn = 0;

    const timed = async (into: number[], what: string, run: () => Promise<boolean>) => {
      const begin = performance.now();
      const ok = await run().catch(() => false);
      if (ok) into.push(performance.now() - begin);
      else fail(what);
    };
    const ok = (status: number) => status >= 200 && status < 300;

    await Promise.all(
      Array.from({ length: workers }, async (_, worker) => {
        while (performance.now() < endAt) {
          const kind = turn++ % 20;
          if (kind < 11) await timed(reads.list, "list", () => client.ok(`/api/v1/memories?limit=24`, headers(worker)));
          else if (kind < 13) await timed(reads.tag, "tag", () => client.ok(`/api/v1/memories?tag=tag-${kind}`, headers(worker)));
          else if (kind < 15)
            await timed(reads.search, "search", () => client.ok(`/api/v1/memories?q=lighthouse%20${kind}`, headers(worker)));
          else if (kind < 17)
            await timed(writes, "write", async () => {
              const created = await client.json<{ id: string; version: number }>("POST", "/api/v1/memories", headers(worker), {
                title: `Written while soaking ${turn}`,
              });
              const removed = await client.request("DELETE", `/api/v1/memories/${created.id}`, headers(worker));
              return ok(removed.status);
            });
          else if (kind < 18)
            await timed(writes, "upload", async () => {
              const body = multipartPayload([{ name: "file", filename: "IMG_0001.JPG", contentType: "image/jpeg", data: photo }]);
              const uploaded = await client.request(
                "POST",
                "/api/v1/photos",
                { ...headers(worker), "content-type": multipartContentType, "content-length": body.length },
                body,
              );
              if (uploaded.status !== 201) return false;
              const { id } = JSON.parse(uploaded.body.toString("utf8")) as { id: string };
              const created = await client.json<{ id: string }>("POST", "/api/v1/memories", headers(worker), {
                title: `Photo while soaking ${turn}`,
                photo_ids: [id],
              });
              return ok((await client.request("DELETE", `/api/v1/memories/${created.id}`, headers(worker))).status);
            });
          else
            await timed(writes, "refresh", async () => {
              const fresh = await client.json<{ access_token: string; refresh_token: string }>(
                "POST",
                "/auth/v1/token?grant_type=refresh_token",
                {},
                { refresh_token: sessions[worker]!.refresh },
              );
              sessions[worker] = { access: fresh.access_token, refresh: fresh.refresh_token };
              return true;
            });
        }
      }),
    );
    clearInterval(sampler);
    stop.abort();
    const seconds = (performance.now() - started) / 1000;
    const readSummary = summarize(Object.values(reads).flat(), 0, seconds);
    const readsByKind = Object.entries(reads).map(([kind, latencies]) => {
      const summary = summarize(latencies, 0, seconds);
      return `${kind} ${summary.p50} / ${summary.p95} / ${summary.p99} / ${summary.max}`;
    });
    const writeSummary = summarize(writes, 0, seconds);
    const errors = [...failures.values()].reduce((sum, count) => sum + count, 0);
    const endOfRun = samples.at(-1)!.atMs;
    const afterWarmUp = samples.filter((sample) => sample.atMs >= warmUpMs && sample.atMs < warmUpMs + windowMs);
    const atEnd = samples.filter((sample) => sample.atMs > endOfRun - windowMs);
    const [rssAfterWarmUp, rssAtEnd] = [median(afterWarmUp, "rssMb"), median(atEnd, "rssMb")];
    // The fewest of each window: an upload in flight holds its stored file's temporary files and a
    // pool opens a connection more under a burst, each for a moment, so a sample holds a few more
    // or less by chance; a leaked descriptor stays open, and raises the fewest.
    const [filesAfterWarmUp, filesAtEnd] = [fewest(afterWarmUp, "files"), fewest(atEnd, "files")];
    const [socketsAfterWarmUp, socketsAtEnd] = [fewest(afterWarmUp, "sockets"), fewest(atEnd, "sockets")];
    const peakRss = Math.max(...samples.map((sample) => sample.rssMb));
    const rssChange = (100 * (rssAtEnd - rssAfterWarmUp)) / rssAfterWarmUp;
    const verdict = (pass: boolean) => (pass ? "pass" : "FAIL");
    return [
      `${round(seconds / 60, 1)} minutes; ${workers} clients one request after another (of each 20: 11 list pages, 2 tag filters, 2 searches, 2 memories written and deleted, 1 photo uploaded into a memory then deleted, 2 token refreshes) and ${liveStreams} live streams open throughout (${streamCounts.events} events read, ${streamCounts.reopened} reopened); ${seededMemories.toLocaleString("en")} memories seeded straight into the database (bench/lifetime-seed.ts) and 200 more written through the API to begin with. Warm-up: the first ${round(warmUpMs / 60_000, 1)} minutes. Resident memory after warm-up and at the end: the median of the samples (every ${sampleEveryMs / 1000} s) of the ${round(windowMs / 60_000, 1)} minutes after warm-up and of the last ${round(windowMs / 60_000, 1)} minutes; open files and sockets: the fewest of the same samples (an upload or a burst holds a few for a moment; a leak raises the fewest).`,
      "",
      "| Measure | Result | Target | |",
      "|---|---|---|---|",
      `| Errors | ${errors}${errors ? ` (${[...failures].map(([what, count]) => `${what} ${count}`).join(", ")})` : ""} | 0 | ${verdict(errors === 0)} |`,
      `| Reads: requests, p50 / p95 / p99 | ${readSummary.requests}, ${readSummary.p50} / ${readSummary.p95} / ${readSummary.p99} ms | p99 ≤ 50 ms | ${verdict(readSummary.p99 <= 50)} |`,
      `| … each kind of read: p50 / p95 / p99 / max ms | ${readsByKind.join("; ")} | — | — |`,
      `| Writes, uploads, refreshes: requests, p50 / p99 | ${writeSummary.requests}, ${writeSummary.p50} / ${writeSummary.p99} ms | — | — |`,
      `| Resident memory after warm-up → at the end (peak) | ${round(rssAfterWarmUp, 1)} → ${round(rssAtEnd, 1)} MB (${round(peakRss, 1)}), ${rssChange >= 0 ? "+" : ""}${round(rssChange, 1)} % | within 10 % | ${verdict(Math.abs(rssChange) <= 10)} |`,
      `| Open files after warm-up → at the end (fewest of each window) | ${filesAfterWarmUp} → ${filesAtEnd} | no growth | ${verdict(filesAtEnd <= filesAfterWarmUp)} |`,
      `| Open sockets after warm-up → at the end (fewest of each window) | ${socketsAfterWarmUp} → ${socketsAtEnd} | no growth | ${verdict(socketsAtEnd <= socketsAfterWarmUp)} |`,
      "",
      `Resident memory every ${sampleEveryMs / 1000} s (MB): ${samples
        .filter((_, n) => n % Math.max(1, Math.floor(samples.length / 24)) === 0)
        .map((sample) => round(sample.rssMb, 0))
        .join(", ")}.`,
    ].join("\n");
  } finally {
    client.close();
    await server.stop();
  }
}

/** Each engine's run replaces its own section: a run of one engine keeps the other's figures. */
function writeSoak(engine: string, section: string): void {
  writeResults(
    `Soak (${engine})`,
    [
      machineLine(),
      "Issue #37. The production server on loopback with the load generator on the same machine (two cores shared: the figures include that), on a fresh database.",
      section,
    ].join("\n\n"),
  );
  console.log(section);
}

if (engineChoice !== "postgres") {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "memory-box-bench-soak-"));
  try {
    writeSoak(
      "SQLite",
      await soak({ DATA_DIR: dataDir }, async (userIds) =>
        growSqlite(path.join(dataDir, "memory-box.sqlite"), 0, seededMemories, userIds),
      ),
    );
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
if (engineChoice !== "sqlite") {
  if (!adminUrl) console.log("PostgreSQL: not run (no BENCH_DATABASE_URL or TEST_DATABASE_URL).");
  else {
    const database = await scratchPostgresDatabase(adminUrl);
    try {
      writeSoak(
        "PostgreSQL",
        await soak({ DATABASE_URL: database.url }, (userIds) => growPostgres(database.url, 0, seededMemories, userIds)),
      );
    } finally {
      await database.drop();
    }
  }
}
