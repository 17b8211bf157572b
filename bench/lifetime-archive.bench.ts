// Lifetime archive benchmark (issue #37, item 1): the export of a lifetime's collection against
// `tar` of the same files, and the import of that archive into an empty instance on the other
// engine while that instance's server answers a light stream of requests. The collection is
// bench/lifetime-seed.ts's (a tenth of it, then the whole, in the same run), with a real JPEG
// behind every photo row: a few small distinct images, each written under every row's own key,
// with each memory's leading thumbnail (what the archive carries besides the originals), so `tar`
// and the exporter read the same files. Export and import are the operator's commands (`npm run
// export`, `npm run import`) run as processes on the production bundle. After each import the
// bench checks that the new instance holds what the old one did (memories, photos, tags).
//
//   LIFETIME_MEMORIES      the larger size (default 1000000); the smaller is a tenth of it
//   LIFETIME_QUICK=1       a smoke run: 10,000 and 1,000 memories, the section printed, not written
//   BENCH_ENGINE           the engine exported from: sqlite (imported into PostgreSQL), postgres
//                          (imported into SQLite) or both (default)
//   ARCHIVE_PROBE_RATE     requests a second to the importing instance's server (default 4)
//   ARCHIVE_IMPORT_MINUTES the larger size's import, still running after this long, is stopped
//                          (Ctrl-C, as an operator would) and reported with its pace; the bench then
//                          checks that it left nothing behind (default 6; the smaller size's import
//                          always runs to its end)
//   BENCH_POSTGRES_URL     a database to connect to for creating and dropping the bench databases
//                          (default postgres://postgres@127.0.0.1:5432/test)
//   BENCH_RESULTS_FILE     write the section there instead of bench/RESULTS.md (trial runs)
import type { Engine } from "../apps/server/src/db/database";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import pg from "pg";
import sharp from "sharp";
import { ZipReader } from "../apps/server/src/lib/zip-reader";
import { processImage } from "../apps/server/src/modules/photos/image-pipeline";
import { HttpClient } from "./http";
import {
  cli,
  machineLine,
  root,
  round,
  RunConditions,
  type LoadResult,
  type RunningServer,
  runOpenLoop,
  scratchPostgresDatabase,
  startServer,
  type Watched,
  waitUntilIdle,
  watchCommand,
  watchPid,
  writeResults,
} from "./lib";
import { type GrowPhases, growPostgres, growSqlite, lifetimeProbePaths, type PhotoFileOf } from "./lifetime-seed";

const quick = process.env.LIFETIME_QUICK === "1";
const largest = Number(process.env.LIFETIME_MEMORIES ?? (quick ? 10_000 : 1_000_000));
const sizes = [Math.round(largest / 10), largest];
const engineChoice = process.env.BENCH_ENGINE ?? "both";
const probeRate = Number(process.env.ARCHIVE_PROBE_RATE ?? 4);
const importLimitSeconds = Number(process.env.ARCHIVE_IMPORT_MINUTES ?? 6) * 60;
const adminUrl = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const password = "correct horse battery staple";
const emails = ["ada@memory-box.test", "grace@memory-box.test"];
const authHeaders = { "x-supabase-api-version": "2024-01-01" };
const engineName: Record<Engine, string> = { sqlite: "SQLite", postgres: "PostgreSQL" };
const otherEngine: Record<Engine, Engine> = { sqlite: "postgres", postgres: "sqlite" };
const serverEnv = { AUTH_AUTOCONFIRM: "true", AUTH_INVITE_ONLY: "false", AUTH_RATE_LIMITS: "false" };
/** The importing instance's server answers within this meanwhile (issue #37). */
const probeTargetMs = 100;
/** The export takes at most this many times `tar` of the same files (issue #37). */
const exportTargetRatio = 1.5;
const photoBucket = "memory-photos";

// ---------------------------------------------------------------------------------------------
// The photos: a few distinct small JPEGs, with what the app's own pipeline makes of them.

interface BenchImage {
  jpeg: Buffer;
  thumbnail: Buffer;
  width: number;
  height: number;
  placeholder: string;
}

const imageCount = 6;
const imageWidth = 480;
const imageHeight = 360;

