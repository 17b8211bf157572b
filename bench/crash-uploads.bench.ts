// Crash benchmark: the server killed with SIGKILL in the middle of concurrent photo uploads, again
// and again, then one reconcile pass with a zero grace period (ADR 0016). Counts what the crashes
// left in DATA_DIR before that pass and after it, and checks every memory and photo the server had
// confirmed is still whole: its row, its four files, and its photo served and decoding.
//
//   BENCH_ENGINE          sqlite | postgres | both (default both)
//   BENCH_POSTGRES_URL    where to create the scratch database (default postgres://postgres@127.0.0.1:5432/test)
//   BENCH_CRASH_ROUNDS    crashes (default 20)
//   BENCH_CRASH_UPLOADS   concurrent uploads a crash interrupts (default 20)
import type { Engine } from "../apps/server/src/db/database";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import pg from "pg";
import sharp from "sharp";
import { machineLine, root, round, scratchPostgresDatabase, startServer, type RunningServer, writeResults } from "./lib";

const engineName: Record<Engine, string> = { sqlite: "SQLite", postgres: "PostgreSQL" };
const rounds = Number(process.env.BENCH_CRASH_ROUNDS ?? 20);
const concurrentUploads = Number(process.env.BENCH_CRASH_UPLOADS ?? 20);
const adminUrl = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const password = "correct horse battery staple";
const fileColumns = ["object_key", "preview_key", "thumbnail_key", "display_key"] as const;

interface Leftovers {
  tempFiles: number;
  tempBytes: number;
  orphanFiles: number;
  orphanBytes: number;
  photoFiles: number;
}

interface EngineResult {
  engine: Engine;
  uploadsStarted: number;
  uploadsConfirmed: number;
  memoriesConfirmed: number;
  before: Leftovers;
  after: Leftovers;
  intactMemories: number;
  intactPhotos: number;
  seconds: number;
}

/** A 2000 × 1500 photo-like JPEG: long enough to decode that a crash lands mid-upload. */
function photoJpeg(): Promise<Buffer> {
  return sharp({
    create: { width: 2000, height: 1500, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 40 } },
  })
    .blur(1.2)
    .jpeg({ quality: 88 })
    .toBuffer();
}

function filesUnder(dir: string): Array<{ path: string; size: number }> {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return { path: file, size: fs.statSync(file).size };
    });
}

async function referencedKeys(engine: Engine, database: string): Promise<Set<string>> {
  const query = `select ${fileColumns.join(", ")} from photos`;
  let rows: Array<Record<string, string | null>>;
  if (engine === "sqlite") {
    const db = new SQLite(database, { readonly: true });
    rows = db.prepare(query).all() as Array<Record<string, string | null>>;
    db.close();
  } else {
    const client = new pg.Client({ connectionString: database });
    await client.connect();
    rows = (await client.query<Record<string, string | null>>(query)).rows;
    await client.end();
  }
  return new Set(rows.flatMap((row) => fileColumns.flatMap((column) => (row[column] ? [row[column]] : []))));
}

async function leftovers(engine: Engine, database: string, dataDir: string): Promise<Leftovers> {
  const temp = [...filesUnder(path.join(dataDir, "uploads")), ...filesUnder(path.join(dataDir, "storage", ".tmp"))];
  const photosDir = path.join(dataDir, "storage", "objects", "memory-photos");
  const photos = filesUnder(photosDir);
  const referenced = await referencedKeys(engine, database);
  const orphans = photos.filter((file) => !referenced.has(path.relative(photosDir, file.path).split(path.sep).join("/")));
  const bytes = (files: Array<{ size: number }>) => files.reduce((sum, file) => sum + file.size, 0);
  return {
    tempFiles: temp.length,
    tempBytes: bytes(temp),
    orphanFiles: orphans.length,
    orphanBytes: bytes(orphans),
    photoFiles: photos.length,
  };
}

