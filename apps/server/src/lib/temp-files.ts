import { randomUUID } from "node:crypto";
import { lstat, readdir, rm } from "node:fs/promises";
import path from "node:path";

/**
 * Temporary files named after the process that writes them, `{pid}-{uuid}{suffix}`, so a process
 * starting up can tell a crashed writer's leftovers from another live process's write in flight
 * (several server processes may share one DATA_DIR on PostgreSQL).
 */
export function ownedTempName(suffix = ""): string {
  return `${process.pid}-${randomUUID()}${suffix}`;
}

/** Past this age a temporary file is a leftover whoever wrote it: no upload takes a day. */
const maxTempAgeMs = 24 * 3600 * 1000;
const OWNED = /^(\d+)-/;

/**
 * Removes the temporary files in `dir` that no live process is writing: those of a process that
 * is gone, those named with this process's id (written by an earlier process that had the same
 * id, as a restarted container does: this one has written nothing yet), those without an owner
 * (older names), and any older than a day. Call it before this process writes any. Returns how
 * many files and bytes were removed.
 */
export async function removeLeftoverTempFiles(dir: string, now = Date.now()): Promise<{ files: number; bytes: number }> {
  const removed = { files: 0, bytes: 0 };
  const names = await readdir(dir).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  });
  for (const name of names) {
    const file = path.join(dir, name);
    const stats = await lstat(file).catch(() => undefined);
    if (!stats) continue;
    const owner = OWNED.exec(name)?.[1];
    const inFlight = owner !== undefined && Number(owner) !== process.pid && isAlive(Number(owner));
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
