import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { recommendedMallocArenas } from "../apps/server/src/lib/malloc-arenas";

/** Shared pieces of the benchmarks: a real server process on loopback and a bounded load loop. */

export const root = path.resolve(import.meta.dirname, "..");

export interface RunningServer {
  url: string;
  /** The server's process, for its CPU time (see RunConditions). */
  pid: number;
  dataDir: string;
  env: Record<string, string>;
  /** Resident memory of the server process, in MB. */
  rssMb(): number;
  /** SIGTERM, then removes the temporary data folder made for it (not one passed as DATA_DIR). */
  stop(): Promise<void>;
  /** SIGKILL, as a power cut or the OOM killer would: nothing is cleaned up. */
  crash(): Promise<void>;
}

/**
 * Builds if needed, then starts the production server bundle with the given settings.
 * `BENCH_SERVER_NODE_ARGS` passes options to the server's node, e.g. `--cpu-prof` to profile it.
 */
export async function startServer(env: Record<string, string>, options: { serverOnly?: boolean } = {}): Promise<RunningServer> {
  // `serverOnly`: benchmarks of the API alone do not build (or serve) the web app.
  spawnSync("node", ["scripts/build-if-needed.mjs", ...(options.serverOnly ? ["--server"] : [])], {
    cwd: root,
    stdio: "inherit",
  });
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "memory-box-bench-"));
  const fullEnv = {
    // As `npm start` runs it (apps/server/src/lib/malloc-arenas.ts); the environment can override it.
    MALLOC_ARENA_MAX: recommendedMallocArenas,
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
  // Generous: on a machine busy with other work, start-up (migrations, the first reads) can take a minute.
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) {
      // Not left running (nor its data folder) when it is only slow.
      child.kill("SIGKILL");
      fs.rmSync(dataDir, { recursive: true, force: true });
      throw new Error("the server did not start");
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    pid: child.pid!,
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
    crash: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    },
  };
}

export function serverNodeArgs(): string[] {
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
  max: number;
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
  return summarize(latencies, errors, (performance.now() - started) / 1000);
}

/**
 * Requests at a fixed rate, however fast the answers come (an open loop, as independent devices
 * make them), for `durationMs` or until `until` settles. Latency counts from when each request was
 * due, so a server that falls behind shows it in the percentiles (no coordinated omission). Each
 * request gets a slot of its own (for per-slot state such as a refresh token) and its index; one
 * due while every slot is still busy counts as an error: the server was `slots` requests behind.
 */
export async function runOpenLoop(options: {
  ratePerSecond: number;
  durationMs?: number;
  until?: Promise<unknown>;
  slots: number;
  request: (slot: number, index: number) => Promise<boolean>;
  /**
   * Each answer's latency, with when it was due (ms since the loop began), its index, and how much
   * of that latency this process itself was held (its event loop stalled: a garbage collection, a
   * long piece of the bench's own work), which delays sending a request or reading its answer
   * whatever the server does.
   */
  onAnswer?: (latencyMs: number, dueMs: number, index: number, heldHereMs: number) => void;
}): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  const free = Array.from({ length: options.slots }, (_, slot) => slot);
  const inFlight = new Set<Promise<void>>();
  const stalls = watchOwnStalls();
  const started = performance.now();
  let stopped = false;
  const stop = options.until ?? new Promise<never>(() => {});
  void stop.finally(() => (stopped = true));
  const total = options.durationMs === undefined ? Infinity : Math.floor((options.ratePerSecond * options.durationMs) / 1000);
  for (let index = 0; index < total && !stopped; index += 1) {
    const due = started + (index * 1000) / options.ratePerSecond;
    const wait = due - performance.now();
    if (wait > 1) await Promise.race([new Promise((resolve) => setTimeout(resolve, wait)), stop]);
    if (stopped) break;
    const slot = free.pop();
    if (slot === undefined) {
      errors += 1;
      continue;
    }
    const sent: Promise<void> = options
      .request(slot, index)
      .catch(() => false)
      .then((ok) => {
        if (ok) {
          const answered = performance.now();
          const latency = answered - due;
          latencies.push(latency);
          options.onAnswer?.(latency, due - started, index, stalls.heldBetween(due, answered));
        } else errors += 1;
        free.push(slot);
        inFlight.delete(sent);
      });
    inFlight.add(sent);
  }
  await Promise.all(inFlight);
  stalls.stop();
  return summarize(latencies, errors, (performance.now() - started) / 1000);
}

