import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import pLimit from "p-limit";
import { z } from "zod";
import type { DatabaseConfig } from "../../config";
import { openDatabase } from "../../db/database";
import { AppError } from "../../errors";
import { MediaJobsRepository } from "../media-jobs";
import { type BlobStore, BlobNotFoundError } from "../storage";
import { webCopyJobKind } from "../videos";
import { assertDatabaseEmpty, copyDatabase, databaseFileName, restoreDatabase } from "./database-copy";

/** `backup.json`, written last: a snapshot folder without it is unfinished and never restored from. */
const BackupManifest = z.object({
  format: z.literal("memory-box-backup"),
  version: z.literal(1),
  created_at: z.string(),
  engine: z.enum(["sqlite", "postgres"]),
  database: z.string(),
  objects: z.array(z.object({ key: z.string(), size: z.number().int().min(0), content_type: z.string() })),
});
type BackupManifest = z.infer<typeof BackupManifest>;

const manifestName = "backup.json";
const objectsDir = "objects";
/** Snapshot folders are named by their time, so their names sort in time order. */
const snapshotName = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

export interface BackupSummary {
  snapshot: string;
  objects: number;
  /** Objects taken over from the previous snapshot by a hard link instead of a copy. */
  linked: number;
  bytes: number;
}

/**
 * Backups (issue #15 item 4, ADR 0029): a snapshot folder per run in `backupDir` with a consistent
 * copy of the database and every stored object (photos and their renditions), taken while the
 * server runs. Objects never change under a key, so one already in the previous snapshot is hard
 * linked, not copied: a daily backup of a large collection costs only what is new. `keep` bounds
 * how many snapshots stay.
 */
export class BackupService {
  /** One backup at a time: a scheduled one and an operator's do not interleave. */
  private readonly turns = pLimit(1);

  constructor(
    private readonly deps: {
      database: DatabaseConfig;
      blobStore: BlobStore;
      backupDir: string;
      keep: number;
      now?: () => Date;
    },
  ) {}

  run(): Promise<BackupSummary> {
    return this.turns(() => this.runNow());
  }

  private async runNow(): Promise<BackupSummary> {
    const { backupDir } = this.deps;
    // Snapshots hold password hashes, signing keys and every photo: only this account may read them.
    await fsp.mkdir(backupDir, { recursive: true, mode: 0o700 });
    const createdAt = this.deps.now?.() ?? new Date();
    const name = createdAt.toISOString().replaceAll(":", "-").replace(".", "-");
    const partial = path.join(backupDir, `.partial-${name}`);
    const previous = (await this.snapshots()).at(-1);
    await fsp.rm(partial, { recursive: true, force: true });
    await fsp.mkdir(partial, { mode: 0o700 });
    await fsp.mkdir(path.join(partial, objectsDir));
    try {
      const objects = new Map<string, BackupManifest["objects"][number]>();
      const summary: BackupSummary = { snapshot: path.join(backupDir, name), objects: 0, linked: 0, bytes: 0 };
      // Objects before and after the database copy: every object its rows name is in one of the
      // two passes (an object deleted in between is simply one more file in the snapshot).
      const earlier = previous ? { snapshot: previous, objects: await this.objectsOf(previous) } : undefined;
      await this.copyObjects(partial, earlier, objects, summary);
      await copyDatabase(this.deps.database, path.join(partial, databaseFileName(this.deps.database)));
      await this.copyObjects(partial, earlier, objects, summary);
      const manifest: BackupManifest = {
        format: "memory-box-backup",
        version: 1,
        created_at: createdAt.toISOString(),
        engine: this.deps.database.engine,
        database: databaseFileName(this.deps.database),
        objects: [...objects.values()],
      };
      await fsp.writeFile(path.join(partial, manifestName), JSON.stringify(manifest));
      await fsp.rename(partial, summary.snapshot);
      await this.prune();
      return summary;
    } catch (error) {
      await fsp.rm(partial, { recursive: true, force: true });
      throw error;
    }
  }

  private async copyObjects(
    snapshot: string,
    /** The newest finished snapshot and what it holds (read once per backup): its objects are linked, not copied. */
    previous: { snapshot: string; objects: Map<string, BackupManifest["objects"][number]> } | undefined,
    copied: Map<string, BackupManifest["objects"][number]>,
    summary: BackupSummary,
  ): Promise<void> {
    for await (const info of this.deps.blobStore.list("")) {
      if (copied.has(info.key)) continue;
      const target = path.join(snapshot, objectsDir, info.key);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      const earlier = previous?.objects.get(info.key);
      if (earlier && earlier.size === info.size && (await linked(path.join(previous!.snapshot, objectsDir, info.key), target))) {
        copied.set(info.key, earlier);
        summary.linked += 1;
      } else {
        let content;
        try {
          content = await this.deps.blobStore.get(info.key, { readChunkBytes: 1024 * 1024 });
        } catch (error) {
          // Deleted since the listing: nothing names it any more.
          if (error instanceof BlobNotFoundError) continue;
          throw error;
        }
        await pipeline(content.body, fs.createWriteStream(target, { mode: 0o600 }));
        copied.set(info.key, {
          key: info.key,
          size: content.info.size,
          content_type: content.info.contentType ?? "application/octet-stream",
        });
      }
      summary.objects += 1;
      summary.bytes += info.size;
    }
  }

