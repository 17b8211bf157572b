// Photo ingest benchmark (SQLite): time per 12-megapixel JPEG through `POST /api/v1/photos`
// against what sharp alone takes for the same three renditions in this process, in the same run;
// and the server's peak memory while 20 uploads run at once.
//
//   BENCH_PHOTO_SHARP_RUNS   sharp-alone runs, median taken (default 7, at least 5)
//   BENCH_PHOTO_UPLOADS      sequential uploads, median taken (default 10, at least 10)
//   BENCH_PHOTO_CONCURRENT   uploads at once for the memory run (default 20)
import sharp from "sharp";
import { HttpClient } from "./http";
import { cli, machineLine, round, RunConditions, startServer, watchPid, writeResults } from "./lib";

const sharpRuns = Math.max(5, Number(process.env.BENCH_PHOTO_SHARP_RUNS ?? 7));
const sequentialUploads = Math.max(10, Number(process.env.BENCH_PHOTO_UPLOADS ?? 10));
const concurrentUploads = Number(process.env.BENCH_PHOTO_CONCURRENT ?? 20);
const rssSampleMs = 50;
const password = "correct horse battery staple";
const email = "photographer@memory-box.test";
const authHeaders = { "x-supabase-api-version": "2024-01-01" };
const fitInside = (size: number) => ({ width: size, height: size, fit: "inside" as const, withoutEnlargement: true });

/** A 4000 × 3000 JPEG with photo-like noise: no large flat areas for the encoders to skip. */
function photoLikeJpeg(): Promise<Buffer> {
  return sharp({
    create: { width: 4000, height: 3000, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 40 } },
  })
    .blur(1.5)
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** The three renditions the server stores, made by sharp directly from the JPEG, one after the other. */
async function sharpAlone(jpeg: Buffer): Promise<number> {
  const started = performance.now();
  await sharp(jpeg).rotate().resize(fitInside(1600)).webp({ quality: 80, effort: 2 }).toBuffer();
  await sharp(jpeg).rotate().resize(fitInside(400)).webp({ quality: 70, effort: 2 }).toBuffer();
  await sharp(jpeg).rotate().keepIccProfile().jpeg({ quality: 90 }).toBuffer();
  return performance.now() - started;
}

