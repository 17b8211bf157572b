// Memories list benchmark: the first page, a search and a tag filter over 100,000 seeded memories
// (~3 tags and ~2 photos each), 10 concurrent clients on loopback, on SQLite and PostgreSQL; and
// the list route's throughput against a bare Fastify JSON route measured in the same run.
//
//   BENCH_SECONDS   seconds per measured run (default 10)
//   BENCH_ENGINE    sqlite | postgres | both (default both)
//   BENCH_MEMORIES  seed size (default 100000; the targets are stated for 100,000)
//   BENCH_POSTGRES_URL  a database to connect to for creating and dropping the bench database
//                   (default postgres://postgres@127.0.0.1:5432/test)
//   BENCH_RESULTS_FILE  write the section there instead of bench/RESULTS.md (trial runs)
//   BENCH_ROWS      all (default) | search: only the rows of searches built from the database (pages
//                   further down, and the first requests after a change), printed, nothing written |
//                   map: only the places map's rows, written to their own section
import type { Engine } from "../apps/server/src/db/database";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { HttpClient, startBareFastify } from "./http";
import {
  cli,
  type LoadResult,
  machineLine,
  round,
  summarize,
  RunConditions,
  runLoad,
  scratchPostgresDatabase,
  startServer,
  type Watched,
  waitUntilIdle,
  watchCommand,
  watchPid,
  writeResults,
} from "./lib";
import { breakdownTable, type BreakdownTarget, queryBreakdown } from "./query-breakdown";
import { runWrk, type WrkResult, wrkAvailable } from "./wrk";
import { listPageCacheSize } from "../apps/server/src/modules/memories/listing-cache";
import { filterTags, placedShare, type SeedCounts, searchWords, seedCities, seedPostgres, seedSqlite } from "./seed";

const concurrency = 10;
const durationMs = Number(process.env.BENCH_SECONDS ?? 10) * 1000;
const warmupMs = Math.min(3000, durationMs / 2);
const memoryCount = Number(process.env.BENCH_MEMORIES ?? 100_000);
const engineChoice = process.env.BENCH_ENGINE ?? "both";
const searchRowsOnly = process.env.BENCH_ROWS === "search";
const mapRowsOnly = process.env.BENCH_ROWS === "map";
const adminUrl = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const password = "correct horse battery staple";
const emails = ["ada@memory-box.test", "grace@memory-box.test"];
const authHeaders = { "x-supabase-api-version": "2024-01-01" };
const browserEncodings = "gzip, deflate, br, zstd";
/** Pages further down each search and tag: 4 × 25 = 100 distinct pages, more than the server keeps. */
const deepPagesPerFilter = 25;
const engineName: Record<Engine, string> = { sqlite: "SQLite", postgres: "PostgreSQL" };

interface Page {
  items: unknown[];
  matched: number;
  total: number;
}

/** A database the server can be pointed at, made empty and removed afterwards. */
async function scratchDatabase(engine: Engine): Promise<{
  env: Record<string, string>;
  target: BreakdownTarget;
  seed(userIds: string[]): Promise<SeedCounts>;
  drop(): Promise<void>;
}> {
  if (engine === "sqlite") {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "memory-box-bench-memories-"));
    return {
      env: { DATA_DIR: dataDir },
      target: { engine, file: path.join(dataDir, "memory-box.sqlite") },
      seed: async (userIds) => seedSqlite(path.join(dataDir, "memory-box.sqlite"), memoryCount, userIds),
      drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const { url, drop } = await scratchPostgresDatabase(adminUrl);
  return {
    env: { DATABASE_URL: url },
    target: { engine, url },
    seed: (userIds) => seedPostgres(url, memoryCount, userIds),
    drop,
  };
}