/** Gradients and circles, different in each: real JPEGs of about 10 KB, decoded as any upload is. */
async function makeImages(): Promise<BenchImage[]> {
  const images: BenchImage[] = [];
  for (let i = 0; i < imageCount; i += 1) {
    const hue = (i * 360) / imageCount;
    const circles = Array.from({ length: 5 }, (_, c) => {
      const x = ((i * 97 + c * 131) % imageWidth) + 10;
      const y = ((i * 53 + c * 71) % imageHeight) + 10;
      return `<circle cx="${x}" cy="${y}" r="${20 + ((i + c) % 5) * 12}" fill="hsl(${(hue + c * 40) % 360},70%,55%)"/>`;
    }).join("");
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${imageWidth}" height="${imageHeight}">
      <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="hsl(${hue},60%,80%)"/><stop offset="1" stop-color="hsl(${(hue + 90) % 360},50%,30%)"/>
      </linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>${circles}</svg>`;
    const jpeg = await sharp(Buffer.from(svg)).jpeg({ quality: 82 }).toBuffer();
    const processed = await processImage(jpeg);
    images.push({
      jpeg,
      thumbnail: processed.thumbnail.data,
      width: processed.width,
      height: processed.height,
      placeholder: processed.placeholder,
    });
  }
  return images;
}

// ---------------------------------------------------------------------------------------------
// An instance: its data folder (photo storage, and the SQLite file) and its database.

interface Counts {
  memories: number;
  photos: number;
  tags: number;
}

interface PhotoFileRow {
  object_key: string;
  thumbnail_key: string;
  position: number;
  bytes: number;
}

interface Instance {
  engine: Engine;
  dataDir: string;
  env: Record<string, string>;
  grow(from: number, to: number, userIds: string[], photoFileOf: PhotoFileOf): Promise<GrowPhases>;
  photoRows(): Promise<PhotoFileRow[]>;
  counts(): Promise<Counts>;
  close(): Promise<void>;
}

const countSql = {
  memories: "select count(*) as n from memories",
  photos: "select count(*) as n from photos",
  tags: "select count(*) as n from memory_tags",
};
const photoRowsSql = "select object_key, thumbnail_key, position, bytes from photos";

async function instance(engine: Engine): Promise<Instance> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "memory-box-bench-archive-"));
  if (engine === "sqlite") {
    const file = path.join(dataDir, "memory-box.sqlite");
    const read = <T>(work: (db: SQLite.Database) => T): T => {
      const db = new SQLite(file, { readonly: true });
      try {
        return work(db);
      } finally {
        db.close();
      }
    };
    return {
      engine,
      dataDir,
      env: { DATA_DIR: dataDir },
      grow: async (from, to, userIds, photoFileOf) => growSqlite(file, from, to, userIds, photoFileOf),
      photoRows: async () => read((db) => db.prepare(photoRowsSql).all() as PhotoFileRow[]),
      counts: async () =>
        read((db) => {
          const n = (statement: string) => (db.prepare(statement).get() as { n: number }).n;
          return { memories: n(countSql.memories), photos: n(countSql.photos), tags: n(countSql.tags) };
        }),
      close: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const { url, drop } = await scratchPostgresDatabase(adminUrl);
  const query = async <T extends pg.QueryResultRow>(statement: string): Promise<T[]> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<T>(statement)).rows;
    } finally {
      await client.end();
    }
  };
  const n = async (statement: string) => Number((await query<{ n: string }>(statement))[0]!.n);
  return {
    engine,
    dataDir,
    env: { DATA_DIR: dataDir, DATABASE_URL: url },
    grow: (from, to, userIds, photoFileOf) => growPostgres(url, from, to, userIds, photoFileOf),
    photoRows: () => query<PhotoFileRow>(photoRowsSql),
    counts: async () => ({
      memories: await n(countSql.memories),
      photos: await n(countSql.photos),
      tags: await n(countSql.tags),
    }),
    close: async () => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      await drop();
    },
  };
}

/** Starts the instance's server and signs the two members up (the first becomes its owner); returns their ids. */
async function withMembers(target: Instance): Promise<{ server: RunningServer; userIds: string[] }> {
  const server = await startServer({ ...serverEnv, ...target.env }, { serverOnly: true });
  try {
    cli(server, ["invite", ...emails]);
    const client = new HttpClient(server.url, 1);
    const userIds: string[] = [];
    for (const email of emails) {
      const session = await client.json<{ user: { id: string } }>("POST", "/auth/v1/signup", authHeaders, { email, password });
      userIds.push(session.user.id);
    }
    client.close();
    return { server, userIds };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/**
 * Writes the file behind every photo row not written yet: its original (the image its row's bytes
 * name) and, for a memory's first photo, the thumbnail the archive's year pages show.
 */
async function writePhotoFiles(
  from: Instance,
  images: BenchImage[],
  written: Set<string>,
): Promise<{ files: number; bytes: number; seconds: number }> {
  const started = performance.now();
  const bySize = new Map(images.map((image) => [image.jpeg.length, image]));
  const storage = path.join(from.dataDir, "storage", "objects", photoBucket);
  const folders = new Set<string>();
  let files = 0;
  let bytes = 0;
  const write = (key: string, data: Buffer) => {
    const file = path.join(storage, key);
    const folder = path.dirname(file);
    if (!folders.has(folder)) {
      fs.mkdirSync(folder, { recursive: true });
      folders.add(folder);
    }
    fs.writeFileSync(file, data);
    files += 1;
    bytes += data.length;
  };
  for (const row of await from.photoRows()) {
    if (written.has(row.object_key)) continue;
    const image = bySize.get(Number(row.bytes));
    if (!image) throw new Error(`photo ${row.object_key} is not one of the bench's images (${row.bytes} bytes)`);
    write(row.object_key, image.jpeg);
    if (row.position === 0) write(row.thumbnail_key, image.thumbnail);
    written.add(row.object_key);
  }
  return { files, bytes, seconds: round((performance.now() - started) / 1000, 1) };
}

