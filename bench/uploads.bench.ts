// Resumable upload benchmark (tus, ADR 0056), on loopback against the production server bundle:
// the throughput of one tus upload (tus-js-client, the whole file in one PATCH) against a plain PUT
// of the same bytes to a trivial handler in its own process that also writes them to the same
// disk, alternated in the same run; the bytes sent again when the connection drops at half the
// file and tus-js-client resumes; and the server's peak RSS while three such uploads run at once.
//
//   BENCH_UPLOAD_MB     size of the file in MB (default 200)
//   BENCH_UPLOAD_RUNS   runs of each way, alternated, median taken (default 9: the ratio moves from run to run)
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Upload, type HttpResponse } from "tus-js-client";
import { cuttingProxy } from "../apps/server/test/cutting-proxy";
import { filmTestClip } from "../apps/server/test/video-clips";
import { cli, machineLine, round, RunConditions, startServer, watchPid, writeResults } from "./lib";

const megabytes = Math.max(10, Number(process.env.BENCH_UPLOAD_MB ?? 200));
const runs = Math.max(1, Number(process.env.BENCH_UPLOAD_RUNS ?? 9));
const rssSampleMs = 50;
const password = "correct horse battery staple";
const email = "filmmaker@memory-box.test";
const authHeaders = { "x-supabase-api-version": "2024-01-01" };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A plain upload handler: the body piped to a file on the given disk, then 204; the file removed after. */
const plainHandler = `
const http = require("node:http");
const fs = require("node:fs");
const { pipeline } = require("node:stream/promises");
const dir = process.argv[1];
let count = 0;
http.createServer(async (req, res) => {
  const file = dir + "/plain-put-" + count++;
  try {
    await pipeline(req, fs.createWriteStream(file));
    res.writeHead(204).end();
  } catch {
    res.writeHead(500).end();
  } finally {
    fs.rmSync(file, { force: true });
  }
}).listen(0, "127.0.0.1", function () { process.stdout.write(this.address().port + "\\n"); });
`;

async function startPlainHandler(dir: string): Promise<{ port: number; pid: number; stop: () => void }> {
  const child: ChildProcess = spawn("node", ["-e", plainHandler, dir], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once("exit", () => reject(new Error("the plain handler did not start")));
  });
  return { port, pid: child.pid!, stop: () => child.kill("SIGTERM") };
}

/** The file streamed from disk in one PUT, as tus-js-client streams it in its PATCH. */
function plainPut(port: number, file: string, size: number): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: "127.0.0.1", port, method: "PUT", path: "/upload", headers: { "content-length": size } },
      (response) => {
        response.resume();
        response.on("end", () =>
          response.statusCode === 204 ? resolve(performance.now() - started) : reject(new Error(`PUT: ${response.statusCode}`)),
        );
      },
    );
    request.on("error", reject);
    pipeline(fs.createReadStream(file), request).catch(reject);
  });
}

/**
 * One tus upload by the same client code as `plainPut`: the creation (POST), then the file
 * streamed from disk in one PATCH, timed from the creation to the last answer. What the server
 * costs over a plain handler, the client's own cost the same on both sides.
 */
async function tusRawUpload(serverUrl: string, token: string, file: string, size: number): Promise<number> {
  const started = performance.now();
  const created = await fetch(`${serverUrl}/api/v1/uploads`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "tus-resumable": "1.0.0",
      "upload-length": String(size),
      "upload-metadata": `filename ${Buffer.from("first-dance.mp4").toString("base64")}`,
    },
  });
  const location = created.headers.get("location");
  if (created.status !== 201 || !location) throw new Error(`tus creation answered ${created.status}`);
  const url = new URL(location, serverUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: "PATCH",
        path: url.pathname,
        headers: {
          authorization: `Bearer ${token}`,
          "tus-resumable": "1.0.0",
          "upload-offset": "0",
          "content-type": "application/offset+octet-stream",
          "content-length": size,
        },
      },
      (response) => {
        response.resume();
        // The media intake refuses random bytes at once by their first bytes (415), as `tusUpload` says.
        response.on("end", () =>
          response.statusCode === 415
            ? resolve(performance.now() - started)
            : reject(new Error(`tus PATCH: ${response.statusCode}`)),
        );
      },
    );
    request.on("error", reject);
    pipeline(fs.createReadStream(file), request).catch(reject);
  });
}