async function benchEngine(engine: Engine): Promise<void> {
  const database = await scratchDatabase(engine);
  const env = { AUTH_AUTOCONFIRM: "true", AUTH_INVITE_ONLY: "false", AUTH_RATE_LIMITS: "false", ...database.env };
  try {
    // 1. Migrations and the members, through the real server and CLI.
    let server = await startServer(env);
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

    // 2. The seed, straight into the stopped server's database.
    const seedStarted = performance.now();
    const seeded = await database.seed(userIds);
    const seedSeconds = round((performance.now() - seedStarted) / 1000, 1);
    console.log(`${engine}: seeded ${memoryCount} memories in ${seedSeconds} s`);

    // 3. The server again, on the seeded data.
    server = await startServer(env);
    const client = new HttpClient(server.url, concurrency);
    const conditions = new RunConditions();
    const databaseProcesses: Watched[] = engine === "postgres" ? [watchCommand("PostgreSQL", "postgres")] : [];
    const watched = [watchPid("Server process", server.pid), ...databaseProcesses];
    const measured = (label: string, request: (worker: number) => Promise<boolean>) =>
      conditions.load(label, watched, { concurrency, durationMs, request });
    try {
      const session = await client.json<{ access_token: string }>("POST", "/auth/v1/token?grant_type=password", authHeaders, {
        email: emails[0],
        password,
      });
      const plainHeaders = { authorization: `Bearer ${session.access_token}` };
      // What the web app's requests carry: Chromium offers these encodings on every fetch.
      const headers = { ...plainHeaders, "accept-encoding": browserEncodings };
      // For one comparison row: each client signed in on a session of its own (a device each).
      const ownSessionHeaders: Record<string, string>[] = [];
      for (let worker = 0; worker < concurrency; worker += 1) {
        const own = await client.json<{ access_token: string }>("POST", "/auth/v1/token?grant_type=password", authHeaders, {
          email: emails[worker % emails.length],
          password,
        });
        ownSessionHeaders.push({ authorization: `Bearer ${own.access_token}`, "accept-encoding": browserEncodings });
      }
      const firstPagePath = "/api/v1/memories?limit=30";
      const list = (query: string) => `/api/v1/memories?${query}&limit=30`;
      const searches = searchWords.map((word) => list(`q=${encodeURIComponent(word)}`));
      // Two words in capitals, the second inside the first ("LIGHTHOUSE ghth"): every word must
      // match, in any case, so these find the same memories as the one-word searches.
      const twoWordSearches = searchWords.map((word) =>
        list(`q=${encodeURIComponent(`${word.toUpperCase()} ${word.slice(2, 6)}`)}`),
      );
      const tagFilters = filterTags.map((tag) => list(`tag=${encodeURIComponent(tag.toLowerCase())}`));

      // The answers are what the benchmark claims they are: 30 items, ~1% matched.
      const share = async (query: string) => {
        const page = await client.json<Page>("GET", query, plainHeaders);
        if (page.total !== memoryCount || page.items.length !== 30)
          throw new Error(`${query}: total ${page.total}, ${page.items.length} items`);
        return page.matched;
      };
      await share(firstPagePath);
      const searchMatched = await Promise.all(searches.map(share));
      const tagMatched = await Promise.all(tagFilters.map(share));
      const percent = (counts: number[]) => `${counts.map((count) => ((100 * count) / memoryCount).toFixed(2)).join(" / ")}%`;
      // Pages further down each search's and tag's results, by their cursors: more distinct pages
      // than the server keeps, asked for in turn, so every request is answered from the database.
      const deeper = async (paths: string[]) =>
        (await Promise.all(paths.map((path) => cursorsOf(client, path, plainHeaders, deepPagesPerFilter)))).flat();
      const deepSearches = await deeper([...searches, ...twoWordSearches]);
      const deepTags = await deeper(tagFilters);

      if (mapRowsOnly) {
        await mapRows(engine, client, plainHeaders, headers, conditions, watched, server.pid);
        return;
      }

      let turn = 0;
      const rotating =
        (paths: string[], requestHeaders: Record<string, string> = headers) =>
        () =>
          client.ok(paths[turn++ % paths.length]!, requestHeaders);
      await runLoad({ concurrency, durationMs: warmupMs, request: rotating([firstPagePath, ...searches, ...tagFilters]) });
      if (searchRowsOnly) {
        await runLoad({ concurrency, durationMs: warmupMs, request: rotating(deepSearches) });
        const deepSearch = await measured("Search, pages further down", rotating(deepSearches));
        const afterChange = await firstRequestsAfterChanges(client, headers, firstPagePath, [
          ...searches,
          ...twoWordSearches,
          ...deepSearches.slice(0, concurrency - searches.length - twoWordSearches.length),
        ]);
        console.log(machineLine());
        console.log({ engine, searchMatched, deepSearch, afterChange: afterChange.result });
        console.log(conditions.markdown());
        return;
      }

      const firstPageJson = path.join(os.tmpdir(), `memory-box-bench-page-${process.pid}.json`);
      const firstPageBody = (await client.request("GET", firstPagePath, plainHeaders)).body;
      const firstPageGzipped = (await client.request("GET", firstPagePath, headers)).body;
      fs.writeFileSync(firstPageJson, firstPageBody);
      const { bare, barePage, bareBytes } = await bareRates(firstPageJson, conditions, databaseProcesses).finally(() =>
        fs.rmSync(firstPageJson, { force: true }),
      );
      const capacity = await capacityRatio(`${server.url}${firstPagePath}`, headers, server.pid, conditions, databaseProcesses);
      const page = await measured("First page", rotating([firstPagePath]));
      const plainPage = await measured("First page without `Accept-Encoding`", rotating([firstPagePath], plainHeaders));
      const ownSessionPage = await measured("First page, a session per client", (worker) =>
        client.ok(firstPagePath, ownSessionHeaders[worker]),
      );
      const search = await measured("Search", rotating(searches));
      const tag = await measured("Tag filter", rotating(tagFilters));
      const deepSearch = await measured("Search, pages further down", rotating(deepSearches));
      const deepTag = await measured("Tag filter, pages further down", rotating(deepTags));
      const twoWordSearch = await measured("Search of two words", rotating(twoWordSearches));
      const afterChange = await firstRequestsAfterChanges(client, headers, firstPagePath, [
        ...searches,
        ...twoWordSearches,
        ...deepSearches.slice(0, concurrency - searches.length - twoWordSearches.length),
      ]);
      const ratio = capacity?.ratio ?? page.perSecond / bare.perSecond;
      const plainRatio = plainPage.perSecond / bare.perSecond;
      const rssMb = round(server.rssMb(), 0);
      const breakdown = await queryBreakdown(database.target, [
        { name: "first page", filter: {} },
        { name: `search \`${searchWords[0]}\``, filter: { q: searchWords[0] } },
        { name: `tag \`${filterTags[0]!.toLowerCase()}\``, filter: { tag: filterTags[0] } },
      ]);

      const verdict = (pass: boolean) => (pass ? "pass" : "**FAIL**");
      const latency = (r: LoadResult) => `${r.p50} / **${r.p95}** / ${r.p99} ms (${r.perSecond} req/s, ${r.errors} errors)`;
      const kb = (bytes: number) => `${round(bytes / 1024, 0)} KB`;
      writeResults(
        `Memories list (${engineName[engine]})`,
        `${machineLine()}
The production server bundle on ${engineName[engine]}, seeded straight into the database (${seedSeconds} s) with ${memoryCount.toLocaleString("en")} memories by two members: dates over 20 years (5% undated), 1–5 tags and 0–4 photos each (${seeded.tags.toLocaleString("en")} tags and ${seeded.photos.toLocaleString("en")} photos in all), text from a small word list, deterministic. ${concurrency} concurrent clients on loopback (kept-alive connections, load generator in the bench process on the same machine), ${warmupMs / 1000} s warm-up, then ${durationMs / 1000} s per row. Requests carry a member's access token and, like the web app's in Chromium, \`Accept-Encoding: ${browserEncodings}\`. Each search word matches ${percent(searchMatched)} of the memories (\`${searchWords.join("`, `")}\`, in turn), each filter tag ${percent(tagMatched)} (\`${filterTags.join("`, `")}\`, in turn). The bare Fastify app (its own process and port; one route answering a small JSON object, and for comparison routes answering a copy of the real first page, ${kb(firstPageBody.length)}: serialized per request, and as prepared bytes) is loaded the same way just before the list. The throughput target is measured apart, with wrk as the load generator (Debian's \`wrk\`, \`-t1 -c${concurrency}\`; it costs a fraction of the server's CPU per request, so the servers saturate and the rates are theirs): the bare route and the cached first page in turn, three times each, ${durationMs / 1000} s a run, the median ratio counted only when every run kept its server at 90% of a core or more (bench/why-the-list-ratio-moves.md says why the bench's own client cannot give that figure). Server RSS after the runs: ${rssMb} MB.

The server keeps list pages as JSON (and gzipped, ${kb(firstPageBody.length)} → ${kb(firstPageGzipped.length)} for the first page) per \`memory_stats.generation\`, which triggers move with every change a page can show, so the rows but those of pages further down and after a change measure the pages members ask for again and again (opening the app, a second device, a search or tag asked for before): a cached answer costs one query, the member check, which reads the generation too. Requests that arrive together share one member-check read of all their sessions, each still getting a read sent after it arrived (ADR 0011). The clients share one session (one member's access token); the row "each client on its own session" shows the same page asked for from ten sessions. The rows of pages further down ask for ${deepSearches.length} and ${deepTags.length} distinct pages further down the same searches (one and two words) and tags (by cursor; more than the ${listPageCacheSize} pages the server keeps), in turn, so no page comes from the page cache: a tag's page is read from the database, a search's is a slice of the search's matches, which the server keeps in listing order per change (up to 2,000; ADR 0019). The row after a change measures the first searches after an edit made through the server: no page is kept, and each search's list of matches is carried over the edit (the database re-tests the edited memory against each kept search; ADR 0019), so their pages are read from the database by primary key.

| Measure | Result | Target | Verdict |
|---|---|---|---|
| First page, \`GET /api/v1/memories?limit=30\`, p50 / p95 / p99 | ${latency(page)} | p95 ≤ 10 ms | ${verdict(page.p95 <= 10 && page.errors === 0)} |
| Search, \`?q=<word on ~1%>&limit=30\`, p50 / p95 / p99 | ${latency(search)} | p95 ≤ 10 ms | ${verdict(search.p95 <= 10 && search.errors === 0)} |
| Search of two words in capitals (\`${searchWords[0]!.toUpperCase()} ${searchWords[0]!.slice(2, 6)}\`…), p50 / p95 / p99 | ${latency(twoWordSearch)} | p95 ≤ 10 ms | ${verdict(twoWordSearch.p95 <= 10 && twoWordSearch.errors === 0)} |
| Tag filter, \`?tag=<tag on ~1%>&limit=30\`, p50 / p95 / p99 | ${latency(tag)} | p95 ≤ 10 ms | ${verdict(tag.p95 <= 10 && tag.errors === 0)} |
${capacityRows(capacity, page, bare)}
| First page without \`Accept-Encoding\` (${kb(firstPageBody.length)} sent as it is), for comparison | ${latency(plainPage)}; ${Math.round(plainRatio * 100)}% of bare | — | — |
| First page, each client on its own session (${concurrency} sessions of ${emails.length} members), for comparison | ${latency(ownSessionPage)}; ${Math.round((100 * ownSessionPage.perSecond) / bare.perSecond)}% of bare | — | — |
| Bare Fastify answering the same first-page JSON, serialized per request / as prepared bytes | ${barePage.perSecond} / ${bareBytes.perSecond} req/s (p95 ${barePage.p95} / ${bareBytes.p95} ms) | — | — |
| Search, pages further down (one and two words; not in the page cache), p50 / p95 / p99 | ${latency(deepSearch)} | p95 ≤ 30 ms | ${verdict(deepSearch.p95 <= 30 && deepSearch.errors === 0)} |
| Search, first request after a change (${afterChange.rounds} rounds: one memory edited, then ${concurrency} searches at once, first pages and pages further down, built from the database), p50 / p95 / p99 | ${afterChange.result.p50} / **${afterChange.result.p95}** / ${afterChange.result.p99} ms (${afterChange.result.errors} errors) | p95 ≤ 30 ms | ${verdict(afterChange.result.p95 <= 30 && afterChange.result.errors === 0)} |
| Tag filter, pages further down (built from the database each time), p50 / p95 / p99 | ${latency(deepTag)} | — | — |

${conditions.markdown()}
Where the database time of a page built from the database goes: the server's own \`MemoriesRepository.page\` and \`countMatched\` (source, not a copy of its SQL) run from the bench process against the same database while the server idles, one statement at a time, median of 5 after a warm-up; the member check (which reads the collection's stats) not included.

${breakdownTable(breakdown)}
`,
      );
      console.log({
        engine,
        seedSeconds,
        searchMatched,
        tagMatched,
        bare,
        barePage,
        bareBytes,
        page,
        plainPage,
        ownSessionPage,
        search,
        tag,
        deepSearch,
        deepTag,
        ratio: round(ratio, 3),
        rssMb,
        conditions: conditions.runs,
      });
    } finally {
      client.close();
      await server.stop();
    }
  } finally {
    await database.drop();
  }
}