// ---------------------------------------------------------------------------------------------
// Timed processes.

interface ProcessRun {
  seconds: number;
  /** Stopped (SIGINT) after the time it was given, and ended as a stopped import does. */
  stopped: boolean;
  peakRssMb: number;
  /** Each line of its output with the seconds since the start it came at. */
  lines: { at: number; text: string }[];
}

/**
 * Runs a command to its end, sampling its resident memory; fails with its output when it fails.
 * With `limitSeconds`, one still running then gets SIGINT (an operator's Ctrl-C) and counts as
 * stopped when it then ends as a stopped import does.
 */
function runTimed(
  command: string,
  args: string[],
  env: Record<string, string>,
  current: { pid?: number | undefined },
  whileRunning?: (done: Promise<void>) => Promise<void>,
  limitSeconds?: number,
): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    current.pid = child.pid;
    let stopped = false;
    const limit =
      limitSeconds === undefined
        ? undefined
        : setTimeout(() => {
            stopped = true;
            console.log(`  ${args[1]}: still running after ${limitSeconds} s: stopped`);
            child.kill("SIGINT");
          }, limitSeconds * 1000);
    let peakRssMb = 0;
    const sampler = setInterval(() => {
      try {
        const status = fs.readFileSync(`/proc/${child.pid}/status`, "utf8");
        peakRssMb = Math.max(peakRssMb, Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
      } catch {
        // ended
      }
    }, 200);
    const lines: ProcessRun["lines"] = [];
    let pending = "";
    child.stdout.on("data", (chunk: Buffer) => {
      const at = (performance.now() - started) / 1000;
      pending += chunk.toString("utf8");
      const parts = pending.split("\n");
      pending = parts.pop()!;
      for (const text of parts) {
        lines.push({ at, text });
        if (quick || !text.startsWith("Photos and videos:")) console.log(`  ${path.basename(command)} ${args[1] ?? ""}: ${text}`);
      }
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const done = new Promise<void>((settle) => child.once("exit", () => settle()));
    const alongside = whileRunning?.(done) ?? Promise.resolve();
    child.once("exit", (code) => {
      clearInterval(sampler);
      clearTimeout(limit);
      current.pid = undefined;
      const seconds = (performance.now() - started) / 1000;
      void alongside.then(() => {
        if (stopped && stderr.includes("the import was stopped")) resolve({ seconds, stopped, peakRssMb, lines });
        else if (code !== 0) reject(new Error(`${command} ${args.join(" ")} failed (${code}): ${stderr.slice(-2000)}`));
        else resolve({ seconds, stopped: false, peakRssMb, lines });
      }, reject);
    });
  });
}

/**
 * Requests at `probeRate` a second to the server until `done` (an open loop: latency counts from
 * when each was due), `lifetimeProbePaths` in turn.
 */
