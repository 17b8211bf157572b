import { createHash, randomUUID } from "node:crypto";
import { lstat, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/**
 * Temporary files named after the process that writes them, `{pid}.{host}-{uuid}{suffix}`, so a
 * process starting up can tell a crashed writer's leftovers from another live process's write in
 * flight (several server processes may share one DATA_DIR on PostgreSQL). `{host}` is a short tag
 * of the machine's host name (a container's own): a process id says something only on its machine,
 * and containers sharing a volume may all run their server as pid 1. `host` is for tests.
 */
export function ownedTempName(suffix = "", host = os.hostname()): string {
  return `${process.pid}.${hostTag(host)}-${randomUUID()}${suffix}`;
}

/** Past this age a temporary file is a leftover whoever wrote it: no upload takes a day. */
const maxTempAgeMs = 24 * 3600 * 1000;
/** `{pid}.{host}-`, or `{pid}-` as the first names had it (taken as this machine's). */
const OWNED = /^(\d+)(?:\.([0-9a-f]{8}))?-/;

function hostTag(host: string): string {
  return createHash("sha256").update(host).digest("hex").slice(0, 8);
}

/**
 * Removes the temporary files in `dir` that no live process is writing: those of a process of
 * this machine that is gone, those named with this process's id (written by an earlier process
 * that had the same id, as a restarted container does: this one has written nothing yet), those
 * without an owner (older names), and any older than a day, another machine's included. Call it before this process writes any. Returns how
 * many files and bytes were removed.
 */
export async function removeLeftoverTempFiles(dir: string, now = Date.now()): Promise<{ files: number; bytes: number }> {
  const removed = { files: 0, bytes: 0 };
  const thisHost = hostTag(os.hostname());
  const names = await readdir(dir).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  });
  for (const name of names) {
    const file = path.join(dir, name);
    const stats = await lstat(file).catch(() => undefined);
    if (!stats) continue;
    const [, owner, host] = OWNED.exec(name) ?? [];
    // Another machine's process cannot be asked whether it is alive: its files wait for the age limit.
    const elsewhere = host !== undefined && host !== thisHost;
    const inFlight = owner !== undefined && (elsewhere || (Number(owner) !== process.pid && isAlive(Number(owner))));
    if (inFlight && now - stats.mtimeMs < maxTempAgeMs) continue;
    await rm(file, { force: true, recursive: true });
    removed.files += 1;
    removed.bytes += stats.size;
  }
  return removed;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