/**
 * The places map (ADR 0057): views of the whole world at zooms 0–2 and of the seed's cities at
 * zooms 11–13, each a distinct view (panned), asked in turn by one client (a member panning) and
 * by ten at once; its own section of RESULTS.md.
 */
async function mapRows(
  engine: Engine,
  client: HttpClient,
  plainHeaders: Record<string, string>,
  headers: Record<string, string>,
  conditions: RunConditions,
  watched: Watched[],
  serverPid: number,
): Promise<void> {
  // The server's start-up work first: its photo files' reconcile walks the seed's ~200,000 photo
  // rows (whose files the seed never writes) for tens of seconds, and measured alongside it a
  // city view (three statements on a pool the walk also uses) took twice as long on PostgreSQL.
  const startupSeconds = await waitUntilIdle(serverPid);
  const view = (west: number, south: number, east: number, north: number, zoom: number) =>
    `/api/v1/places/map?bounds=${[west, south, east, north].map((value) => value.toFixed(4)).join(",")}&zoom=${zoom}`;
  // A screen of 1280 × 800 pixels at the zoom, centred on a point (latitudes clamped to the map's).
  const screen = (latitude: number, longitude: number, zoom: number) => {
    const width = (1280 / (256 * 2 ** zoom)) * 360;
    const height = Math.min(170, width * (800 / 1280) * Math.cos((latitude * Math.PI) / 180));
    const wrap = (value: number) => (value > 180 ? value - 360 : value < -180 ? value + 360 : value);
    const west = width >= 360 ? -180 : wrap(longitude - width / 2);
    const east = width >= 360 ? 180 : wrap(longitude + width / 2);
    return view(west, Math.max(-85, latitude - height / 2), east, Math.min(85, latitude + height / 2), zoom);
  };
  const world = [
    view(-180, -85, 180, 85, 0),
    view(-180, -85, 180, 85, 1),
    ...[-150, -90, -30, 30, 90, 150].flatMap((longitude) => [screen(20, longitude, 2), screen(-10, longitude, 2)]),
  ];
  const city = seedCities.flatMap(([, , latitude, longitude], index) =>
    [11, 12, 13].map((zoom) => screen(latitude + ((index % 3) - 1) * 0.02, longitude + ((index % 5) - 2) * 0.02, zoom)),
  );
  const sizes = async (paths: string[]) => {
    const answers = await Promise.all(
      paths.map((path) => client.json<{ clusters: { count: number }[]; total: number }>("GET", path, plainHeaders)),
    );
    const marks = answers.map((answer) => answer.clusters.length);
    const inView = answers.map((answer) => answer.clusters.reduce((sum, cluster) => sum + cluster.count, 0));
    return {
      total: answers[0]!.total,
      marks: `${Math.min(...marks)}–${Math.max(...marks)}`,
      inView: `${Math.min(...inView)}–${Math.max(...inView)}`,
    };
  };
  const worldSizes = await sizes(world);
  const citySizes = await sizes(city);
  let turn = 0;
  const rotating = (paths: string[]) => () => client.ok(paths[turn++ % paths.length]!, headers);
  const oneClient = Math.min(durationMs, 10_000);
  await runLoad({ concurrency: 1, durationMs: warmupMs, request: rotating([...world, ...city]) });
  const measure = (label: string, paths: string[], clients: number) =>
    conditions.load(label, watched, { concurrency: clients, durationMs: oneClient, request: rotating(paths) });
  const worldOne = await measure("Map, world, one client", world, 1);
  const cityOne = await measure("Map, cities, one client", city, 1);
  const worldTen = await measure("Map, world, 10 clients", world, concurrency);
  const cityTen = await measure("Map, cities, 10 clients", city, concurrency);
  const latency = (r: LoadResult) => `${r.p50} / **${r.p95}** / ${r.p99} ms (${r.perSecond} req/s, ${r.errors} errors)`;
  const verdict = (r: LoadResult) => (r.p95 <= 20 && r.errors === 0 ? "pass" : "**FAIL**");
  writeResults(
    `Places map (${engineName[engine]})`,
    `${machineLine()}
The memories list's seed (the production server bundle on ${engineName[engine]}, ${memoryCount.toLocaleString("en")} memories), ${Math.round(placedShare * 100)}% of them with a place (${worldSizes.total.toLocaleString("en")}): nine in ten within ~10 km of one of ${seedCities.length} cities (the first ones most: Lisbon holds about a fifth), the rest anywhere between 70° S and 70° N. \`GET /api/v1/places/map\` groups the memories within a view into cells of 64 pixels at its zoom (ADR 0057): at zoom 4 and out from each level's cells over the whole world, added up in SQL once per change and kept (so the world rows measure kept cells, filtered to the view), further in by adding up the view's memories in SQL over the place index on every request, each cell with its newest memory in the same statement (the city rows). World: ${world.length} views of the whole world or a 1280 × 800 screen of it at zooms 0–2 (${worldSizes.inView} memories in view, ${worldSizes.marks} marks). Cities: ${city.length} screens of 1280 × 800 around the seed's cities at zooms 11–13 (${citySizes.inView} memories in view, ${citySizes.marks} marks). Measured once the server had finished its start-up work (the photo files' reconcile over the seed's photo rows: ${startupSeconds} s until its process was idle), views asked in turn, ${oneClient / 1000} s per row after a ${warmupMs / 1000} s warm-up, by one client (a member panning the map: each request sent when the last was answered) and by ${concurrency} at once, requests carrying a member's access token and \`Accept-Encoding: ${browserEncodings}\`.

| Measure | Result | Target | Verdict |
|---|---|---|---|
| Map at world zoom (0–2), one client, p50 / p95 / p99 | ${latency(worldOne)} | p95 ≤ 20 ms | ${verdict(worldOne)} |
| Map at city zoom (11–13), one client, p50 / p95 / p99 | ${latency(cityOne)} | p95 ≤ 20 ms | ${verdict(cityOne)} |
| Map at world zoom, ${concurrency} clients at once, p50 / p95 / p99 | ${latency(worldTen)} | — | — |
| Map at city zoom, ${concurrency} clients at once, p50 / p95 / p99 | ${latency(cityTen)} | — | — |

${conditions.markdown()}`,
  );
  console.log({ engine, worldSizes, citySizes, worldOne, cityOne, worldTen, cityTen });
}