async function probe(server: RunningServer, token: string, done: Promise<void>): Promise<ProbeResult> {
  const client = new HttpClient(server.url, 32);
  const headers = { authorization: `Bearer ${token}` };
  const slow: SlowAnswer[] = [];
  try {
    const result = await runOpenLoop({
      ratePerSecond: probeRate,
      until: done,
      slots: 32,
      request: (_, index) => client.ok(lifetimeProbePaths[index % lifetimeProbePaths.length]!, headers),
      onAnswer: (latencyMs, dueMs, index, heldHereMs) => {
        if (latencyMs > probeTargetMs)
          slow.push({
            at: dueMs / 1000,
            ms: latencyMs,
            heldHere: heldHereMs,
            path: lifetimeProbePaths[index % lifetimeProbePaths.length]!,
          });
      },
    });
    return { ...result, slow };
  } finally {
    client.close();
  }
}

/**
 * An answer slower than the target: when it was due (seconds since the import started), how slow,
 * how much of that the bench's own process was stalled, what was asked.
 */
interface SlowAnswer {
  at: number;
  ms: number;
  heldHere: number;
  path: string;
}

type ProbeResult = LoadResult & { slow: SlowAnswer[] };

/**
 * The slow answers by the import phase they were due in (opening / checking / photos / saving),
 * and the slowest with what it asked: where to look when the server was slow meanwhile.
 */
function slowAnswersCell(result: SizeResult): string {
  const { slow } = result.probe;
  if (slow.length === 0) return "none";
  const at = (prefix: string) => lineAt(result.importRun, prefix) ?? Infinity;
  // Each phase ends where the next one's first progress line came.
  const ends = [at("Checking"), at("Photos and videos:"), at("Saving"), Infinity];
  const names = ["opening", "checking", "photos", "saving"];
  const phaseOf = (answer: SlowAnswer) => ends.findIndex((end) => answer.at < end);
  const counts = names.map((_, phase) => slow.filter((answer) => phaseOf(answer) === phase).length);
  const slowest = slow.reduce((a, b) => (b.ms > a.ms ? b : a));
  const phases = names.map((name, phase) => `${name} ${counts[phase]}`).join(" / ");
  return `${slow.length}: ${phases}; slowest ${round(slowest.ms, 0)} ms at ${round(slowest.at, 0)} s (${slowest.path.split("?")[0]}); ${heldHereText(slow)}`;
}

/** How many slow answers were within the target but for the bench's own stalls while it waited. */
function heldHereText(slow: SlowAnswer[]): string {
  const held = slow.filter((answer) => answer.ms - answer.heldHere <= probeTargetMs).length;
  const most = Math.max(...slow.map((answer) => answer.heldHere));
  return `${held} of them within ${probeTargetMs} ms but for the bench's own process stalling (up to ${round(most, 0)} ms)`;
}

// ---------------------------------------------------------------------------------------------
// One direction: a collection on `source`, exported, imported into an empty instance on the other engine.

interface ImportPhases {
  /** Opening the ZIP and reading the manifest, until the import's check begins. */
  opening: number;
  checking: number;
  photos: number;
  saving: number;
}

interface SizeResult {
  counts: Counts;
  seed: GrowPhases & { seconds: number };
  files: { files: number; bytes: number; seconds: number };
  tarSeconds: number;
  tarBytes: number;
  exportRun: ProcessRun;
  zipBytes: number;
  zipEntries: number;
  manifestBytes: number;
  importRun: ProcessRun;
  phases: ReturnType<typeof importPhases>;
  probe: ProbeResult;
  imported: Counts;
  /** Photo files in the importing instance's storage afterwards (none after a stopped import). */
  storedFiles: number;
  listTotal: number;
}

/** When the command printed its first line starting with `prefix` (seconds since it started). */
function lineAt(run: ProcessRun, prefix: string): number | undefined {
  return run.lines.find((line) => line.text.startsWith(prefix))?.at;
}

/**
 * The seconds each phase took, from the import CLI's progress lines; a phase cut short by a stop
 * counts to the stop. `photosDone`: of `photosTotal`, at the last line.
 */
function importPhases(run: ProcessRun): ImportPhases & { photosDone: number; photosTotal: number } {
  const at = (prefix: string) => lineAt(run, prefix) ?? Number.NaN;
  const end = (value: number) => (Number.isNaN(value) ? run.seconds : value);
  const checking = end(at("Checking"));
  const photos = end(at("Photos and videos:"));
  const saving = end(at("Saving"));
  const lastPhotos = run.lines.findLast((line) => line.text.startsWith("Photos and videos:"))?.text ?? "";
  const [, done = "0", total = "0"] = /(\d+) of (\d+)/.exec(lastPhotos) ?? [];
  return {
    opening: round(checking, 1),
    checking: round(photos - checking, 1),
    photos: round(saving - photos, 1),
    saving: round(run.seconds - saving, 1),
    photosDone: Number(done),
    photosTotal: Number(total),
  };
}

