import { spawn } from "node:child_process";
import os from "node:os";
import { AppError } from "../../errors";

/** Where the two programs are: the operator's (FFMPEG_PATH, FFPROBE_PATH) or the packaged ones (ADR 0053). */
export interface VideoTools {
  ffmpeg: string;
  ffprobe: string;
}

/**
 * The programs videos are read and written with. A path the operator set wins; otherwise the
 * binaries that `@ffmpeg-installer/ffmpeg` and `@ffprobe-installer/ffprobe` ship for this platform,
 * imported here, on first use, so a server that never touches a video never loads them.
 */
export async function resolveVideoTools(paths: { ffmpegPath?: string | undefined; ffprobePath?: string | undefined } = {}) {
  const [ffmpeg, ffprobe] = await Promise.all([
    paths.ffmpegPath ?? packagedBinary(() => import("@ffmpeg-installer/ffmpeg"), "ffmpeg", "FFMPEG_PATH"),
    paths.ffprobePath ?? packagedBinary(() => import("@ffprobe-installer/ffprobe"), "ffprobe", "FFPROBE_PATH"),
  ]);
  return { ffmpeg, ffprobe } satisfies VideoTools;
}

async function packagedBinary(load: () => Promise<{ default: { path: string } }>, name: string, variable: string) {
  try {
    return (await load()).default.path;
  } catch (error) {
    // The installer packages throw a string on a platform they ship no binary for.
    throw new Error(`No ${name} is packaged for ${os.platform()}-${os.arch()}; set ${variable} to your own.`, {
      cause: error,
    });
  }
}

export interface RunOptions {
  /** The process is killed (SIGKILL) past this many milliseconds and the run fails with `video_timeout`. */
  timeoutMs: number;
  /** Aborting kills the process; the run rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** Runs at a lower CPU priority (nice 10) than the server's requests: for transcoding. */
  lowPriority?: boolean;
  /** Standard output kept, at most; more is a failure (a frame larger than asked for). Default 64 MB. */
  maxStdoutBytes?: number;
  /** Each chunk of standard output, for progress; nothing of it is kept when this is given. */
  onStdout?: (chunk: Buffer) => void;
}

export interface RunResult {
  /** The process's exit code; null when it died of a signal. */
  code: number | null;
  stdout: Buffer;
  /** The last few kilobytes of what it wrote to standard error. */
  stderr: string;
}

const stderrKept = 8 * 1024;

/**
 * Runs one of the video programs with its arguments as given: spawned directly, never through a
 * shell, with no standard input. Settles once the process has exited, after a kill too, so no
 * run leaves a process behind.
 */
export function runTool(command: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(asError(signal.reason));
  const maxStdout = options.maxStdoutBytes ?? 64 * 1024 * 1024;
  return new Promise<RunResult>((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], shell: false, windowsHide: true });
    if (options.lowPriority && child.pid !== undefined) {
      try {
        os.setPriority(child.pid, 10);
      } catch {
        // Not permitted here (some containers): the run goes on at normal priority.
      }
    }
    const chunks: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = "";
    let failure: Error | undefined;
    const kill = (reason: Error) => {
      failure ??= reason;
      child.kill("SIGKILL");
    };
    const timer = setTimeout(
      () => kill(new AppError("video_timeout", { cause: new Error(`${command} ran longer than ${options.timeoutMs} ms`) })),
      options.timeoutMs,
    );
    const onAbort = () => kill(asError(signal!.reason));
    signal?.addEventListener("abort", onAbort, { once: true });

    child.stdout.on("data", (chunk: Buffer) => {
      if (options.onStdout) return options.onStdout(chunk);
      stdoutBytes += chunk.length;
      if (stdoutBytes > maxStdout) return kill(new Error(`${command} wrote more than ${maxStdout} bytes`));
      chunks.push(chunk);
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (text: string) => {
      stderr = (stderr + text).slice(-stderrKept);
    });
    let settled = false;
    const settle = (code: number | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      if (failure !== undefined) reject(failure);
      else resolve({ code, stdout: Buffer.concat(chunks), stderr });
    };
    child.on("error", (error) => {
      failure ??= error;
      // It never started (no such program): there is no process to wait for.
      if (child.pid === undefined) settle(null);
    });
    child.on("close", settle);
  });
}

/** An abort's reason as the Error the run rejects with (`abort()` without one gives a DOMException, an Error too). */
function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}
