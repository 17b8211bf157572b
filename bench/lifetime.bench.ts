// Lifetime benchmark (issue #37, item 1): a couple's lifetime collection, 1,000,000 memories with
// 300,000 photos, on SQLite and PostgreSQL. Seeds a tenth of it, measures, grows it to the whole
// and measures again in the same run, through the production server on loopback, signed in as a
// member: the first page, a tag filter, a search, the timeline and "On this day". Each request is
// measured twice: answered from the database (the collection's generation moved just before it,
// as any write would, so the server keeps nothing it could answer from) and answered again
// without a change in between (what the server's listing cache gives). Bounded: one client,
// LIFETIME_REQUESTS requests per row, for LIFETIME_ROW_SECONDS at most.
//
//   LIFETIME_MEMORIES   the larger size (default 1000000); the smaller is a tenth of it
//   LIFETIME_QUICK=1    a smoke run: 20,000 and 2,000 memories, 30 requests a row, the section
//                       printed, not written
//   LIFETIME_REQUESTS   requests per row (default 300)
//   LIFETIME_ROW_SECONDS  a row's time limit, whatever it has done by then (default 10)
//   BENCH_ENGINE        sqlite | postgres | both (default both)
//   BENCH_POSTGRES_URL  a database to connect to for creating and dropping the bench database
//                       (default postgres://postgres@127.0.0.1:5432/test)
//   BENCH_RESULTS_FILE  write the section there instead of bench/RESULTS.md (trial runs)
import type { Engine } from "../apps/server/src/db/database";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import pg from "pg";
import { HttpClient } from "./http";
import {
  cli,
  type LoadResult,
  machineLine,
  round,
  RunConditions,
  scratchPostgresDatabase,
  startServer,
  summarize,
  type Watched,
  waitUntilIdle,
  watchCommand,
  watchPid,
  writeResults,
} from "./lib";
import { type GrowPhases, growPostgres, growSqlite, lifetimeTags, photosPerMemory, tagCount } from "./lifetime-seed";
import { breakdownTable, type BreakdownTarget, queryBreakdown } from "./query-breakdown";
import { searchWords } from "./seed";

const quick = process.env.LIFETIME_QUICK === "1";
const largest = Number(process.env.LIFETIME_MEMORIES ?? (quick ? 20_000 : 1_000_000));
const sizes = [Math.round(largest / 10), largest];
const requestsPerRow = Number(process.env.LIFETIME_REQUESTS ?? (quick ? 30 : 300));
const rowSeconds = Number(process.env.LIFETIME_ROW_SECONDS ?? 10);
const engineChoice = process.env.BENCH_ENGINE ?? "both";
const adminUrl = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const password = "correct horse battery staple";
const emails = ["ada@memory-box.test", "grace@memory-box.test"];
const authHeaders = { "x-supabase-api-version": "2024-01-01" };
const engineName: Record<Engine, string> = { sqlite: "SQLite", postgres: "PostgreSQL" };
/** The tags filtered on, by rank of frequency: the most common, one in the middle, a rare one. */
const filterRanks = [1, 20, 200];
/** "On this day" asked for a day of each month, in turn. */
const onThisDayDates = Array.from(
  { length: 12 },
  (_, month) => `2026-${String(month + 1).padStart(2, "0")}-${month === 1 ? 28 : 14}`,
);

interface Row {
  name: string;
  /** p95 target in ms, from the database. */
  target: number;
  paths: string[];
}

const rows: Row[] = [
  { name: "First page, `?limit=30`", target: 10, paths: ["/api/v1/memories?limit=30"] },
  {
    name: `Tag filter, \`?tag=…&limit=30\` (tags of rank ${filterRanks.join(", ")} in turn)`,
    target: 10,
    paths: filterRanks.map((rank) => `/api/v1/memories?tag=${encodeURIComponent(lifetimeTags[rank - 1]!)}&limit=30`),
  },
  {
    name: "Search, `?q=<word on ~1%>&limit=30`",
    target: 50,
    paths: searchWords.map((word) => `/api/v1/memories?q=${encodeURIComponent(word)}&limit=30`),
  },
  { name: "Timeline, `/api/v1/memories/timeline`", target: 20, paths: ["/api/v1/memories/timeline"] },
  {
    name: "On this day, `/api/v1/memories/on-this-day?date=…` (a day of each month in turn)",
    target: 20,
    paths: onThisDayDates.map((date) => `/api/v1/memories/on-this-day?date=${date}`),
  },
];