  /** Finished snapshots, oldest first. */
  async snapshots(): Promise<string[]> {
    const names = await fsp.readdir(this.deps.backupDir).catch(() => [] as string[]);
    return names
      .filter((name) => snapshotName.test(name))
      .sort()
      .map((name) => path.join(this.deps.backupDir, name));
  }

  /** Removes all but the newest `keep` snapshots (hard links keep every object a remaining one has). */
  private async prune(): Promise<void> {
    const snapshots = await this.snapshots();
    for (const old of snapshots.slice(0, Math.max(0, snapshots.length - this.deps.keep))) {
      await fsp.rm(old, { recursive: true, force: true });
    }
  }

  private async objectsOf(snapshot: string): Promise<Map<string, BackupManifest["objects"][number]>> {
    const manifest = await readManifest(snapshot);
    return new Map(manifest.objects.map((object) => [object.key, object]));
  }
}

/**
 * Rebuilds an instance from a snapshot: the database (which must be empty: a new DATA_DIR, or a
 * new PostgreSQL database) and every object into the configured storage (also empty). Videos the
 * snapshot caught being prepared are prepared again by the restored server (`resumeMediaJobs`).
 */
export async function restoreSnapshot(
  snapshot: string,
  target: { database: DatabaseConfig; blobStore: BlobStore; now?: () => Date },
): Promise<{ objects: number; mediaJobs: number }> {
  const manifest = await readManifest(snapshot);
  if (manifest.engine !== target.database.engine) {
    throw new AppError("validation_failed", {
      message: `This backup is of a ${manifest.engine} database; the configured one is ${target.database.engine}. To move between engines, export and import (docs/operating.md, "Your data").`,
    });
  }
  for await (const _ of target.blobStore.list("")) {
    throw new AppError("validation_failed", {
      message:
        "A backup is restored only into an empty instance, and the storage already holds photos. Point STORAGE_URL (or DATA_DIR) at a new, empty place.",
    });
  }
  await assertDatabaseEmpty(target.database);
  // Files first, the database last (in one step): a failure anywhere removes the files put so
  // far and leaves no database, so the instance is as empty as before, never rows without files.
  const put: string[] = [];
  try {
    for (const object of manifest.objects) {
      put.push(object.key);
      // Opened before the store is asked: a file missing from the snapshot fails here, not as an
      // error event of a stream nobody listens to yet.
      const file = await fsp.open(path.join(snapshot, objectsDir, object.key));
      try {
        await target.blobStore.put(object.key, file.createReadStream(), { contentType: object.content_type });
      } finally {
        await file.close().catch(() => undefined);
      }
    }
    await restoreDatabase(target.database, path.join(snapshot, manifest.database));
  } catch (error) {
    await Promise.all(put.map((key) => target.blobStore.delete(key).catch(() => undefined)));
    throw error;
  }
  const mediaJobs = await resumeMediaJobs(target.database, (target.now?.() ?? new Date()).toISOString());
  return { objects: manifest.objects.length, mediaJobs };
}

/**
 * The media jobs of a restored database (ADR 0054, 0055), as the snapshot caught them: a running
 * job's lease names a process of the old instance, so it is queued again at once, its cut attempt
 * not counted (else a video on its last attempt would fail for the backup's sake); a video still
 * waiting without a job gets one. Queued jobs stay queued. The restored server's runner takes
 * them at its start. A snapshot older than the media jobs has nothing to resume. Returns how many
 * jobs will run.
 */
async function resumeMediaJobs(config: DatabaseConfig, now: string): Promise<number> {
  const database = openDatabase(config);
  try {
    const tables = await database.db.introspection.getTables();
    if (!tables.some((table) => table.name === "media_jobs")) return 0;
    const { requeued, enqueued } = await new MediaJobsRepository(database.db).requeueAfterRestore(webCopyJobKind, now);
    return requeued + enqueued;
  } finally {
    await database.destroy();
  }
}

async function readManifest(snapshot: string): Promise<BackupManifest> {
  let text: string;
  try {
    text = await fsp.readFile(path.join(snapshot, manifestName), "utf8");
  } catch {
    throw new AppError("validation_failed", {
      message: `${snapshot} is not a finished Memory Box backup: it has no ${manifestName}.`,
    });
  }
  const parsed = BackupManifest.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new AppError("validation_failed", { message: `${snapshot}/${manifestName} is not a Memory Box backup of version 1.` });
  return parsed.data;
}

/** A hard link from the previous snapshot; false when the file system cannot (the object is copied instead). */
async function linked(from: string, to: string): Promise<boolean> {
  try {
    await fsp.link(from, to);
    return true;
  } catch {
    return false;
  }
}