/** Files under a folder, counted (what a stopped import must not leave in storage). */
function filesUnder(folder: string): number {
  if (!fs.existsSync(folder)) return 0;
  return fs.readdirSync(folder, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
}

function settleDisk(file: string): void {
  fs.rmSync(file, { force: true });
  spawnSync("sync");
}

async function benchDirection(
  sourceEngine: Engine,
  images: BenchImage[],
): Promise<{ results: SizeResult[]; conditions: RunConditions }> {
  const conditions = new RunConditions("bench process (files, probe)");
  const source = await instance(sourceEngine);
  const targetEngine = otherEngine[sourceEngine];
  const results: SizeResult[] = [];
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "memory-box-bench-archive-out-"));
  const photoFileOf: PhotoFileOf = (index) => {
    const image = images[index % images.length]!;
    return { bytes: image.jpeg.length, width: image.width, height: image.height, placeholder: image.placeholder };
  };
  try {
    const { server: sourceServer, userIds } = await withMembers(source);
    await sourceServer.stop();
    const written = new Set<string>();
    let seeded = 0;
    for (const size of sizes) {
      const label = size.toLocaleString("en");
      const seedStarted = performance.now();
      const phases = await source.grow(seeded, size, userIds, photoFileOf);
      seeded = size;
      const seed = { ...phases, seconds: round((performance.now() - seedStarted) / 1000, 1) };
      const files = await writePhotoFiles(source, images, written);
      const counts = await source.counts();
      console.log(
        `${sourceEngine}: ${label} memories (${JSON.stringify(seed)}), ${files.files} files written in ${files.seconds} s`,
      );

      const tarFile = path.join(out, "storage.tar");
      settleDisk(tarFile);
      const tarPid: { pid?: number } = {};
      const tar = await conditions.measure(`${label}: tar of the photo files`, [processWatched("tar", tarPid)], () =>
        runTimed("tar", ["-cf", tarFile, "-C", source.dataDir, "storage"], {}, tarPid),
      );
      const tarBytes = fs.statSync(tarFile).size;
      fs.rmSync(tarFile);

      const zip = path.join(out, "archive.zip");
      settleDisk(zip);
      const exportPid: { pid?: number } = {};
      const exportWatched = [processWatched("Export (CLI)", exportPid)];
      if (sourceEngine === "postgres") exportWatched.push(watchCommand("PostgreSQL", "postgres"));
      const exportRun = await conditions.measure(`${label}: export (${engineName[sourceEngine]})`, exportWatched, () =>
        runTimed("node", ["apps/server/dist/cli.js", "export", zip], source.env, exportPid),
      );
      const zipBytes = fs.statSync(zip).size;
      const reader = await ZipReader.open(zip, { maxEntries: Number.MAX_SAFE_INTEGER });
      const zipEntries = reader.entries().length;
      const manifestBytes = reader.entry("memory-box.json")!.size;
      reader.close();
      console.log(`${sourceEngine}: tar ${round(tar.seconds, 1)} s, export ${round(exportRun.seconds, 1)} s`);

      const target = await instance(targetEngine);
      try {
        const { server } = await withMembers(target);
        try {
          await waitUntilIdle(server.pid);
          const client = new HttpClient(server.url, 1);
          const session = await client.json<{ access_token: string }>("POST", "/auth/v1/token?grant_type=password", authHeaders, {
            email: emails[0],
            password,
          });
          const importPid: { pid?: number } = {};
          const watched: Watched[] = [processWatched("Import (CLI)", importPid), watchPid("Server process", server.pid)];
          if (targetEngine === "postgres") watched.push(watchCommand("PostgreSQL", "postgres"));
          let probed: ProbeResult | undefined;
          const importRun = await conditions.measure(`${label}: import (${engineName[targetEngine]})`, watched, () =>
            runTimed(
              "node",
              ["apps/server/dist/cli.js", "import", zip],
              target.env,
              importPid,
              async (done) => {
                probed = await probe(server, session.access_token, done);
              },
              size === largest ? importLimitSeconds : undefined,
            ),
          );
          const imported = await target.counts();
          const storedFiles = filesUnder(path.join(target.dataDir, "storage", "objects"));
          const page = await client.json<{ total: number }>("GET", lifetimeProbePaths[0]!, {
            authorization: `Bearer ${session.access_token}`,
          });
          client.close();
          results.push({
            counts,
            seed,
            files,
            tarSeconds: round(tar.seconds, 2),
            tarBytes,
            exportRun,
            zipBytes,
            zipEntries,
            manifestBytes,
            importRun,
            phases: importPhases(importRun),
            probe: probed!,
            imported,
            storedFiles,
            listTotal: page.total,
          });
          console.log(
            `${sourceEngine} → ${targetEngine}: import ${round(importRun.seconds, 1)} s, probe ${JSON.stringify(probed)}`,
          );
        } finally {
          await server.stop();
        }
      } finally {
        await target.close();
        fs.rmSync(zip, { force: true });
      }
    }
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
    await source.close();
  }
  return { results, conditions };
}