/** The next-page cursors of a listing, up to `pages` of them, as paths to ask for. */
async function cursorsOf(
  client: HttpClient,
  firstPath: string,
  headers: Record<string, string>,
  pages: number,
): Promise<string[]> {
  const paths: string[] = [];
  let cursor: string | null = null;
  do {
    const page: { next_cursor: string | null } = await client.json(
      "GET",
      cursor ? `${firstPath}&cursor=${cursor}` : firstPath,
      headers,
    );
    cursor = page.next_cursor;
    if (cursor) paths.push(`${firstPath}&cursor=${cursor}`);
  } while (cursor && paths.length < pages);
  return paths;
}

/** A bare Fastify app under the same load loop: its small JSON route, then the first-page copies. */
async function bareRates(
  payloadFile: string,
  conditions: RunConditions,
  databaseProcesses: Watched[],
): Promise<{ bare: LoadResult; barePage: LoadResult; bareBytes: LoadResult }> {
  const bare = await startBareFastify(payloadFile);
  const client = new HttpClient(bare.url, concurrency);
  const watched = [watchPid("Server process", bare.pid), ...databaseProcesses];
  try {
    const load = async (label: string, route: string) => {
      await runLoad({ concurrency, durationMs: Math.min(1000, warmupMs), request: () => client.ok(route) });
      return conditions.load(label, watched, { concurrency, durationMs, request: () => client.ok(route) });
    };
    return {
      bare: await load("Bare Fastify, small JSON", "/"),
      barePage: await load("Bare Fastify, first-page JSON serialized", "/page"),
      bareBytes: await load("Bare Fastify, first-page bytes", "/page-bytes"),
    };
  } finally {
    client.close();
    await bare.stop();
  }
}