interface Measured {
  fromDatabase: LoadResult;
  cached: LoadResult;
}

interface SizeResult {
  memories: number;
  photos: number;
  tagRows: number;
  seedSeconds: number;
  phases: GrowPhases;
  startSeconds: number;
  rssMb: number;
  tagShares: number[];
  searchShares: number[];
  measured: Measured[];
  breakdown: string;
}

/** A database the server can be pointed at, with the means to grow it and to move its generation. */
async function scratchDatabase(engine: Engine): Promise<{
  env: Record<string, string>;
  target: BreakdownTarget;
  grow(from: number, to: number, userIds: string[]): Promise<GrowPhases>;
  /** Moves `memory_stats.generation`, as every write does: the server's kept pages and counts no longer answer. */
  bump: () => Promise<void>;
  counts(): Promise<{ photos: number; tagRows: number }>;
  close(): Promise<void>;
}> {
  if (engine === "sqlite") {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "memory-box-bench-lifetime-"));
    const file = path.join(dataDir, "memory-box.sqlite");
    let writer: SQLite.Database | undefined;
    const open = () => {
      if (!writer) {
        writer = new SQLite(file);
        writer.pragma("busy_timeout = 5000");
      }
      return writer;
    };
    return {
      env: { DATA_DIR: dataDir },
      target: { engine, file },
      grow: async (from, to, userIds) => {
        writer?.close();
        writer = undefined;
        return growSqlite(file, from, to, userIds);
      },
      bump: async () => {
        open().prepare("update memory_stats set generation = generation + 1 where id = 1").run();
      },
      counts: async () => {
        const db = open();
        const count = (table: string) => (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
        return { photos: count("photos"), tagRows: count("memory_tags") };
      },
      close: async () => {
        writer?.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const { url, drop } = await scratchPostgresDatabase(adminUrl);
  const writer = new pg.Client({ connectionString: url });
  await writer.connect();
  return {
    env: { DATABASE_URL: url },
    target: { engine, url },
    grow: (from, to, userIds) => growPostgres(url, from, to, userIds),
    bump: async () => {
      await writer.query("update memory_stats set generation = generation + 1 where id = 1");
    },
    counts: async () => {
      const count = async (table: string) =>
        Number((await writer.query<{ n: string }>(`select count(*) as n from ${table}`)).rows[0]!.n);
      return { photos: await count("photos"), tagRows: await count("memory_tags") };
    },
    close: async () => {
      await writer.end();
      await drop();
    },
  };
}

/** `count` requests one after another over `paths` in turn, for `rowSeconds` at most; `before` runs ahead of each, untimed. */
async function sequential(
  client: HttpClient,
  paths: string[],
  headers: Record<string, string>,
  count: number,
  before?: () => Promise<void>,
) {
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const stopAt = started + rowSeconds * 1000;
  for (let i = 0; i < count && performance.now() < stopAt; i += 1) {
    if (before) await before();
    const sent = performance.now();
    if (await client.ok(paths[i % paths.length]!, headers).catch(() => false)) latencies.push(performance.now() - sent);
    else errors += 1;
  }
  return summarize(latencies, errors, (performance.now() - started) / 1000);
}

async function benchEngine(engine: Engine): Promise<{ results: SizeResult[]; conditions: RunConditions }> {
  const database = await scratchDatabase(engine);
  const env = { AUTH_AUTOCONFIRM: "true", AUTH_INVITE_ONLY: "false", AUTH_RATE_LIMITS: "false", ...database.env };
  const conditions = new RunConditions();
  const results: SizeResult[] = [];
  try {
    // Migrations and the members, through the real server and CLI.
    let server = await startServer(env, { serverOnly: true });
    const userIds: string[] = [];
    try {
      cli(server, ["invite", ...emails]);
      const client = new HttpClient(server.url, 1);
      for (const email of emails) {
        const session = await client.json<{ user: { id: string } }>("POST", "/auth/v1/signup", authHeaders, { email, password });
        userIds.push(session.user.id);
      }
      client.close();
    } finally {
      await server.stop();
    }

    let seeded = 0;
    for (const size of sizes) {
      const seedStarted = performance.now();
      const phases = await database.grow(seeded, size, userIds);
      const seedSeconds = round((performance.now() - seedStarted) / 1000, 1);
      console.log(`${engine}: grew to ${size} memories in ${seedSeconds} s (${JSON.stringify(phases)})`);
      seeded = size;
      const { photos, tagRows } = await database.counts();

      const startStarted = performance.now();
      server = await startServer(env, { serverOnly: true });
      // The start-up's reconcile of photo files walks every photo row: measured after it.
      await waitUntilIdle(server.pid);
      const startSeconds = round((performance.now() - startStarted) / 1000, 1);
      const client = new HttpClient(server.url, 1);
      const watched: Watched[] = [watchPid("Server process", server.pid)];
      if (engine === "postgres") watched.push(watchCommand("PostgreSQL", "postgres"));
      try {
        const session = await client.json<{ access_token: string }>("POST", "/auth/v1/token?grant_type=password", authHeaders, {
          email: emails[0],
          password,
        });
        const headers = { authorization: `Bearer ${session.access_token}` };
        const page = async (query: string) => client.json<{ matched: number; total: number }>("GET", query, headers);
        for (const row of rows.slice(0, 1)) {
          const first = await page(row.paths[0]!);
          if (first.total !== size) throw new Error(`the list counts ${first.total} memories, not ${size}`);
        }
        const tagShares = await Promise.all(rows[1]!.paths.map(async (query) => (await page(query)).matched / size));
        const searchShares = await Promise.all(rows[2]!.paths.map(async (query) => (await page(query)).matched / size));

        // Warm-up: every path from the database a few times (the file's pages into memory).
        for (const row of rows) await sequential(client, row.paths, headers, Math.max(10, row.paths.length * 2), database.bump);

        const label = `${size.toLocaleString("en")}`;
        const measured: Measured[] = [];
        for (const row of rows) {
          const fromDatabase = await conditions.measure(
            `${label}: ${row.name.split(",")[0]}, from the database`,
            watched,
            () => sequential(client, row.paths, headers, requestsPerRow, database.bump),
            (result) => result.requests + result.errors,
          );
          const cached = await conditions.measure(
            `${label}: ${row.name.split(",")[0]}, cached`,
            watched,
            () => sequential(client, row.paths, headers, requestsPerRow),
            (result) => result.requests + result.errors,
          );
          measured.push({ fromDatabase, cached });
        }
        const breakdown = breakdownTable(
          await queryBreakdown(database.target, [
            { name: "first page", filter: {} },
            { name: `tag \`${lifetimeTags[0]}\``, filter: { tag: lifetimeTags[0] } },
            { name: `search \`${searchWords[0]}\``, filter: { q: searchWords[0] } },
          ]),
        );
        results.push({
          memories: size,
          photos,
          tagRows,
          seedSeconds,
          phases,
          startSeconds,
          rssMb: round(server.rssMb(), 0),
          tagShares,
          searchShares,
          measured,
          breakdown,
        });
      } finally {
        client.close();
        await server.stop();
      }
    }
  } finally {
    await database.close();
  }
  return { results, conditions };
}

/** What issue #37's item 1 asks that this benchmark does not measure, and why. */
const notMeasured = `Not measured here: the export of the whole collection against \`tar\` of the same files, the import of that archive into an empty instance on the other engine, and the server's answers meanwhile. The seeded photos are rows without files (no request measured reads one), and the exporter needs every original; writing 300,000 files, exporting 1,000,000 memory pages and importing them again is more than this run's bound (each engine's run stays well under 15 minutes on two shared cores). The exporter's pace against \`tar\` is measured by \`npm run bench:export\` (2 GB of photos, section "Export"); at a lifetime's size it is still to be measured, as is the import into the other engine.`;

/** What the first runs found and what was changed (kept by hand: the figures above are the last run's). */
const whereItStands = `Where it stands (2026-11-28): the first run (SQLite; the machine 0–40% idle, other engineers' tests running) found four requests that grew with the collection, read from the database: the timeline grouped every memory's sort key (p95 269 ms at 100,000), a tag filter counted the tag's index entries (the most common tag is on about a third of the memories: the count took 27 ms of 1,000,000 alone, p95 222 ms with the load), On this day read every memory of its seven days in every year to sort them and keep 200 (p95 107 ms at 100,000), and a search on ~1% (10,000 matches at 1,000,000, more than the 2,000 the server keeps) ran the full-text search three times, for its match list, its page and its count (p95 308 ms). Since: the unfiltered timeline reads month counts kept by triggers (\`memory_months\`, migration 2026_11_28_280000), a one-tag filter's count reads tag counts kept by triggers (\`memory_tag_counts\`, 2026_11_28_282000), On this day reads each day's newest from an index on month and day, then date and id (2026_11_28_281000), and a search's count comes with its match list (a window count), whose first matches also serve the pages within them: one full-text search per request. Then (2026-11-28, the machine about 55–60% idle) a search on ~1% from the database still missed on both engines (p95 71 ms on SQLite, 94 ms on PostgreSQL at 1,000,000; about ×6 from 100,000): its match list read all ~10,000 matches to sort them into the list's order and count them. Since: on SQLite the full-text index files memories by day (ADR 0079, migration 2026_11_28_283000), so the count is read from the index alone and each page from it in order, a day at a time; on PostgreSQL a dictionary of the memories' words (ADR 0081, migration 2026_11_28_284000) gives a one-word search's exact count from counts kept by triggers, and the first page from bands of months of the listing order; neither reads every match any more. The search's count on SQLite still grows with the matches (it reads each match's index entry: the page shows an exact count). On this day now presents the newest 100 memories (was 200).`;

function section(engine: Engine, results: SizeResult[], conditions: RunConditions, versions: string): string {
  const [small, large] = results as [SizeResult, SizeResult];
  const ms = (r: LoadResult) => `${r.p50} / **${r.p95}** / ${r.p99} (${r.requests}${r.errors > 0 ? `, ${r.errors} errors` : ""})`;
  const ratio = (a: LoadResult, b: LoadResult) => `× ${round(b.p95 / a.p95, 2)}`;
  const verdict = (r: LoadResult, target: number) => (r.errors === 0 && r.p95 <= target ? "pass" : "**FAIL**");
  const percent = (shares: number[]) => shares.map((share) => `${round(share * 100, 2)}%`).join(" / ");
  const n = (value: number) => value.toLocaleString("en");
  const after = engine === "sqlite" ? "full-text index" : "VACUUM ANALYZE";
  const took = (r: SizeResult) =>
    `${r.seedSeconds} s: rows ${r.phases.rows} s, indexes ${r.phases.indexes} s, ${after} ${r.phases.after} s`;
  const table = rows
    .map((row, i) => {
      const a = small.measured[i]!;
      const b = large.measured[i]!;
      return `| ${row.name}, from the database | ${ms(a.fromDatabase)} | ${ms(b.fromDatabase)} | ${ratio(a.fromDatabase, b.fromDatabase)} | p95 ≤ ${row.target} ms | ${verdict(b.fromDatabase, row.target)} |
| ${row.name}, cached | ${ms(a.cached)} | ${ms(b.cached)} | ${ratio(a.cached, b.cached)} | — | — |`;
    })
    .join("\n");
  return `${machineLine()} ${versions}
The production server bundle on ${engineName[engine]}, seeded straight into the database: ${n(small.memories)} memories (${n(small.photos)} photo rows, ${n(small.tagRows)} tags; ${took(small)}), measured, then grown to ${n(large.memories)} (${n(large.photos)} photo rows, ${n(large.tagRows)} tags; ${took(large)} more) and measured again, in the same run (bench/lifetime-seed.ts). Two members; dates over 60 years (3% undated), 0–5 tags each out of ${tagCount} used with Zipf-like frequencies (the tags filtered on, of rank ${filterRanks.join(", ")}, are on ${percent(small.tagShares)} of the memories at ${n(small.memories)} and ${percent(large.tagShares)} at ${n(large.memories)}), ${photosPerMemory} photos per memory (rows only: no measured request reads a photo's file), text from a small word list with each search word (\`${searchWords.join("`, `")}\`, in turn) in ${percent(large.searchShares)} of the memories; no places. \`sort_key\`, \`search_text\` and the photo keys are made by the app's own functions, \`memory_stats\` and the tags' copies of the sort key by the migrations' triggers; the indexes are dropped during the load and created again from their own definitions${engine === "sqlite" ? ", the full-text index filled (its rowids filed by day, as the triggers file them) and merged" : ", then VACUUM ANALYZE of the database (as autovacuum would)"}.

One client on loopback, signed in as a member, one request after another, ${requestsPerRow} per row or as many as ${rowSeconds} s allow (a warm-up of each path first; each cell gives the requests answered in parentheses). "From the database": just before each request (untimed), \`memory_stats.generation\` is moved by an update from another connection, as any write to the collection moves it, so the server's kept pages, matches, counts and timelines are all stale and the request runs its queries; the targets are judged on these. "Cached": the same requests with no change in between, answered from the server's listing cache (what members get between changes). Server start to idle (its reconcile of photo files walks every photo row): ${small.startSeconds} s at ${n(small.memories)}, ${large.startSeconds} s at ${n(large.memories)}; server RSS after the runs: ${small.rssMb} MB and ${large.rssMb} MB.

| Measure (p50 / p95 / p99 ms, requests) | ${n(small.memories)} | ${n(large.memories)} | p95 growth | Target (${n(large.memories)}) | Verdict |
|---|---|---|---|---|---|
${table}

${notMeasured}

${whereItStands}

Where a list request's database time goes at ${n(large.memories)} (bench/query-breakdown.ts: the server's own repository, one statement at a time, median of 5):

${large.breakdown}

${conditions.markdown()}`;
}

async function engineVersions(engine: Engine): Promise<string> {
  if (engine === "sqlite") {
    const db = new SQLite(":memory:");
    const version = (db.prepare("select sqlite_version() as v").get() as { v: string }).v;
    db.close();
    return `SQLite ${version} (better-sqlite3).`;
  }
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows: found } = await client.query<{ server_version: string }>("show server_version");
    const { rows: buffers } = await client.query<{ shared_buffers: string }>("show shared_buffers");
    return `PostgreSQL ${found[0]!.server_version} on the same machine, shared_buffers ${buffers[0]!.shared_buffers}.`;
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const engines: Engine[] = engineChoice === "both" ? ["sqlite", "postgres"] : [engineChoice as Engine];
  if (!engines.every((engine) => engine === "sqlite" || engine === "postgres"))
    throw new Error("BENCH_ENGINE must be sqlite, postgres or both");
  for (const engine of engines) {
    const started = performance.now();
    const { results, conditions } = await benchEngine(engine);
    const markdown = section(engine, results, conditions, await engineVersions(engine));
    console.log(`${engine}: ${round((performance.now() - started) / 60_000, 1)} min`);
    if (quick) console.log(markdown);
    else writeResults(`Lifetime collection (${engineName[engine]})`, markdown);
  }
}

await main();
