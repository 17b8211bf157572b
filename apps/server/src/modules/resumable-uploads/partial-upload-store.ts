import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { FileStore } from "@tus/file-store";
import type { Upload } from "@tus/server";

/** What the store keeps of an upload beside its bytes (`{id}.json`), as @tus/file-store writes it. */
export interface PartialUploadInfo {
  id: string;
  size?: number;
  metadata?: Record<string, string | null>;
  creation_date?: string;
}

/** Bytes a write to disk may hold while the disk catches up: the socket is read on meanwhile. */
const writeBufferBytes = 1024 * 1024;

/** An upload's id: 128 random bits as 32 hex digits (the tus server's own naming, said outright). */
export const uploadIdPattern = /^[0-9a-f]{32}$/;

/**
 * @tus/file-store with three changes. The extensions offered are creation, creation-with-upload,
 * termination and expiration: no deferred length. A write that fails keeps its cause (a full
 * disk is then 507, not tus's bare 500). And an upload expires after a period *without
 * progress*, not after a period since it began: its "creation date", as the tus handlers read it
 * for their expiry checks and `Upload-Expires`, is the last time a byte arrived (the data file's
 * modification time), so a slow upload that keeps moving never expires and a stalled one does.
 */
export class PartialUploadStore extends FileStore {
  constructor(directory: string, idleLifetimeMs: number) {
    fs.mkdirSync(directory, { recursive: true, mode: 0o700 });
    super({ directory, expirationPeriodInMilliseconds: idleLifetimeMs });
    this.extensions = ["creation", "creation-with-upload", "termination", "expiration"];
  }

  /** The upload's data file. Ids are checked against `uploadIdPattern` before they reach the store. */
  dataFile(id: string): string {
    return path.join(this.directory, id);
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const file = fs.createWriteStream(this.dataFile(id), { flags: "r+", start: offset, highWaterMark: writeBufferBytes });
    // Unlike @tus/file-store's own write, a failure keeps its cause: a full disk is then 507, and a
    // client that went away is still recognised as such by the tus handlers.
    await pipeline(readable, file);
    return offset + file.bytesWritten;
  }

  /**
   * Uploads completed by their creation request, whose files are gone already: the creation
   * handler reads the upload once more after completing it (for `Upload-Expires`), and is told
   * it is complete.
   */
  readonly completedAtCreation = new Map<string, Upload>();

  override async getUpload(id: string): Promise<Upload> {
    const completed = this.completedAtCreation.get(id);
    if (completed) {
      this.completedAtCreation.delete(id);
      return completed;
    }
    const upload = await super.getUpload(id);
    const stats = await fsp.stat(this.dataFile(id)).catch(() => undefined);
    if (stats) upload.creation_date = stats.mtime.toISOString();
    return upload;
  }

  /** The upload's description as stored, or undefined if there is none (unknown, finished or swept). */
  async info(id: string): Promise<PartialUploadInfo | undefined> {
    return this.configstore.get(id);
  }

  /**
   * Removes uploads with no progress for the idle lifetime, and what a completion interrupted by
   * a crash left (`*.completing`, kept as long). Returns how many uploads were removed.
   */
  override async deleteExpired(now = Date.now()): Promise<number> {
    const lifetime = this.getExpiration();
    const names = await fsp.readdir(this.directory).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    });
    const present = new Set(names);
    let removed = 0;
    for (const name of names) {
      const id = name.endsWith(".json") ? name.slice(0, -".json".length) : name.split(".")[0]!;
      if (!uploadIdPattern.test(id)) continue;
      // An upload is its data file and its description; judged once, by the newer of the two.
      if (name !== `${id}.json` && present.has(`${id}.json`)) continue;
      const files = name === `${id}.json` ? [name, ...(present.has(id) ? [id] : [])] : [name];
      const ages = await Promise.all(files.map((file) => fsp.stat(path.join(this.directory, file)).catch(() => undefined)));
      const lastProgress = Math.max(...ages.map((stats) => stats?.mtimeMs ?? 0));
      if (now - lastProgress <= lifetime) continue;
      await Promise.all(files.map((file) => fsp.rm(path.join(this.directory, file), { force: true })));
      removed += 1;
    }
    return removed;
  }
}