function multipart(jpeg: Buffer): { body: Buffer; contentType: string } {
  const boundary = `----memory-box-bench-${Date.now().toString(16)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { body: Buffer.concat([head, jpeg, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function main(): Promise<void> {
  const jpeg = await photoLikeJpeg();
  const { width, height } = await sharp(jpeg).metadata();

  // sharp alone, in this process, before the server starts: one warm-up, then the runs.
  const conditions = new RunConditions("uploading client; sharp alone");
  await sharpAlone(jpeg);
  const sharpTimes: number[] = [];
  await conditions.measure(
    "Sharp alone, in the bench process",
    [],
    async () => {
      for (let i = 0; i < sharpRuns; i += 1) sharpTimes.push(await sharpAlone(jpeg));
    },
    () => sharpRuns,
  );
  const sharpMs = median(sharpTimes);

  const server = await startServer({ AUTH_AUTOCONFIRM: "true", AUTH_INVITE_ONLY: "false", AUTH_RATE_LIMITS: "false" });
  try {
    const rssIdle = server.rssMb();
    cli(server, ["invite", email]);
    const client = new HttpClient(server.url, concurrentUploads);
    const watched = [watchPid("Server process", server.pid)];
    const session = await client.json<{ access_token: string }>("POST", "/auth/v1/signup", authHeaders, { email, password });
    const { body, contentType } = multipart(jpeg);
    const headers = {
      authorization: `Bearer ${session.access_token}`,
      "content-type": contentType,
      "content-length": body.length,
    };
    const upload = async (): Promise<number> => {
      const started = performance.now();
      const response = await client.request("POST", "/api/v1/photos", headers, body);
      if (response.status !== 201) throw new Error(`upload: ${response.status} ${response.body.toString("utf8").slice(0, 300)}`);
      return performance.now() - started;
    };

    // Sequential ingest: one warm-up upload, then the measured ones.
    await upload();
    const uploadTimes: number[] = [];
    await conditions.measure(
      "Ingest, sequential",
      watched,
      async () => {
        for (let i = 0; i < sequentialUploads; i += 1) uploadTimes.push(await upload());
      },
      () => sequentialUploads,
    );
    const uploadMs = median(uploadTimes);

    // Memory: many uploads at once, RSS sampled throughout.
    const rssBefore = server.rssMb();
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, server.rssMb());
    }, rssSampleMs);
    let burstStarted = 0;
    const outcomes = await conditions.measure(
      `${concurrentUploads} uploads at once`,
      watched,
      () => {
        burstStarted = performance.now();
        return Promise.allSettled(Array.from({ length: concurrentUploads }, upload));
      },
      (settled) => settled.length,
    );
    const burstSeconds = (performance.now() - burstStarted) / 1000;
    clearInterval(sampler);
    rssPeak = Math.max(rssPeak, server.rssMb());
    const failed = outcomes.filter((outcome) => outcome.status === "rejected");
    const burstTimes = outcomes.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
    client.close();

    const ratio = uploadMs / sharpMs;
    const verdict = (pass: boolean) => (pass ? "pass" : "**FAIL**");
    const mb = (bytes: number) => round(bytes / 2 ** 20, 1);
    writeResults(
      "Photo ingest (SQLite)",
      `${machineLine()}
One generated ${width} × ${height} photo-like JPEG (${mb(jpeg.length)} MB, Gaussian noise blurred, quality 90), uploaded as multipart field \`file\` to the production server bundle (SQLite, local file storage) on loopback. Sharp alone: the same three renditions the server stores (WebP preview ≤ 1600 px q80 and WebP thumbnail ≤ 400 px q70 at effort 2, full-size JPEG display copy q90 without metadata; each \`.rotate()\`d from the JPEG, one after the other), in the bench process before the server starts: median of ${sharpRuns} runs after a warm-up. Ingest: median of ${sequentialUploads} sequential uploads after a warm-up, timed at the client (upload, checks, derivatives, storage, database). Memory: ${concurrentUploads} uploads at once, server RSS sampled every ${rssSampleMs} ms.

| Measure | Result | Target | Verdict |
|---|---|---|---|
| Sharp alone, all three renditions | ${round(sharpMs, 0)} ms (runs ${sharpTimes.map((t) => round(t, 0)).join(", ")}) | — | — |
| Ingest per photo, sequential | **${round(uploadMs, 0)} ms** (runs ${uploadTimes.map((t) => round(t, 0)).join(", ")}) | — | — |
| Ingest ÷ sharp alone | **${round(ratio, 2)} ×** | ≤ 1.5 × | ${verdict(ratio <= 1.5)} |
| Server RSS, peak during ${concurrentUploads} concurrent uploads | **${round(rssPeak, 0)} MB** (${round(rssIdle, 0)} MB idle after start, ${round(rssBefore, 0)} MB after the sequential uploads; ${concurrentUploads - failed.length} of ${concurrentUploads} stored in ${round(burstSeconds, 1)} s, slowest ${round(Math.max(...burstTimes), 0)} ms) | < 400 MB | ${verdict(rssPeak < 400 && failed.length === 0)} |

${conditions.markdown()}`,
    );
    console.log({
      jpegBytes: jpeg.length,
      sharpTimes,
      sharpMs,
      uploadTimes,
      uploadMs,
      ratio: round(ratio, 3),
      rssIdle,
      rssBefore,
      rssPeak,
      burstSeconds,
      failed: failed.map((f) => String(f.reason)),
      conditions: conditions.runs,
    });
  } finally {
    await server.stop();
  }
}

await main();