/**
 * This process's event-loop stalls while it measures: a 5 ms timer that fires late was held for
 * the difference. `heldBetween` sums the stalls that overlap a request's time, so a slow answer
 * can be told from a client that was itself busy. Stalls under 10 ms are not kept.
 */
function watchOwnStalls(): { heldBetween(from: number, to: number): number; stop(): void } {
  const periodMs = 5;
  const kept: { from: number; to: number }[] = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const held = now - last - periodMs;
    if (held >= 10) kept.push({ from: now - held, to: now });
    last = now;
  }, periodMs);
  timer.unref();
  return {
    // Stalls are kept in the order they ended: only the last few can overlap a request just answered.
    heldBetween: (from, to) => {
      let sum = 0;
      for (let at = kept.length - 1; at >= 0 && kept[at]!.to > from; at -= 1)
        sum += Math.max(0, Math.min(kept[at]!.to, to) - Math.max(kept[at]!.from, from));
      return sum;
    },
    stop: () => clearInterval(timer),
  };
}

export function summarize(latencies: number[], errors: number, seconds: number): LoadResult {
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
    max: round(latencies.at(-1) ?? Number.NaN),
  };
}

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** A PostgreSQL database of its own for one benchmark run, next to `adminUrl`'s; `drop` removes it. */
export async function scratchPostgresDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `memory_box_bench_${randomBytes(4).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/**
 * Replaces (or appends) the section `## {title}` of bench/RESULTS.md, or of the file named by
 * `BENCH_RESULTS_FILE` (for trial runs whose figures are not to be kept).
 */
export function writeResults(title: string, markdown: string): void {
  const file = process.env.BENCH_RESULTS_FILE
    ? path.resolve(process.env.BENCH_RESULTS_FILE)
    : path.join(root, "bench", "RESULTS.md");
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
  return `Machine: ${os.cpus().length} × ${cpuModel()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Linux ${os.release()}, Node ${process.version}; run ${new Date().toISOString().slice(0, 16)}Z.`;
}

/**
 * The CPU as /proc/cpuinfo names it. A virtual machine may show only the vendor's family name
 * ("AMD EPYC" for several generations), so family, model and stepping, which tell the
 * generation apart, and the clock the kernel measured follow it.
 */
export function cpuModel(): string {
  const info = readProc("/proc/cpuinfo") ?? "";
  const field = (name: string) => new RegExp(`^${name}\\s*:\\s*(.*)$`, "m").exec(info)?.[1]?.trim();
  const name = field("model name") ?? os.cpus()[0]?.model ?? "CPU";
  const family = field("cpu family");
  const model = field("model");
  const stepping = field("stepping");
  const mhz = Number(field("cpu MHz"));
  const detail = [
    family !== undefined && model !== undefined
      ? `family ${family} model ${model}${stepping ? ` stepping ${stepping}` : ""}`
      : "",
    mhz > 0 ? `${Math.round(mhz)} MHz` : "",
  ].filter(Boolean);
  return detail.length > 0 ? `${name} (${detail.join(", ")})` : name;
}

// What a load benchmark's figures depend on. Client and servers share this machine's cores, so a
// throughput or latency says as much about how much CPU each side got as about the code: every
// measured run records the machine's idle level just before it, and during it the CPU time of the
// bench process (the load generator), of the server processes, of the rest of the machine and
// the time the hypervisor took away (steal). Read from /proc; on a system without it the
// figures are missing and the benchmark runs as before.

