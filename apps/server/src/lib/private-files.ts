import fs from "node:fs";
import type { Config } from "../config";
import { parseStorageUrl } from "./storage-url";

/**
 * Everything Memory Box writes is its members' own: the database (with authenticator secrets),
 * the photos, the mail outbox, temporary uploads and backups. Files are created readable by this
 * user only (the entry points set the umask), and at every start the folders that hold them are
 * closed to other local users (0700), which also covers files made before by an older version or
 * by hand with 0644: nobody else can reach into the folder. The database's own files are
 * tightened too, for the case where DATABASE_URL points elsewhere.
 */
export function keepDataPrivate(config: Pick<Config, "dataDir" | "database" | "storageUrl" | "backups">): void {
  fs.mkdirSync(config.dataDir, { recursive: true, mode: privateFolder });
  const folders = [config.dataDir];
  if (config.storageUrl !== undefined) {
    const location = parseStorageUrl(config.storageUrl);
    if (location.kind === "local") folders.push(location.rootDir);
  }
  if (config.backups.dir !== undefined) folders.push(config.backups.dir);
  for (const folder of folders) tighten(folder, privateFolder);
  if (config.database.engine === "sqlite") {
    // Its folder is DATA_DIR unless DATABASE_URL names another file, whose folder may be shared.
    for (const suffix of ["", "-wal", "-shm"]) tighten(`${config.database.file}${suffix}`, privateFile);
  }
}

/** New files and folders of this process: rw for this user only. Called by the entry points. */
export function createPrivateFiles(): void {
  process.umask(0o077);
}

const privateFolder = 0o700;
const privateFile = 0o600;

function tighten(target: string, mode: number): void {
  try {
    const stats = fs.statSync(target);
    if ((stats.mode & 0o777) !== mode) fs.chmodSync(target, mode);
  } catch (error) {
    // Not there yet (made later, under the umask), or not ours to change (a shared parent).
    if ((error as NodeJS.ErrnoException).code !== "ENOENT" && (error as NodeJS.ErrnoException).code !== "EPERM") throw error;
  }
}
