import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { photoRow } from "../../../test/photo-rows";
import { startTestS3Server, type TestS3Server } from "../../../test/s3-test-server";
import { openMigratedTestDatabase } from "../../../test/test-database";
import { engineStorageCombinations } from "../../../test/test-matrix";
import { type BlobStore, LocalBlobStore, S3BlobStore } from "../storage";
import { missingExamples, PhotoFilesReconciler } from "./photo-files.reconciler";
import { PhotosRepository } from "./photos.repository";

const combinations = engineStorageCombinations("S3 (s3rver), in a folder of a shared bucket");

describe.each(combinations)("the photo file reconciler on %s with %s storage", (engine, storage) => {
  let database: Awaited<ReturnType<typeof openMigratedTestDatabase>>;
  let s3: TestS3Server | undefined;
  let dir: string;
  let store: BlobStore;
  /** The same bucket seen from outside Memory Box's folder, where other programs keep their objects. */
  let bucketRoot: S3BlobStore | undefined;

  beforeAll(async () => {
    database = await openMigratedTestDatabase(engine);
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-reconciler-"));
    if (storage === "local disk") {
      store = new LocalBlobStore(path.join(dir, "storage"));
    } else {
      s3 = await startTestS3Server();
      store = new S3BlobStore({ ...s3.connection, prefix: "memory-box", listPageSize: 2 });
      bucketRoot = new S3BlobStore(s3.connection);
    }
  });
  afterAll(async () => {
    await store.close();
    await bucketRoot?.close();
    await s3?.stop();
    await database.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const files = async (source: BlobStore, prefix: string) => {
    const keys: string[] = [];
    for await (const object of source.list(prefix)) keys.push(object.key);
    return keys.sort();
  };

  it("removes only photo files no row names once past the grace period, and reports rows whose files are gone", async () => {
    const kept = photoRow("owner/1767268800000-aaaaaaaaaaaa");
    const damaged = photoRow("owner/1767268800000-bbbbbbbbbbbb");
    await database.db.insertInto("photos").values([kept, damaged]).execute();
    const named = [kept.object_key, kept.preview_key, kept.thumbnail_key, kept.display_key!];
    for (const key of [...named, damaged.object_key, damaged.preview_key, damaged.thumbnail_key])
      await store.put(`memory-photos/${key}`, Buffer.from(key));
    const orphans = ["owner/1767268800000-cccccccccccc.jpg", "owner/1767268800000-cccccccccccc.preview.webp"];
    for (const key of orphans) await store.put(`memory-photos/${key}`, Buffer.from("orphan"));
    // Not photo files: another bucket of the store, and objects of other programs outside its folder.
    await store.put("avatars/owner.png", Buffer.from("not a photo"));
    await bucketRoot?.put(`memory-photos/${orphans[0]}`, Buffer.from("someone else's"));
    await bucketRoot?.put("backups/2026-01-01.tar", Buffer.from("someone else's"));

    const warnings: object[] = [];
    const reconciler = (at: Date) =>
      new PhotoFilesReconciler({
        photos: new PhotosRepository(database.db),
        blobStore: store,
        log: { warn: (details) => warnings.push(details) },
        now: () => at,
      });

    // S3 dates objects to the second, so "young" is an hour ahead of any rounding.
    const young = await reconciler(new Date(Date.now() + 60_000)).run(3600_000, 2);
    expect(young).toMatchObject({ filesChecked: 9, orphansRemoved: 0 });

    const old = await reconciler(new Date(Date.now() + 2 * 3600_000)).run(3600_000, 2);
    expect(old).toEqual({
      filesChecked: 9,
      orphansRemoved: 2,
      orphanBytes: 2 * "orphan".length,
      missingCount: 1,
      missing: [{ photoId: damaged.id, memoryId: null, keys: [damaged.display_key] }],
    });
    expect(warnings).toEqual([
      { photoId: damaged.id, memoryId: null, keys: [damaged.display_key] },
      { photoId: damaged.id, memoryId: null, keys: [damaged.display_key] },
    ]);
    expect(await files(store, "memory-photos/")).toEqual(
      [...named, damaged.object_key, damaged.preview_key, damaged.thumbnail_key].map((key) => `memory-photos/${key}`).sort(),
    );
    expect(await files(store, "avatars/")).toEqual(["avatars/owner.png"]);
    if (bucketRoot) {
      expect(await files(bucketRoot, "memory-photos/")).toEqual([`memory-photos/${orphans[0]}`]);
      expect(await files(bucketRoot, "backups/")).toEqual(["backups/2026-01-01.tar"]);
    }
  });

  it("counts every row whose files are gone but logs only the first ones, then one line for the rest", async () => {
    const lost = Array.from({ length: missingExamples + 5 }, (_, index) =>
      photoRow(`lost/1767268800000-${index.toString(16).padStart(12, "0")}`),
    );
    await database.db.insertInto("photos").values(lost).execute();
    const warnings: object[] = [];
    const result = await new PhotoFilesReconciler({
      photos: new PhotosRepository(database.db),
      blobStore: store,
      log: { warn: (details) => warnings.push(details) },
    }).run(3600_000, 20);

    expect(result.missingCount).toBe(lost.length + 1);
    expect(result.missing).toHaveLength(missingExamples);
    expect(warnings).toHaveLength(missingExamples + 1);
    expect(warnings.at(-1)).toEqual({ rowsMissingFiles: lost.length + 1, logged: missingExamples });
    await database.db.deleteFrom("photos").where("object_key", "like", "lost/%").execute();
  });
});
