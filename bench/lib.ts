import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** Shared pieces of the benchmarks: a real server process on loopback and a bounded load loop. */

export const root = path.resolve(import.meta.dirname, "..");

export interface RunningServer {
  url: string;
  dataDir: string;
  env: Record<string, string>;
  /** Resident memory of the server process, in MB. */
  rssMb(): number;
  stop(): Promise<void>;
}

/**
 * Builds if needed, then starts the production server bundle with the given settings.
 * `BENCH_SERVER_NODE_ARGS` passes options to the server's node, e.g. `--cpu-prof` to profile it.
 */
export async function startServer(env: Record<string, string>): Promise<RunningServer> {
  spawnSync("node", ["scripts/build-if-needed.mjs"], { cwd: root, stdio: "inherit" });
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "memory-box-bench-"));
  const fullEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ...env,
  } as Record<string, string>;
  const child: ChildProcess = spawn("node", [...serverNodeArgs(), "apps/server/dist/main.js"], {
    cwd: root,
    env: fullEnv,
    stdio: ["ignore", "inherit", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error("the server did not start");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    dataDir,
    env: fullEnv,
    rssMb: () => {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, "utf8");
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    },
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function serverNodeArgs(): string[] {
  return (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean);
}

/** Runs the operator CLI against the server's data folder (same database). */
export function cli(server: RunningServer, args: string[]): void {
  const result = spawnSync("node", ["apps/server/dist/cli.js", ...args], { cwd: root, env: server.env, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`cli ${args.join(" ")} failed: ${result.stderr}`);
}

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
}

/**
 * `concurrency` workers, each sending one request after another for `durationMs` (bounded in
 * time and count). `request` returns whether the answer was the expected one.
 */
export async function runLoad(options: {
  concurrency: number;
  durationMs: number;
  maxRequests?: number;
  request: (worker: number) => Promise<boolean>;
}): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const stopAt = started + options.durationMs;
  const maxRequests = options.maxRequests ?? 1_000_000;
  await Promise.all(
    Array.from({ length: options.concurrency }, async (_, worker) => {
      while (performance.now() < stopAt && latencies.length + errors < maxRequests) {
        const begin = performance.now();
        const ok = await options.request(worker).catch(() => false);
        if (ok) latencies.push(performance.now() - begin);
        else errors += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN);
  return {
    requests: latencies.length,
    errors,
    seconds: round(seconds),
    perSecond: round(latencies.length / seconds),
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
  };
}

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Replaces (or appends) the section `## {title}` of bench/RESULTS.md. */
export function writeResults(title: string, markdown: string): void {
  const file = path.join(root, "bench", "RESULTS.md");
  const current = fs.existsSync(file)
    ? fs.readFileSync(file, "utf8")
    : "# Benchmark results\n\nWritten by the scripts in `bench/` (`npm run bench`). Each section is replaced when its benchmark runs again.\n";
  const heading = `## ${title}`;
  const section = `${heading}\n\n${markdown.trim()}\n`;
  const start = current.indexOf(heading);
  if (start === -1) {
    fs.writeFileSync(file, `${current.trimEnd()}\n\n${section}`);
    return;
  }
  const next = current.indexOf("\n## ", start + heading.length);
  fs.writeFileSync(file, `${current.slice(0, start)}${section}${next === -1 ? "" : `\n${current.slice(next + 1)}`}`);
}

export function machineLine(): string {
  return `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}; run ${new Date().toISOString().slice(0, 16)}Z.`;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}
