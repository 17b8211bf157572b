// Export benchmark (issue #15): the members' archive of a collection with BENCH_EXPORT_MB of photo
// originals, downloaded (by curl) through "Download everything" from the production server while
// its resident memory is sampled, and written by `export` on the command line; each against `tar`
// of the same storage folder in the same run (the disk's own pace). Photos are incompressible
// bytes placed straight in storage, as the export copies them without decoding.
//
//   BENCH_EXPORT_MB     megabytes of photo originals (default 2048)
//   BENCH_EXPORT_RUNS   timed runs of each (default 3; the median is reported)
//   BENCH_EXPORT_PHOTOS_PER_MEMORY  photos a memory (default 4; 0.3 is the lifetime collection's
//                       density, most memories without a photo, each a page of the archive all the same)
//   BENCH_RESULTS_FILE  write the section there instead of bench/RESULTS.md (trial runs)
import { randomBytes, randomUUID } from "node:crypto";
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { cli, machineLine, root, round, startServer, writeResults } from "./lib";

const totalMb = Number(process.env.BENCH_EXPORT_MB ?? 2048);
const runs = Number(process.env.BENCH_EXPORT_RUNS ?? 3);
const photoMb = 4;
const photosPerMemory = Number(process.env.BENCH_EXPORT_PHOTOS_PER_MEMORY ?? 4);
const password = "correct horse battery staple";

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Memories with photos whose originals are random bytes, written straight into the server's database and storage. */
function seed(dataDir: string): { photos: number; memories: number; bytes: number } {
  const db = new SQLite(path.join(dataDir, "memory-box.sqlite"));
  const storage = path.join(dataDir, "storage", "objects", "memory-photos", "bench");
  fs.mkdirSync(storage, { recursive: true });
  const photos = Math.max(1, Math.round(totalMb / photoMb));
  const insertMemory = db.prepare(
    `insert into memories (id, title, content, memory_date, user_id, updated_by, created_at, updated_at, version, sort_key, search_text)
     values (?, ?, ?, ?, null, null, ?, ?, 1, ?, ?)`,
  );
  const insertPhoto = db.prepare(
    `insert into photos (id, memory_id, position, owner_id, object_key, preview_key, thumbnail_key, display_key, content_type, bytes, width, height, taken_at, placeholder, created_at)
     values (?, ?, ?, null, ?, ?, ?, ?, 'image/jpeg', ?, 4000, 3000, null, '', ?)`,
  );
  const now = new Date().toISOString();
  // The memories first, over 25 years (a year book each), then the photos spread among them in order.
  const memories = Math.max(1, Math.round(photos / photosPerMemory));
  const memoryIds = Array.from({ length: memories }, (_, index) => {
    const id = randomUUID();
    const title = `Bench memory ${index}`;
    const date = `${2000 + (index % 25)}-06-01`;
    insertMemory.run(id, title, "A day out.", date, now, now, `${date}|${now}|${id}`, title.toLowerCase());
    return id;
  });
  const placed = new Map<string, number>();
  for (let i = 0; i < photos; i++) {
    const memoryId = memoryIds[Math.floor((i * memories) / photos)]!;
    const position = placed.get(memoryId) ?? 0;
    placed.set(memoryId, position + 1);
    const key = `bench/${Date.now()}-${randomBytes(6).toString("hex")}.jpg`;
    fs.writeFileSync(path.join(dataDir, "storage", "objects", "memory-photos", key), randomBytes(photoMb * 1024 * 1024));
    // The leading photo's thumbnail, which the archive's year pages show (ADR 0070).
    if (position === 0)
      fs.writeFileSync(path.join(dataDir, "storage", "objects", "memory-photos", `${key}.t`), randomBytes(24 * 1024));
    insertPhoto.run(randomUUID(), memoryId, position, key, `${key}.p`, `${key}.t`, `${key}.d`, photoMb * 1024 * 1024, now);
  }
  db.close();
  return { photos, memories, bytes: photos * photoMb * 1024 * 1024 };
}

/**
 * Each run writes a new file, as an export to a new name does, after what earlier runs left dirty
 * in the page cache is written out. Otherwise a run pays for another's writeback, and replacing a
 * 2 GB file makes ext4 write the new one out at once (its protection against a replaced file
 * losing its data in a crash), which no fresh export pays.
 */
function settleDisk(output: string): void {
  fs.rmSync(output, { force: true });
  spawnSync("sync");
}

