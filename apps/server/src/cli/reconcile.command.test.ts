import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { photoRow } from "../../test/photo-rows";
import { openMigratedTestDatabase, testEngines } from "../../test/test-database";
import { loadConfig, type Config } from "../config";
import { LocalBlobStore } from "../modules/storage";
import { UsageError } from "./command";
import { reconcileCommand } from "./reconcile.command";

describe.each(testEngines())("the reconcile command on %s", (engine) => {
  let database: Awaited<ReturnType<typeof openMigratedTestDatabase>>;
  let dataDir: string;
  let config: Config;
  let lines: string[];
  let store: LocalBlobStore;

  beforeEach(async () => {
    database = await openMigratedTestDatabase(engine);
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-reconcile-"));
    config = loadConfig({ DATA_DIR: dataDir });
    store = new LocalBlobStore(path.join(dataDir, "storage"));
    lines = [];
  });
  afterEach(async () => {
    await database.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const reconcile = (...args: string[]) =>
    reconcileCommand.run({ args, db: database.db, out: (line) => lines.push(line), config });

  it("removes a crash's leftovers at once with --grace-hours 0, keeps every file a photo names, and lists missing ones", async () => {
    const kept = photoRow("owner/1767268800000-aaaaaaaaaaaa");
    const broken = photoRow("owner/1767268800000-bbbbbbbbbbbb");
    await database.db.insertInto("photos").values([kept, broken]).execute();
    for (const key of [kept.object_key, kept.preview_key, kept.thumbnail_key, kept.display_key!, broken.object_key]) {
      await store.put(`memory-photos/${key}`, Buffer.from(key));
    }
    await store.put("memory-photos/owner/1767268800000-cccccccccccc.jpg", Buffer.from("orphan"));
    await fs.mkdir(path.join(dataDir, "uploads"));
    await fs.writeFile(path.join(dataDir, "uploads", "999999999-0b9c6c1e-8d0a-4c55-9a57-2f1f9b1c1d11.upload"), "half");

    await reconcile("--grace-hours", "0");

    expect(lines).toContainEqual(expect.stringMatching(/^missing: .*"photoId":"/));
    expect(lines.slice(-3)).toEqual([
      "Removed 1 leftover upload file(s) (4 bytes).",
      "Checked 6 photo file(s); removed 1 that no photo names (6 bytes).",
      "1 photo(s) have missing files.",
    ]);
    expect(await store.stat("memory-photos/owner/1767268800000-cccccccccccc.jpg")).toBeNull();
    for (const key of [kept.object_key, kept.display_key!, broken.object_key])
      expect(await store.stat(`memory-photos/${key}`)).not.toBeNull();
    expect(await fs.readdir(path.join(dataDir, "uploads"))).toEqual([]);
  });

  it("keeps young files by default: they may still be waiting for their photo", async () => {
    await store.put("memory-photos/owner/1767268800000-cccccccccccc.jpg", Buffer.from("young"));
    await reconcile();
    expect(lines.at(-2)).toBe("Checked 1 photo file(s); removed 0 that no photo names (0 bytes).");
  });

  it("refuses a grace period that is not a whole number of hours", async () => {
    await expect(reconcile("--grace-hours", "-1")).rejects.toThrow(UsageError);
    await expect(reconcile("--grace-hours", "soon")).rejects.toThrow(UsageError);
  });
});