/** A real video sent with tus-js-client: the Photo the last answer carries (its web copy then in preparation). */
function tusVideo(endpoint: string, token: string, file: string): Promise<{ id: string; status: string }> {
  return new Promise((resolve, reject) => {
    new Upload(fs.createReadStream(file), {
      endpoint,
      headers: { authorization: `Bearer ${token}` },
      metadata: { filename: path.basename(file), filetype: "video/quicktime" },
      onSuccess: ({ lastResponse }) => resolve(JSON.parse(lastResponse.getBody()) as { id: string; status: string }),
      onError: reject,
    }).start();
  });
}

/**
 * One tus upload with tus-js-client, timed from creation to the last answer. The file is random
 * bytes named as a video: the media intake refuses it at once by its first bytes (415, nothing
 * decoded), so the time is the transport's, as a real video's would be before its inspection.
 */
function tusUpload(endpoint: string, token: string, file: string, retryDelays: number[] = []): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const finished = (response: HttpResponse | undefined) => {
      const status = response?.getStatus();
      if (status === 200 || status === 415) resolve(performance.now() - started);
      else reject(new Error(`tus upload answered ${status}: ${response?.getBody()}`));
    };
    new Upload(fs.createReadStream(file), {
      endpoint,
      headers: { authorization: `Bearer ${token}` },
      metadata: { filename: "first-dance.mp4", filetype: "video/mp4" },
      retryDelays,
      onSuccess: ({ lastResponse }) => finished(lastResponse),
      onError: (error) => {
        const response = (error as { originalResponse?: HttpResponse | null }).originalResponse;
        if (response) finished(response);
        else reject(error);
      },
    }).start();
  });
}