/** Idle below this share of the machine in the second before a run: it was not quiet. */
export const quietIdlePercent = 90;
/** Work of other processes above this share of the machine during a run: it was not alone. */
export const aloneRestPercent = 10;
/** A load loop whose bench process used this much of a core or more: its rate is the client's limit too. */
export const clientBoundCorePercent = 90;

/** Processes whose CPU time a run reports under one name, e.g. the server, or PostgreSQL's backends. */
export interface Watched {
  name: string;
  pids(): number[];
}

/** The process `pid` under `name`. */
export function watchPid(name: string, pid: number): Watched {
  return { name, pids: () => [pid] };
}

/** Every process whose command name is `command` (e.g. `postgres`: its server and all backends). */
export function watchCommand(name: string, command: string): Watched {
  return {
    name,
    pids: () =>
      fs
        .readdirSync("/proc")
        .filter((entry) => /^\d+$/.test(entry) && readProc(`/proc/${entry}/comm`)?.trim() === command)
        .map(Number),
  };
}

export interface RunCpu {
  label: string;
  /** % of the machine idle over the second before the run. */
  idleBefore: number;
  /** Milliseconds one core took for a fixed piece of work (`coreProbeMs`) just before the run. */
  probeMs: number;
  seconds: number;
  /** Requests answered during the run, when the run is a load loop: CPU time per request follows. */
  requests?: number | undefined;
  /** CPU time of each part during the run, in % of one core. */
  benchProcess: number;
  watched: { name: string; core: number }[];
  /** Everything else that ran: other processes, and kernel work not charged to a process. */
  rest: number;
  /** Time the hypervisor gave to other guests while this one wanted to run. */
  steal: number;
  cores: number;
}

interface MachineTicks {
  idle: number;
  steal: number;
  total: number;
}

const clockTicksPerSecond = (() => {
  const result = spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" });
  return Number(result.stdout?.trim()) || 100;
})();

function readProc(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** All cores' time from the first line of /proc/stat (user … steal; guest time is inside user). */
function machineTicks(): MachineTicks | undefined {
  const line = readProc("/proc/stat")?.split("\n", 1)[0];
  if (!line?.startsWith("cpu ")) return undefined;
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return { idle: idle + iowait, steal, total: user + nice + system + idle + iowait + irq + softirq + steal };
}

/** User and system time of a process so far, in clock ticks (fields 14 and 15 of /proc/<pid>/stat). */
function processTicks(pid: number): number | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * Waits until process `pid` has used under `busyPercent` of a core over a whole second (bounded by
 * `maxMs`): the server's start-up work done (the photo files' reconcile walks every photo row),
 * so a run measures requests, not that. Returns the seconds waited.
 */
export async function waitUntilIdle(pid: number, { busyPercent = 5, maxMs = 180_000 } = {}): Promise<number> {
  const started = performance.now();
  let before = processTicks(pid);
  while (before !== undefined && performance.now() - started < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const after = processTicks(pid);
    if (after === undefined || ((after - before) / clockTicksPerSecond) * 100 < busyPercent) break;
    before = after;
  }
  return round((performance.now() - started) / 1000, 1);
}

/** How often a run's watched processes are read, so that those that start and end during it (a browser's renderers) count too. */
const watchedSampleMs = 250;

/**
 * CPU ticks a set of processes used since `start()`: read at the start, every `watchedSampleMs`
 * and at the end; a process first seen during the run counts from zero, one that has ended
 * counts up to its last reading (so a short-lived one may be missed by up to one interval).
 */
class WatchedTicks {
  private readonly seen = new Map<number, { first: number; last: number }>();
  constructor(readonly watched: Watched) {}

  sample(fromStart: boolean): void {
    for (const pid of this.watched.pids()) {
      const ticks = processTicks(pid);
      if (ticks === undefined) continue;
      const known = this.seen.get(pid);
      if (known) known.last = ticks;
      else this.seen.set(pid, { first: fromStart ? ticks : 0, last: ticks });
    }
  }