interface Capacity {
  /** Median of the three list ÷ bare ratios. */
  ratio: number;
  pairs: { bare: WrkResult; list: WrkResult; bareServerCore: number; listServerCore: number }[];
  /** Every run kept its server at 90% of a core or more: the rates are the servers', not the client's. */
  saturated: boolean;
}

/** How much of a core the server process used in the run just measured. */
function lastServerCore(conditions: RunConditions): number {
  return conditions.runs.at(-1)?.watched.find((watched) => watched.name === "Server process")?.core ?? Number.NaN;
}

/**
 * The throughput target, measured so that it is the servers' and not the load generator's: wrk
 * (C, a fraction of the server's cost per request) drives the bare Fastify route and the cached
 * first page in turn, three times each, and the median ratio counts only if every run kept its
 * server at 90% of a core or more. Undefined when wrk is not installed.
 */
async function capacityRatio(
  firstPageUrl: string,
  headers: Record<string, string>,
  serverPid: number,
  conditions: RunConditions,
  databaseProcesses: Watched[],
): Promise<Capacity | undefined> {
  if (!wrkAvailable()) {
    console.warn("bench: wrk is not installed (apt-get install wrk): the throughput ratio falls back to the bench's own client.");
    return undefined;
  }
  const bareServer = await startBareFastify();
  try {
    const wrk = (label: string, pid: number, url: string, requestHeaders?: Record<string, string>) =>
      conditions.measure(
        label,
        [watchPid("Server process", pid), watchCommand("wrk (load generator)", "wrk"), ...databaseProcesses],
        () => runWrk({ url, connections: concurrency, durationMs, ...(requestHeaders ? { headers: requestHeaders } : {}) }),
        (result) => result.requests + result.errors,
      );
    await runWrk({ url: `${bareServer.url}/`, connections: concurrency, durationMs: warmupMs });
    await runWrk({ url: firstPageUrl, headers, connections: concurrency, durationMs: warmupMs });
    const pairs: Capacity["pairs"] = [];
    for (let round = 1; round <= 3; round += 1) {
      const bare = await wrk(`wrk ${round}: bare Fastify, small JSON`, bareServer.pid, `${bareServer.url}/`);
      const bareServerCore = lastServerCore(conditions);
      const list = await wrk(`wrk ${round}: first page`, serverPid, firstPageUrl, headers);
      pairs.push({ bare, list, bareServerCore, listServerCore: lastServerCore(conditions) });
    }
    const ratios = pairs.map((pair) => pair.list.perSecond / pair.bare.perSecond).sort((a, b) => a - b);
    return {
      ratio: ratios[1]!,
      pairs,
      saturated: pairs.every((pair) => pair.bareServerCore >= 90 && pair.listServerCore >= 90),
    };
  } finally {
    await bareServer.stop();
  }
}