async function benchEngine(engine: Engine, jpeg: Buffer): Promise<EngineResult> {
  const started = performance.now();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "memory-box-bench-crash-"));
  const postgres = engine === "postgres" ? await scratchPostgresDatabase(adminUrl) : undefined;
  const database = postgres?.url ?? path.join(dataDir, "memory-box.sqlite");
  const env = {
    AUTH_AUTOCONFIRM: "true",
    AUTH_INVITE_ONLY: "false",
    AUTH_RATE_LIMITS: "false",
    DATA_DIR: dataDir,
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
  };
  try {
    let server: RunningServer = await startServer(env);
    const credentials = JSON.stringify({ email: "crash@memory-box.test", password });
    const authHeaders = { "content-type": "application/json", "x-supabase-api-version": "2024-01-01" };
    await fetch(`${server.url}/auth/v1/signup`, { method: "POST", headers: authHeaders, body: credentials });
    // Each start listens on another port, which is the tokens' issuer: sign in again after each.
    const signIn = async () => {
      const response = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
        method: "POST",
        headers: authHeaders,
        body: credentials,
      });
      if (response.status !== 200) throw new Error(`sign-in: ${response.status} ${await response.text()}`);
      return { authorization: `Bearer ${((await response.json()) as { access_token: string }).access_token}` };
    };
    let auth = await signIn();
    const confirmedPhotos: string[] = [];
    const memories: Array<{ id: string; photoIds: string[] }> = [];
    let uploadsStarted = 0;
    let waiting: string[] = [];

    for (let round = 0; round < rounds; round += 1) {
      if (round > 0) {
        server = await startServer(env);
        auth = await signIn();
      }
      // What the last round confirmed becomes a memory, so crashes also meet attached photos.
      if (waiting.length > 0) {
        const created = await fetch(`${server.url}/api/v1/memories`, {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify({ title: `Round ${round}`, photo_ids: waiting }),
        });
        if (created.status !== 201) throw new Error(`memory: ${created.status} ${await created.text()}`);
        memories.push({ id: ((await created.json()) as { id: string }).id, photoIds: waiting });
        waiting = [];
      }
      const uploads = Array.from({ length: concurrentUploads }, async () => {
        uploadsStarted += 1;
        const form = new FormData();
        form.append("file", new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" }), "photo.jpg");
        // A connection the crash cut is no confirmation; it must not end the benchmark either.
        const response = await fetch(`${server.url}/api/v1/photos`, { method: "POST", headers: auth, body: form }).catch(
          () => undefined,
        );
        if (response?.status !== 201) return undefined;
        return ((await response.json()) as { id: string }).id;
      });
      // Somewhere between the first photo being stored and the last (a fresh process stores its
      // first after ~2.5 s here, the twentieth after ~7 s).
      await new Promise((resolve) => setTimeout(resolve, 2000 + Math.random() * 5000));
      await server.crash();
      for (const id of await Promise.all(uploads)) if (id) waiting.push(id);
      confirmedPhotos.push(...waiting);
    }

    const before = await leftovers(engine, database, dataDir);
    const reconcile = spawnSync("node", ["apps/server/dist/cli.js", "reconcile", "--grace-hours", "0"], {
      cwd: root,
      env: { ...process.env, ...env, LOG_LEVEL: "warn" },
      encoding: "utf8",
    });
    if (reconcile.status !== 0) throw new Error(`reconcile failed: ${reconcile.stderr}`);
    const after = await leftovers(engine, database, dataDir);

    // Every confirmed memory and photo, through the API: rows, files, and bytes that decode.
    server = await startServer(env);
    auth = await signIn();
    let intactMemories = 0;
    let intactPhotos = 0;
    for (const memory of memories) {
      const response = await fetch(`${server.url}/api/v1/memories/${memory.id}`, { headers: auth });
      const body = (await response.json()) as { photos: Array<{ id: string; url: string; thumbnail_url: string }> };
      const ids = body.photos.map((photo) => photo.id);
      if (response.status === 200 && memory.photoIds.every((id) => ids.includes(id))) intactMemories += 1;
      for (const photo of body.photos) {
        const served = await Promise.all(
          [photo.url, photo.thumbnail_url].map(async (url) => {
            const image = await fetch(`${server.url}${url}`, { headers: auth });
            return image.status === 200 && (await sharp(Buffer.from(await image.arrayBuffer())).metadata()).width > 0;
          }),
        );
        if (served.every(Boolean)) intactPhotos += 1;
      }
    }
    const unattached = confirmedPhotos.length - memories.reduce((sum, memory) => sum + memory.photoIds.length, 0);
    const referenced = await referencedKeys(engine, database);
    const stored = new Set(
      filesUnder(path.join(dataDir, "storage", "objects", "memory-photos")).map((file) =>
        path
          .relative(path.join(dataDir, "storage", "objects", "memory-photos"), file.path)
          .split(path.sep)
          .join("/"),
      ),
    );
    const rowsWhole = [...referenced].every((key) => stored.has(key));
    await server.stop();
    if (!rowsWhole) throw new Error("a photo row names a file that is gone");
    console.log({ engine, unattached, before, after, intactMemories, intactPhotos });
    return {
      engine,
      uploadsStarted,
      uploadsConfirmed: confirmedPhotos.length,
      memoriesConfirmed: memories.length,
      before,
      after,
      intactMemories,
      intactPhotos,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await postgres?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const choice = process.env.BENCH_ENGINE ?? "both";
  const engines: Engine[] = choice === "both" ? ["sqlite", "postgres"] : [choice as Engine];
  if (!engines.every((engine) => engine === "sqlite" || engine === "postgres"))
    throw new Error("BENCH_ENGINE must be sqlite, postgres or both");
  const jpeg = await photoJpeg();
  const results: EngineResult[] = [];
  for (const engine of engines) results.push(await benchEngine(engine, jpeg));

  const mb = (bytes: number) => round(bytes / 2 ** 20, 1);
  const rows = results.map((result) => {
    const clean = result.after.tempFiles === 0 && result.after.orphanFiles === 0;
    const whole = result.intactMemories === result.memoriesConfirmed;
    return `| ${engineName[result.engine]} | ${result.uploadsStarted} started, ${result.uploadsConfirmed} confirmed | ${result.before.tempFiles} (${mb(result.before.tempBytes)} MB) | ${result.before.orphanFiles} (${mb(result.before.orphanBytes)} MB) | ${result.after.tempFiles} | ${result.after.orphanFiles} | ${result.intactMemories} of ${result.memoriesConfirmed} memories, ${result.intactPhotos} photos served and decoding | ${round(result.seconds, 0)} s | ${clean && whole ? "pass" : "**FAIL**"} |`;
  });
  writeResults(
    "Crashes during uploads",
    `${machineLine()}
The production server on a fresh DATA_DIR, killed with SIGKILL ${rounds} times, each time between 2 and 7 s after ${concurrentUploads} concurrent uploads of a 2000 × 1500 JPEG (${mb(jpeg.length)} MB) began; after each restart the photos the last round confirmed (201) become a memory. Then one \`npm run reconcile -- --grace-hours 0\` with the server stopped, and every confirmed memory is read back through the API with its photos' display copies and thumbnails fetched and decoded. Every photo row is checked to name only files that exist.

| Engine | Uploads | Temporary files before the pass | Files no photo names before the pass | Temporary files after | Files no photo names after | Confirmed and whole | Time | |
|---|---|---|---|---|---|---|---|---|
${rows.join("\n")}

The start-ups between rounds already remove the temporary files of the process that crashed (ADR 0016), so "before the pass" shows what the last crash left plus the files no row names, which only the reconciler removes.`,
  );
}

await main();