  ticks(): number {
    let total = 0;
    for (const { first, last } of this.seen.values()) total += last - first;
    return total;
  }
}

const probeBlock = Buffer.alloc(1 << 20, 0x5a);

/**
 * Milliseconds this process takes to SHA-256 32 MiB (native code, the same work on every Node
 * version): how fast a core is right now. Two machines with the same CPU name, or one machine
 * whose host is busy with other guests, can differ here although neither reports it.
 */
export function coreProbeMs(): number {
  const started = performance.now();
  for (let i = 0; i < 32; i += 1) createHash("sha256").update(probeBlock).digest();
  return performance.now() - started;
}

/** % of the machine idle over `ms`, from /proc/stat. */
export async function machineIdle(ms = 1000): Promise<number | undefined> {
  const before = machineTicks();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = machineTicks();
  if (!before || !after || after.total === before.total) return undefined;
  return (100 * (after.idle - before.idle)) / (after.total - before.total);
}

/**
 * Measures the conditions of a benchmark's runs and writes them down with its results: see
 * `measure` and `markdown`.
 */
export class RunConditions {
  readonly runs: RunCpu[] = [];

  /** `benchProcess`: what the bench process does during the runs, for the table's heading. */
  constructor(private readonly benchProcess = "load generator") {}

  /**
   * Waits a second to read how idle the machine is (warning when below `quietIdlePercent`), then
   * runs `run` and records the CPU time of this process, of `watched` and of the rest meanwhile.
   */
  async measure<T>(label: string, watched: Watched[], run: () => Promise<T>, requests?: (result: T) => number): Promise<T> {
    const idleBefore = (await machineIdle()) ?? Number.NaN;
    const probeMs = coreProbeMs();
    const machineBefore = machineTicks();
    const watchedTicks = watched.map((w) => new WatchedTicks(w));
    for (const w of watchedTicks) w.sample(true);
    const sampler = setInterval(() => {
      for (const w of watchedTicks) w.sample(false);
    }, watchedSampleMs);
    const selfBefore = process.cpuUsage();
    const started = performance.now();
    const result = await run().finally(() => clearInterval(sampler));
    const seconds = (performance.now() - started) / 1000;
    const self = process.cpuUsage(selfBefore);
    for (const w of watchedTicks) w.sample(false);
    const machineAfter = machineTicks();
    const cores = os.cpus().length;
    const corePercent = (ticks: number) => (100 * ticks) / clockTicksPerSecond / seconds;
    const benchProcess = (100 * (self.user + self.system)) / 1e6 / seconds;
    const watchedCore = watchedTicks.map((w) => ({ name: w.watched.name, core: corePercent(w.ticks()) }));
    let rest = Number.NaN;
    let steal = Number.NaN;
    if (machineBefore && machineAfter) {
      const elapsed = machineAfter.total - machineBefore.total;
      // In % of one core: the machine's busy ticks over the run, less what we account for.
      const busy = elapsed - (machineAfter.idle - machineBefore.idle) - (machineAfter.steal - machineBefore.steal);
      const perCore = (ticks: number) => (100 * cores * ticks) / elapsed;
      steal = perCore(machineAfter.steal - machineBefore.steal);
      rest = Math.max(0, perCore(busy) - benchProcess - watchedCore.reduce((sum, w) => sum + w.core, 0));
    }
    const cpu: RunCpu = {
      label,
      idleBefore,
      probeMs,
      seconds,
      requests: requests?.(result),
      benchProcess,
      watched: watchedCore,
      rest,
      steal,
      cores,
    };
    this.runs.push(cpu);
    for (const warning of runWarnings(cpu)) console.warn(`bench: ${label}: ${warning}`);
    return result;
  }

  /** `runLoad(options)` as a measured run, with its requests counted for the CPU time per request. */
  load(label: string, watched: Watched[], options: Parameters<typeof runLoad>[0]): Promise<LoadResult> {
    return this.measure(
      label,
      watched,
      () => runLoad(options),
      (result) => result.requests + result.errors,
    );
  }