/** A process the bench starts, watched while it runs. */
function processWatched(name: string, current: { pid?: number | undefined }): Watched {
  return { name, pids: () => (current.pid === undefined ? [] : [current.pid]) };
}

// ---------------------------------------------------------------------------------------------
// The section.

/** What the first runs found and what was changed (kept by hand: the figures above are the last run's). */
const whereItStands = `Where it stands (2026-11-28): the first trials (10,000 and 50,000 memories, the machine busy with another benchmark) found that the import saved each memory with statements of its own, and on PostgreSQL each statement's counter trigger updated \`memory_stats\` again in the one transaction (saving took 84 s for 10,000 memories, ×16 from 1,000); that it stored photos one after another, each file synced while the CPU waited; that our own archive of a million memories could not have been imported (about 1.5 million files and a 500 MB manifest, against limits of 1,000,000 and 512 MB, and a kilobyte held for every file of the ZIP); and that the export's memory grew with the collection (1.4 GB at 50,000 memories: each entry's name, kept for the ZIP's directory, held a shared 64 KiB buffer slab alive) and a fifth of its time went to making a date format for each page. Since (ADR 0080): rows are saved many a statement (the same 10,000 in 7 s), photos four at a time, below the server's CPU priority, a lifetime's archive is within the limits and only the manifest and photo entries are kept from its directory, Ctrl-C stops an import and removes what it stored; the export keeps names as text (313 MB at 50,000), gathers small writes, deflates pages in one call and makes its formats once (10,000 memories in 6 s instead of 11). Still: the import's photos phase decodes every photo and makes its renditions again, as an upload does (ADR 0028: two WebP encodes and a JPEG each), which bounds it to the CPU's pace for images (a few dozen to a few hundred small photos a second here, a few camera photos a second), so an import of 300,000 photos takes hours and is stopped here; and the export writes a page for every memory besides copying its photos, so against \`tar\` of small photo files it is many times slower (on 2 GB of camera-sized photos, section "Export", it is within 1.5 ×). Since (2026-11-29, ADR 0083): the export command reads and writes with blocking calls (a third of its time had been threads handing work to libuv's pool and waking back), opens photos four ahead, formats compiled messages and deflates pages in a window fitted to them: 332.6 s → 207.4 s at 1,000,000 (20 × → 7.6 × \`tar\`, about 180 µs a memory for its pages, year books and manifest). The target is judged on photos that are photos (section "Export"); here the ratio is reported. The server's slowest answers during an import are listed by the import phase they were due in, to find what holds them.`;

const n = (value: number) => value.toLocaleString("en");
const mb = (bytes: number) => `${n(round(bytes / 1024 / 1024, 0))} MB`;
const growth = (a: number, b: number) => (a > 0 ? `× ${round(b / a, 1)}` : "—");

