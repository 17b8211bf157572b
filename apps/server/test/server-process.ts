import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort } from "./auth-fixtures";

const root = path.resolve(import.meta.dirname, "..");

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  dataDir: string;
  /** Everything it printed so far. */
  output(): string;
  /** SIGKILL if still running, and its data folder removed. */
  remove(): Promise<void>;
}

/**
 * The server as `npm start` runs it (src/main.ts), in a process of its own with a data folder of
 * its own, on loopback; `env` adds settings (a DATABASE_URL, a STORAGE_URL…; SQLite in the data
 * folder without). Resolves once it is ready.
 */
export async function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-process-"));
  const port = await freePort();
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "src/main.ts")], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: "",
      STORAGE_URL: "",
      LOG_LEVEL: "info",
      ...env,
      DATA_DIR: dataDir,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const remove = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await fs.rm(dataDir, { recursive: true, force: true });
  };
  const started = Date.now();
  // Generous: on a machine busy with other work, start-up (migrations, the first reads) takes a while.
  while (!output.includes("Memory Box is ready")) {
    if (child.exitCode !== null || Date.now() - started > 90_000) {
      await remove();
      throw new Error(`the server did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, port, url: `http://127.0.0.1:${port}`, dataDir, output: () => output, remove };
}