/** The throughput rows: wrk's three pairs when wrk ran, else the bench client's figures. */
function capacityRows(capacity: Capacity | undefined, page: LoadResult, bare: LoadResult): string {
  const clientRows = `| Bare Fastify JSON route (small object), bench client | ${bare.perSecond} req/s (p95 ${bare.p95} ms, ${bare.errors} errors) | — | — |`;
  if (!capacity) {
    const ratio = page.perSecond / bare.perSecond;
    return `${clientRows}
| First-page throughput ÷ bare Fastify, bench client (wrk not installed) | **${Math.round(ratio * 100)}%** (${page.perSecond} ÷ ${bare.perSecond} req/s) | ≥ 30% | no verdict: client-bound |`;
  }
  const pair = (entry: Capacity["pairs"][number]) =>
    `${Math.round(entry.list.perSecond)} ÷ ${Math.round(entry.bare.perSecond)} req/s (servers at ${Math.round(entry.listServerCore)}% / ${Math.round(entry.bareServerCore)}% of a core, ${entry.list.errors + entry.bare.errors} errors)`;
  const verdict = !capacity.saturated ? "no verdict: a server was not saturated" : capacity.ratio >= 0.3 ? "pass" : "**FAIL**";
  return `${clientRows}
| Capacity under wrk (${concurrency} connections), first page ÷ bare Fastify, three pairs | ${capacity.pairs.map(pair).join("; ")} | — | — |
| First-page throughput ÷ bare Fastify, median of the three, servers saturated | **${Math.round(capacity.ratio * 100)}%** | ≥ 30% | ${verdict} |`;
}

