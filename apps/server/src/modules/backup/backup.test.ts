import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember, uploadPhotoAs } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { createTestDatabase, type TestDatabase, testEngines } from "../../../test/test-database";
import { backupCommand } from "../../cli/backup.command";
import { exportCommand } from "../../cli/export.command";
import { restoreCommand } from "../../cli/restore.command";
import type { Config } from "../../config";
import { openDatabase } from "../../db/database";
import { migrateToLatest } from "../../db/migrate";
import { ZipReader } from "../../lib/zip-reader";
import { rotatedCameraJpeg, twoTone } from "../photos/fixtures/test-images";
import { createBlobStore } from "../storage";
import { BackupService } from "./backup.service";
import { assertDatabaseEmpty } from "./database-copy";

// Issue #15 item 4, the restore drill: fill an instance, back it up while it runs, write more,
// restore the backup into an empty DATA_DIR (and database), and the restored instance exports
// exactly what the first one exported at backup time.

async function exportOf(config: Config, file: string): Promise<void> {
  const database = openDatabase(config.database);
  try {
    await migrateToLatest(database.db);
    await exportCommand.run({ args: [file], db: database.db, out: () => {}, config });
  } finally {
    await database.destroy();
  }
}

/** An archive's manifest without its date, and every file's bytes. */
async function contentsOf(file: string): Promise<{ manifest: unknown; files: Map<string, Buffer> }> {
  const zip = await ZipReader.open(file, { maxEntries: 10_000 });
  try {
    const files = new Map<string, Buffer>();
    for (const { name } of zip.entries()) files.set(name, await buffer(await zip.open(name)));
    const { exported_at: _, ...manifest } = JSON.parse(files.get("memory-box.json")!.toString()) as Record<string, unknown>;
    files.delete("memory-box.json");
    files.delete("index.html");
    return { manifest, files };
  } finally {
    zip.close();
  }
}