  /** A table of every run's conditions, with a warning under it for each run that was not quiet. */
  markdown(): string {
    if (this.runs.length === 0) return "";
    const cores = this.runs[0]!.cores;
    const names = [...new Set(this.runs.flatMap((run) => run.watched.map((w) => w.name)))];
    const rows = this.runs.map((run) => {
      const share = (core: number) => {
        if (Number.isNaN(core)) return "?";
        const perRequest = run.requests ? ` · ${cpuTime((core * run.seconds) / 100 / run.requests)}` : "";
        return `${Math.round(core)}% (${Math.round(core / cores)}%)${perRequest}`;
      };
      const cells = names.map((name) => {
        const found = run.watched.find((w) => w.name === name);
        return found ? share(found.core) : "—";
      });
      const idle = Number.isNaN(run.idleBefore) ? "?" : `${Math.round(run.idleBefore)}%`;
      const rest = Number.isNaN(run.rest) ? "?" : `${Math.round(run.rest)}% (${Math.round(run.rest / cores)}%)`;
      const steal = Number.isNaN(run.steal) ? "?" : `${Math.round(run.steal)}%`;
      return `| ${run.label} | ${idle} | ${round(run.probeMs, 1)} ms | ${share(run.benchProcess)} | ${cells.map((cell) => `${cell} | `).join("")}${rest} | ${steal} |`;
    });
    const warnings = this.runs.flatMap((run) => runWarnings(run).map((warning) => `${run.label}: ${warning}`));
    // Load loops against a server (not work done in the bench process itself, like a baseline).
    const clientBound = this.runs.filter(
      (run) => run.requests !== undefined && run.watched.length > 0 && run.benchProcess >= clientBoundCorePercent,
    );
    return `What these figures depend on: how much CPU each side of the loopback got, and how fast it was. For each measured run: how idle the machine was over the second before it, and how long one core then took for a fixed piece of work (SHA-256 of 32 MiB; more milliseconds, a slower or busier host); during the run, CPU time in % of one core (in parentheses, of the whole machine: ${cores} cores) and, for load loops, per request answered, of the bench process (the ${this.benchProcess}), of the server processes, of everything else on the machine, and the time the hypervisor gave to other guests (steal; 0 where it does not report it). A bench process near 100% of a core caps the rate it can ask for, whatever the server could do; then the figures measure the client as much as the server.

| Run | Idle before | Core probe | Bench process (${this.benchProcess}) | ${names.map((name) => `${name} | `).join("")}Rest of the machine | Steal |
|---|---|---|---|${names.map(() => "---|").join("")}---|---|
${rows.join("\n")}
${clientBound.length === 0 ? "" : `\n**Client-bound:** ${clientBound.map((run) => run.label).join("; ")}: the bench process used ${clientBoundCorePercent}% of a core or more, so these rates are as much the load generator's limit as the server's.\n`}${warnings.length === 0 ? "" : `\n**Warning: the machine was not quiet.** ${warnings.join("; ")}. These runs' figures are not comparable with a quiet machine's.\n`}`;
  }
}

/** Seconds of CPU time, in µs or ms as fits. */
function cpuTime(seconds: number): string {
  if (seconds < 1e-3) return `${Math.round(seconds * 1e6)} µs`;
  return `${round(seconds * 1e3, seconds < 1e-2 ? 1 : 0)} ms`;
}

function runWarnings(run: RunCpu): string[] {
  const warnings: string[] = [];
  if (run.idleBefore < quietIdlePercent)
    warnings.push(`only ${Math.round(run.idleBefore)}% idle just before the run (a quiet machine is ≥ ${quietIdlePercent}%)`);
  if (run.rest / run.cores > aloneRestPercent)
    warnings.push(`other work took ${Math.round(run.rest / run.cores)}% of the machine during the run`);
  return warnings;
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
