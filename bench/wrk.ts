import { spawn, spawnSync } from "node:child_process";

/**
 * wrk (Debian's `wrk` package) as the load generator for throughput figures. Written in C, it
 * spends a fraction of the server's CPU per request, so with it the server is what saturates and a
 * rate measures the server; the bench's own node:http client needs about a core for itself on a
 * cheap route and then measures how fast one Node core can send requests
 * (bench/why-the-list-ratio-moves.md).
 */
export function wrkAvailable(): boolean {
  return spawnSync("wrk", ["--version"], { stdio: "ignore" }).error === undefined;
}

export interface WrkResult {
  requests: number;
  /** Non-2xx/3xx answers and socket errors. */
  errors: number;
  perSecond: number;
  p50: number;
  p99: number;
}

/** One wrk run: `connections` kept-alive connections on one thread for `durationMs`. */
export async function runWrk(options: {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  durationMs: number;
}): Promise<WrkResult> {
  const headerArgs = Object.entries(options.headers ?? {}).flatMap(([name, value]) => ["-H", `${name}: ${value}`]);
  const args = [
    "-t1",
    `-c${options.connections}`,
    `-d${Math.max(1, Math.round(options.durationMs / 1000))}s`,
    "--latency",
    ...headerArgs,
    options.url,
  ];
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn("wrk", args, { stdio: ["ignore", "pipe", "inherit"] });
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => (text += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited with ${code}: ${text}`))));
  });
  return parseWrk(output);
}

/** Reads wrk's report: total requests, errors, the rate and two latency percentiles (in ms). */
export function parseWrk(output: string): WrkResult {
  const number = (pattern: RegExp) => Number(pattern.exec(output)?.[1] ?? Number.NaN);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const errors =
    (number(/Non-2xx or 3xx responses: (\d+)/) || 0) +
    (socketErrors ? socketErrors.slice(1).reduce((sum, count) => sum + Number(count), 0) : 0);
  return {
    requests: number(/(\d+) requests in/),
    errors,
    perSecond: number(/Requests\/sec:\s+([\d.]+)/),
    p50: latencyMs(/^\s+50%\s+([\d.]+)(us|ms|s)$/m.exec(output)),
    p99: latencyMs(/^\s+99%\s+([\d.]+)(us|ms|s)$/m.exec(output)),
  };
}

function latencyMs(match: RegExpExecArray | null): number {
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  const unit = match[2];
  return unit === "us" ? value / 1000 : unit === "s" ? value * 1000 : value;
}