async function main(): Promise<void> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "memory-box-uploads-bench-"));
  const file = path.join(scratch, "first-dance.mp4");
  const size = megabytes * 1_000_000;
  for (let written = 0; written < size; written += 10_000_000)
    fs.appendFileSync(file, randomBytes(Math.min(10_000_000, size - written)));
  const server = await startServer({
    AUTH_AUTOCONFIRM: "true",
    AUTH_INVITE_ONLY: "false",
    AUTH_RATE_LIMITS: "false",
    VIDEO_MAX_BYTES: String(2 * 1024 ** 3),
  });
  const plain = await startPlainHandler(server.dataDir);
  try {
    cli(server, ["invite", email]);
    const signup = await fetch(`${server.url}/auth/v1/signup`, {
      method: "POST",
      headers: { ...authHeaders, "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
    const { access_token: token } = (await signup.json()) as { access_token: string };
    const endpoint = `${server.url}/api/v1/uploads`;
    const conditions = new RunConditions("uploading client");
    const watched = [watchPid("Server process", server.pid), watchPid("Plain handler", plain.pid)];

    // Throughput: one warm-up of each, then the runs alternated so all meet the same machine. The
    // ratio compares the server's ways with the same client; tus-js-client's own rate (in Node, where
    // it copies the file through its chunk buffers, unlike a browser's Blob slices) is told apart.
    await plainPut(plain.port, file, size);
    await tusRawUpload(server.url, token, file, size);
    await tusUpload(endpoint, token, file);
    const putTimes: number[] = [];
    const tusTimes: number[] = [];
    const clientTimes: number[] = [];
    await conditions.measure(
      `Plain PUT, tus and tus-js-client, ${runs} each, alternated`,
      watched,
      async () => {
        for (let i = 0; i < runs; i += 1) {
          putTimes.push(await plainPut(plain.port, file, size));
          tusTimes.push(await tusRawUpload(server.url, token, file, size));
          clientTimes.push(await tusUpload(endpoint, token, file));
        }
      },
      () => runs * 3,
    );
    const mbPerSecond = (ms: number) => megabytes / (ms / 1000);
    const putRate = mbPerSecond(median(putTimes));
    const tusRate = mbPerSecond(median(tusTimes));
    const clientRate = mbPerSecond(median(clientTimes));
    const ratio = tusRate / putRate;

    // Resuming: the connection dropped once half the file went up; tus-js-client asks the offset and goes on.
    const proxy = await cuttingProxy(new URL(server.url), size / 2);
    let resentShare: number;
    let resumeMs: number;
    try {
      resumeMs = await conditions.measure("Upload cut at 50 %, resumed", watched, () =>
        tusUpload(`http://127.0.0.1:${proxy.port}/api/v1/uploads`, token, file, [0, 200, 1000]),
      );
      if (proxy.cuts !== 1) throw new Error(`the connection was cut ${proxy.cuts} times`);
      resentShare = (proxy.bytesUp - size) / size;
    } finally {
      await proxy.close();
    }

    // Memory: three uploads at once while a video is prepared (an iPhone-like clip, 1080p with PCM
    // sound in MOV, which the web copy must encode), server RSS sampled throughout.
    const clip = path.join(scratch, "toast.mov");
    await filmTestClip(clip, {
      size: "1920x1080",
      seconds: 10,
      audio: ["-c:a", "pcm_s16le"],
      video: ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"],
    });
    const statusOf = async (id: string) =>
      (
        (await (await fetch(`${server.url}/api/v1/photos/${id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
          status: string;
        }
      ).status;
    const rssBefore = server.rssMb();
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, server.rssMb());
    }, rssSampleMs);
    const video = await tusVideo(endpoint, token, clip);
    const preparedDuring = { before: video.status, after: "" };
    await conditions.measure("Three uploads at once, a video prepared meanwhile", watched, () =>
      Promise.all([0, 1, 2].map(() => tusUpload(endpoint, token, file))),
    );
    preparedDuring.after = await statusOf(video.id);
    while ((await statusOf(video.id)) === "processing") await new Promise((resolve) => setTimeout(resolve, rssSampleMs * 4));
    clearInterval(sampler);
    rssPeak = Math.max(rssPeak, server.rssMb());
    const preparedAtLast = await statusOf(video.id);

    const verdict = (pass: boolean) => (pass ? "pass" : "**FAIL**");
    writeResults(
      "Resumable uploads (tus)",
      `${machineLine()}
One ${megabytes} MB file of random bytes on the machine's disk, streamed from it by the client (as a browser streams a picked file) and uploaded on loopback to the production server bundle (SQLite, local disk), the member's bearer token checked on each request; the partial upload is written to \`DATA_DIR/resumable-uploads\`. The file is named as a video: the media intake refuses its random bytes at once by their first bytes (415), so the time, from creation to the last answer, is the transport's. tus: the creation, then the file piped from disk into one PATCH by Node's http client, the client code of the plain PUT. tus-js-client: 4.3.1 in Node (the file as an \`fs.ReadStream\`), creation then the whole file in one PATCH; in Node it copies the file through its own buffers and is the slower side of the loopback, unlike a browser's Blob slices. Plain PUT: the same file piped from disk into one request (Node's http client) to a trivial Node handler in its own process that pipes them to a file on the same disk (DATA_DIR) and answers 204. Median of ${runs} runs of each after a warm-up of each, alternated. Resuming: a TCP proxy in the bench process drops the connection once half the file went up through it; tus-js-client asks the offset (HEAD) and goes on (PATCH); sent again = everything that went up through the proxy (request heads included) less the file. Memory: three uploads at once while a video's web copy is made (FFmpeg's own memory is not the server's RSS: it runs as a process of its own), server RSS sampled every ${rssSampleMs} ms.

| Measure | Result | Target | Verdict |
|---|---|---|---|
| Plain PUT | ${round(putRate, 0)} MB/s (runs ${putTimes.map((t) => round(t, 0)).join(", ")} ms) | — | — |
| tus upload | ${round(tusRate, 0)} MB/s (runs ${tusTimes.map((t) => round(t, 0)).join(", ")} ms) | — | — |
| tus upload by tus-js-client in Node | ${round(clientRate, 0)} MB/s (runs ${clientTimes.map((t) => round(t, 0)).join(", ")} ms) | — | — |
| tus ÷ plain PUT | **${round(ratio, 2)}** | ≥ 0.8 | ${verdict(ratio >= 0.8)} |
| Sent again after a cut at 50 % | **${round(resentShare * 100, 2)} %** of the file (${round((resentShare * size) / 1e6, 2)} MB; the whole upload took ${round(resumeMs / 1000, 1)} s) | ≤ 5 % | ${verdict(resentShare <= 0.05)} |
| Server RSS, peak while three uploads run at once and a 10 s 1080p video is prepared (from its upload to its web copy: ${preparedDuring.before} at the start, ${preparedDuring.after} when the three had arrived, ${preparedAtLast} at last) | **${round(rssPeak, 0)} MB** (${round(rssBefore, 0)} MB before) | ≤ 450 MB | ${verdict(rssPeak <= 450 && preparedDuring.after === "processing" && preparedAtLast === "ready")} |

${conditions.markdown()}`,
    );
    console.log({
      megabytes,
      putTimes,
      tusTimes,
      clientTimes,
      putRate,
      tusRate,
      clientRate,
      ratio,
      resentShare,
      resumeMs,
      rssBefore,
      rssPeak,
      preparedDuring,
      preparedAtLast,
    });
  } finally {
    plain.stop();
    await server.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