async function main(): Promise<void> {
  const engines: Engine[] = engineChoice === "both" ? ["sqlite", "postgres"] : [engineChoice as Engine];
  if (!engines.every((engine) => engine === "sqlite" || engine === "postgres"))
    throw new Error("BENCH_ENGINE must be sqlite, postgres or both");
  for (const engine of engines) await benchEngine(engine);
}

await main();

/**
 * The searches' cost right after a change: each round edits one memory through the server (which
 * moves the collection's generation, so the server drops every kept page and count, and carries
 * its kept searches over the edit), then asks for `paths` all at once, as members would right
 * after a partner's change. Latency of those requests only.
 */
async function firstRequestsAfterChanges(
  client: HttpClient,
  headers: Record<string, string>,
  firstPagePath: string,
  paths: string[],
  rounds = 40,
): Promise<{ rounds: number; result: LoadResult }> {
  const first = JSON.parse(
    (await client.request("GET", firstPagePath, { authorization: headers.authorization! })).body.toString("utf8"),
  ) as {
    items: Array<{
      id: string;
      title: string;
      content: string | null;
      memory_date: string | null;
      tags: string[] | null;
      photos: Array<{ id: string }>;
    }>;
  };
  const memory = first.items[0]!;
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  for (let round = 0; round < rounds; round += 1) {
    const body = {
      title: round % 2 === 0 ? `${memory.title}.` : memory.title,
      content: memory.content,
      memory_date: memory.memory_date,
      tags: memory.tags,
      photo_ids: memory.photos.map((photo) => photo.id),
    };
    const edit = await client.request(
      "PUT",
      `/api/v1/memories/${memory.id}`,
      { authorization: headers.authorization!, "content-type": "application/json" },
      Buffer.from(JSON.stringify(body)),
    );
    if (edit.status !== 200) throw new Error(`editing a memory answered ${edit.status}: ${edit.body.toString("utf8")}`);
    await Promise.all(
      paths.map(async (path) => {
        const sent = performance.now();
        if (await client.ok(path, headers).catch(() => false)) latencies.push(performance.now() - sent);
        else errors += 1;
      }),
    );
  }
  return { rounds, result: summarize(latencies, errors, (performance.now() - started) / 1000) };
}