describe.each(testEngines())("backups on %s", (engine) => {
  let source: TestApp;
  let ann: TestMember;
  let workDir: string;
  let backupDir: string;
  const restoredDatabases: TestDatabase[] = [];

  const create = async (payload: object) => {
    const response = await source.app.inject({ method: "POST", url: "/api/v1/memories", headers: ann.headers, payload });
    expect(response.statusCode).toBe(201);
  };

  /** A configuration like the source's, on a new DATA_DIR and a new, empty database. */
  async function emptyInstance(): Promise<Config> {
    const database = await createTestDatabase(engine);
    restoredDatabases.push(database);
    // A DATA_DIR that does not exist yet, as on a new machine.
    const dataDir = path.join(await fs.mkdtemp(path.join(workDir, "restored-")), "data");
    const databaseConfig =
      database.config.engine === "sqlite"
        ? { engine: "sqlite" as const, file: path.join(dataDir, "memory-box.sqlite") }
        : database.config;
    return { ...source.config, dataDir, database: databaseConfig, storageUrl: undefined };
  }

  beforeAll(async () => {
    workDir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-backup-"));
    backupDir = path.join(workDir, "backups");
    source = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
    ann = await createMember(source, "ann@memory-box.test", "Ann");
    const photo = await uploadPhotoAs(source, ann, await rotatedCameraJpeg(twoTone(200, 150)));
    await create({ title: "Before the backup", tags: ["kept"], memory_date: "2023-04-05", photo_ids: [photo] });
  });
  afterAll(async () => {
    await source?.close();
    for (const database of restoredDatabases) await database.drop();
    await fs.rm(workDir, { recursive: true, force: true });
  });

  it("restores into an empty instance exactly what was there at backup time, and only into an empty one", async () => {
    const lines: string[] = [];
    const database = openDatabase(source.config.database);
    try {
      await backupCommand.run({
        args: ["--to", backupDir],
        db: database.db,
        out: (line) => lines.push(line),
        config: source.config,
      });
    } finally {
      await database.destroy();
    }
    expect(lines[0]).toMatch(/^Backed up to .* the database and \d+ stored files/);
    const [snapshot] = await fs.readdir(backupDir);
    // Password hashes and keys are in it: nobody but the server's account may look inside.
    expect((await fs.stat(path.join(backupDir, snapshot!))).mode & 0o077).toBe(0);
    const atBackup = path.join(workDir, "at-backup.zip");
    await exportOf(source.config, atBackup);

    // Written after the backup: not in what is restored.
    await create({ title: "After the backup" });

    const target = await emptyInstance();
    const restored: string[] = [];
    await restoreCommand.run({ args: [path.join(backupDir, snapshot!)], out: (line) => restored.push(line), config: target });
    expect(restored[0]).toMatch(/^Restored the database and \d+ stored files/);
    const afterRestore = path.join(workDir, "restored.zip");
    await exportOf(target, afterRestore);

    const [before, after] = [await contentsOf(atBackup), await contentsOf(afterRestore)];
    expect(after.manifest).toEqual(before.manifest);
    expect([...after.files.keys()].sort()).toEqual([...before.files.keys()].sort());
    for (const [name, bytes] of before.files) expect(after.files.get(name)?.equals(bytes), name).toBe(true);

    // The restored instance signs its members in as before: accounts, passwords and keys came back.
    const restoredApp = await createTestApp(engine, { sharedDatabase: target.database });
    try {
      const signIn = await restoredApp.app.inject({
        method: "POST",
        url: "/auth/v1/token?grant_type=password",
        headers: { "x-supabase-api-version": "2024-01-01" },
        payload: { email: "ann@memory-box.test", password: "correct horse battery" },
      });
      expect(signIn.statusCode).toBe(200);
    } finally {
      await restoredApp.close();
    }

    // Never over a living instance.
    await expect(restoreCommand.run({ args: [path.join(backupDir, snapshot!)], out: () => {}, config: target })).rejects.toThrow(
      /restored only into an empty instance/,
    );
  });

  it("leaves the target as empty as it was when a restore fails half-way (a snapshot missing a file)", async () => {
    const [snapshot] = await fs.readdir(backupDir);
    const damaged = path.join(workDir, "damaged-snapshot");
    await fs.cp(path.join(backupDir, snapshot!), damaged, { recursive: true });
    const objects = (await fs.readdir(path.join(damaged, "objects"), { recursive: true, withFileTypes: true })).filter((entry) =>
      entry.isFile(),
    );
    // The last file the restore would put: every other one is already stored when it fails.
    await fs.rm(path.join(objects.at(-1)!.parentPath, objects.at(-1)!.name));

    const target = await emptyInstance();
    await expect(restoreCommand.run({ args: [damaged], out: () => {}, config: target })).rejects.toThrow();
    const stored = await fs.readdir(target.dataDir, { recursive: true, withFileTypes: true }).catch(() => []);
    expect(stored.filter((entry) => entry.isFile() && entry.parentPath.includes("objects"))).toEqual([]);
    await expect(assertDatabaseEmpty(target.database)).resolves.toBeUndefined();
  });

  it("links what the previous snapshot has instead of copying it, and keeps only the newest ones", async () => {
    const store = createBlobStore(undefined, source.config.dataDir);
    const dir = path.join(workDir, "kept");
    let clock = Date.UTC(2026, 0, 1);
    const service = new BackupService({
      database: source.config.database,
      blobStore: store,
      backupDir: dir,
      keep: 2,
      now: () => new Date((clock += 1000)),
    });
    try {
      const first = await service.run();
      const second = await service.run();
      expect(second.linked).toBe(first.objects);
      const [photoFile] = (await fs.readdir(path.join(first.snapshot, "objects"), { recursive: true })).filter((name) =>
        name.endsWith(".jpg"),
      );
      const [a, b] = [
        await fs.stat(path.join(first.snapshot, "objects", photoFile!)),
        await fs.stat(path.join(second.snapshot, "objects", photoFile!)),
      ];
      expect(b.ino).toBe(a.ino);

      const third = await service.run();
      expect(await service.snapshots()).toEqual([second.snapshot, third.snapshot]);
      // The removed snapshot's files live on where a kept one links them.
      expect((await fs.stat(path.join(third.snapshot, "objects", photoFile!))).size).toBe(a.size);
    } finally {
      await store.close();
    }
  });
});