function timed(output: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env): number {
  settleDisk(output);
  const started = performance.now();
  const result = spawnSync(command, args, { cwd: root, env, stdio: ["ignore", "ignore", "inherit"] });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed`);
  return performance.now() - started;
}

async function main(): Promise<void> {
  const server = await startServer({ AUTH_AUTOCONFIRM: "true", AUTH_INVITE_ONLY: "false", AUTH_RATE_LIMITS: "false" });
  const out = fs.mkdtempSync(path.join(server.dataDir, "..", "memory-box-export-out-"));
  try {
    const { photos, memories, bytes } = seed(server.dataDir);
    const email = "bench-export@memory-box.test";
    cli(server, ["invite", email]);
    const session = (await (
      await fetch(`${server.url}/auth/v1/signup`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-supabase-api-version": "2024-01-01" },
        body: JSON.stringify({ email, password }),
      })
    ).json()) as { access_token: string };

    const tarFile = path.join(out, "storage.tar");
    const zipFile = path.join(out, "download.zip");
    const cliFile = path.join(out, "cli.zip");
    const tarMs: number[] = [];
    const downloadMs: number[] = [];
    const cliMs: number[] = [];
    let baselineRss = server.rssMb();
    let peakRss = baselineRss;
    // A first pass of each warms the page cache, so every timed run reads the photos from memory alike.
    for (let run = 0; run <= runs; run++) {
      const tar = timed(tarFile, "tar", ["-cf", tarFile, "-C", server.dataDir, "storage"]);

      baselineRss = server.rssMb();
      settleDisk(zipFile);
      const sampler = setInterval(() => (peakRss = Math.max(peakRss, server.rssMb())), 100);
      const started = performance.now();
      const link = (await (
        await fetch(`${server.url}/api/v1/account/export`, {
          method: "POST",
          headers: { authorization: `Bearer ${session.access_token}` },
        })
      ).json()) as { url: string };
      // Downloaded by curl, as a browser does it (natively): Node's fetch and web streams cost more
      // than the server's side, and would be measured instead of it.
      const curl = spawn("curl", ["--fail", "--silent", "--output", zipFile, `${server.url}${link.url}`], { stdio: "ignore" });
      const [exitCode] = (await once(curl, "exit")) as [number | null];
      if (exitCode !== 0) throw new Error(`the download failed (curl exit ${exitCode})`);
      const download = performance.now() - started;
      clearInterval(sampler);

      const command = timed(cliFile, "node", ["apps/server/dist/cli.js", "export", cliFile], { ...process.env, ...server.env });
      if (run > 0) {
        tarMs.push(tar);
        downloadMs.push(download);
        cliMs.push(command);
      }
    }
    const zipMb = fs.statSync(zipFile).size / 1024 / 1024;
    const tarTime = median(tarMs);
    const runsOf = (values: number[]) => `runs ${values.map((ms) => round(ms / 1000)).join(", ")}`;
    const rows = [
      `| \`tar\` of the storage folder (the disk's pace) | ${round(tarTime / 1000)} s (${runsOf(tarMs)}) | — | — |`,
      `| "Download everything" through the server | ${round(median(downloadMs) / 1000)} s (${runsOf(downloadMs)}) | ${round(median(downloadMs) / tarTime)} × | ${median(downloadMs) / tarTime <= 1.5 ? "pass" : "FAIL"} (≤ 1.5 ×) |`,
      `| \`npm run export\` | ${round(median(cliMs) / 1000)} s (${runsOf(cliMs)}) | ${round(median(cliMs) / tarTime)} × | ${median(cliMs) / tarTime <= 1.5 ? "pass" : "FAIL"} (≤ 1.5 ×) |`,
      `| Server resident memory while downloading: growth over its level before | ${round(peakRss - baselineRss)} MB (${round(baselineRss)} → ${round(peakRss)} MB) | — | ${peakRss - baselineRss < 100 ? "pass" : "FAIL"} (< 100 MB) |`,
    ];
    writeResults(
      "Export",
      [
        machineLine(),
        `${photos} photo originals of ${photoMb} MB (${round(bytes / 1024 / 1024 / 1024)} GB, incompressible) in ${memories.toLocaleString("en")} memories (${photosPerMemory} a memory) on SQLite and local disk; archive ${round(zipMb)} MB. Median of ${runs} runs after a warm-up of each, the page cache warm for all three; each run writes a new file after \`sync\`, so none pays for another's writeback.`,
        "",
        "| Run | Time | ÷ tar | |",
        "|---|---|---|---|",
        ...rows,
      ].join("\n"),
    );
    console.log(rows.join("\n"));
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
    await server.stop();
  }
}

await main();