function section(sourceEngine: Engine, results: SizeResult[], conditions: RunConditions, images: BenchImage[]): string {
  const targetEngine = otherEngine[sourceEngine];
  const [small, large] = results as [SizeResult, SizeResult];
  // A whole import holds what was exported; a stopped one holds nothing, not even a file.
  const checked = (r: SizeResult) =>
    r.importRun.stopped
      ? r.imported.memories === 0 && r.imported.photos === 0 && r.imported.tags === 0 && r.storedFiles === 0
      : r.imported.memories === r.counts.memories &&
        r.imported.photos === r.counts.photos &&
        r.imported.tags === r.counts.tags &&
        r.listTotal === r.counts.memories;
  const exportRatio = (r: SizeResult) => r.exportRun.seconds / r.tarSeconds;
  const probeCell = (p: LoadResult) =>
    `${p.p50} / ${p.p95} / ${p.p99} / **${p.max}** (${n(p.requests)}${p.errors ? `, ${p.errors} errors` : ""})`;
  const row = (name: string, a: string, b: string, change: string, target = "—", verdict = "—") =>
    `| ${name} | ${a} | ${b} | ${change} | ${target} | ${verdict} |`;
  const seconds = (value: number) => `${round(value, 1)} s`;
  const cut = (r: SizeResult, phase: keyof ImportPhases) => {
    const order: (keyof ImportPhases)[] = ["opening", "checking", "photos", "saving"];
    const reached = order.filter((name) => r.phases[name] > 0 || name === "opening");
    return r.importRun.stopped && reached.at(-1) === phase ? " (stopped)" : "";
  };
  const phaseCell = (r: SizeResult, key: keyof ImportPhases) =>
    r.importRun.stopped && r.phases[key] === 0 && key !== "opening" ? "not reached" : `${seconds(r.phases[key])}${cut(r, key)}`;
  const phaseRow = (name: string, key: keyof ImportPhases) =>
    row(
      `… ${name}`,
      phaseCell(small, key),
      phaseCell(large, key),
      small.importRun.stopped || large.importRun.stopped ? "—" : growth(small.phases[key], large.phases[key]),
    );
  const importCell = (r: SizeResult) =>
    r.importRun.stopped
      ? `stopped after ${seconds(r.importRun.seconds)}, photos ${n(r.phases.photosDone)} of ${n(r.phases.photosTotal)}`
      : seconds(r.importRun.seconds);
  /** Photos a second in the photos phase, and what the whole phase takes at that pace. */
  const photoPace = (r: SizeResult) => {
    const perSecond = r.phases.photosDone / r.phases.photos;
    return `${round(perSecond, 1)} a second${r.importRun.stopped ? `: all ${n(r.phases.photosTotal)} in ${round(r.phases.photosTotal / perSecond / 60, 0)} min` : ""}`;
  };
  const importedCell = (r: SizeResult) =>
    r.importRun.stopped
      ? `${n(r.imported.memories)} / ${n(r.imported.photos)} / ${n(r.imported.tags)}, ${n(r.storedFiles)} files (stopped: nothing kept)`
      : `${n(r.imported.memories)} / ${n(r.imported.photos)} / ${n(r.imported.tags)} (${n(r.listTotal)})`;
  const imageBytes = images.map((image) => image.jpeg.length);
  const rows = [
    row(
      "Collection (memories / photos / tags)",
      `${n(small.counts.memories)} / ${n(small.counts.photos)} / ${n(small.counts.tags)}`,
      `${n(large.counts.memories)} / ${n(large.counts.photos)} / ${n(large.counts.tags)}`,
      growth(small.counts.memories, large.counts.memories),
    ),
    row(
      "Photo files (originals and leading thumbnails)",
      `${n(small.files.files)} (${mb(small.files.bytes)})`,
      `${n(small.files.files + large.files.files)} (${mb(small.files.bytes + large.files.bytes)})`,
      growth(small.files.files, small.files.files + large.files.files),
    ),
    row(
      "`tar` of the same files",
      seconds(small.tarSeconds),
      seconds(large.tarSeconds),
      growth(small.tarSeconds, large.tarSeconds),
    ),
    row(
      "`npm run export` (÷ `tar`)",
      `${seconds(small.exportRun.seconds)} (${round(exportRatio(small), 1)} ×)`,
      `${seconds(large.exportRun.seconds)} (${round(exportRatio(large), 1)} ×)`,
      growth(small.exportRun.seconds, large.exportRun.seconds),
      `≤ ${exportTargetRatio} × tar`,
      exportRatio(large) <= exportTargetRatio ? "pass" : "**FAIL**",
    ),
    row(
      "Archive (÷ `tar`'s size)",
      `${mb(small.zipBytes)} (${round(small.zipBytes / small.tarBytes, 2)} ×)`,
      `${mb(large.zipBytes)} (${round(large.zipBytes / large.tarBytes, 2)} ×)`,
      growth(small.zipBytes, large.zipBytes),
    ),
    row(
      "Archive's files (entries) / its manifest, `memory-box.json`",
      `${n(small.zipEntries)} / ${mb(small.manifestBytes)}`,
      `${n(large.zipEntries)} / ${mb(large.manifestBytes)}`,
      growth(small.manifestBytes, large.manifestBytes),
    ),
    row(
      "Export's peak resident memory",
      mb(small.exportRun.peakRssMb * 1024 * 1024),
      mb(large.exportRun.peakRssMb * 1024 * 1024),
      growth(small.exportRun.peakRssMb, large.exportRun.peakRssMb),
    ),
    row(
      `\`npm run import\` into ${engineName[targetEngine]}`,
      importCell(small),
      importCell(large),
      small.importRun.stopped || large.importRun.stopped ? "—" : growth(small.importRun.seconds, large.importRun.seconds),
      "reported",
    ),
    phaseRow("opening the ZIP and reading its manifest", "opening"),
    phaseRow("checking every memory, ids already here", "checking"),
    phaseRow("photos: each decoded and stored as an upload is", "photos"),
    row("… pace of the photos phase", photoPace(small), photoPace(large), "—"),
    phaseRow("saving the rows (one transaction)", "saving"),
    row(
      "Import's peak resident memory",
      mb(small.importRun.peakRssMb * 1024 * 1024),
      mb(large.importRun.peakRssMb * 1024 * 1024),
      growth(small.importRun.peakRssMb, large.importRun.peakRssMb),
    ),
    row(
      "The server meanwhile: p50 / p95 / p99 / **max** ms (answered)",
      probeCell(small.probe),
      probeCell(large.probe),
      growth(small.probe.max, large.probe.max),
      `≤ ${probeTargetMs} ms`,
      [small, large].every((r) => r.probe.max <= probeTargetMs && r.probe.errors === 0) ? "pass" : "**FAIL**",
    ),
    row(
      `… answers over ${probeTargetMs} ms, by the import's phase they were due in`,
      slowAnswersCell(small),
      slowAnswersCell(large),
      "—",
    ),
    row(
      "Imported: memories / photos / tags (and the list's total)",
      importedCell(small),
      importedCell(large),
      "—",
      "as exported (a stopped import: nothing)",
      checked(small) && checked(large) ? "pass" : "**FAIL**",
    ),
  ];
  return `${machineLine()}
The collection of bench/lifetime-seed.ts (as in "Lifetime collection") on ${engineName[sourceEngine]} and local disk: ${n(small.counts.memories)} memories, then grown to ${n(large.counts.memories)} in the same run (seeding took ${small.seed.seconds} s and ${large.seed.seconds} s more). Behind every photo row a real JPEG: ${images.length} distinct images of ${imageWidth} × ${imageHeight} (${imageBytes.map((bytes) => round(bytes / 1024, 1)).join(", ")} KB), each written under each row's own key, and for every memory's first photo the thumbnail its year page shows (what the archive carries besides the originals). \`tar -cf\` of that storage folder and \`npm run export\` (the production bundle's CLI, no server running) write to the same disk, each after \`sync\`, the files in the page cache (just written) for both; one run each. The archive is then imported with \`npm run import\` into an empty instance on ${engineName[targetEngine]} (its two members signed up with the same addresses), while that instance's server answers a member's requests: ${probeRate} a second (an open loop: latency from when each was due), the first page, the most common tag, the timeline and On this day in turn. The import of ${n(large.counts.memories)} is given ${round(importLimitSeconds / 60, 0)} min: still running then, it is stopped with Ctrl-C (SIGINT), as an operator would, and reported with its pace (the bench's bound: each engine's run stays under about 25 minutes on this machine). Import phases are read from the command's progress lines. After each import the bench counts the new instance's memories, photos and tags against the old one's and asks its server for the list's total; after a stopped one, that the instance holds no memory, photo, tag or stored file.

| Measure | ${n(small.counts.memories)} | ${n(large.counts.memories)} | Growth | Target | Verdict |
|---|---|---|---|---|---|
${rows.join("\n")}

${whereItStands}

${conditions.markdown()}`;
}

async function main(): Promise<void> {
  const engines: Engine[] = engineChoice === "both" ? ["sqlite", "postgres"] : [engineChoice as Engine];
  if (!engines.every((engine) => engine === "sqlite" || engine === "postgres"))
    throw new Error("BENCH_ENGINE must be sqlite, postgres or both");
  const images = await makeImages();
  if (new Set(images.map((image) => image.jpeg.length)).size !== images.length)
    throw new Error("two bench images are the same size");
  for (const engine of engines) {
    const started = performance.now();
    const { results, conditions } = await benchDirection(engine, images);
    const markdown = section(engine, results, conditions, images);
    console.log(`${engine} → ${otherEngine[engine]}: ${round((performance.now() - started) / 60_000, 1)} min`);
    if (quick) console.log(markdown);
    else writeResults(`Lifetime archive (${engineName[engine]} → ${engineName[otherEngine[engine]]})`, markdown);
  }
}

await main();
