import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openMigratedTestDatabase, testEngines } from "../../../test/test-database";
import { LocalBlobStore } from "../storage";
import { twoTone } from "./fixtures/test-images";
import { newUser } from "../auth/core/account-rules";
import { PhotosRepository } from "./photos.repository";
import { photoRow } from "../../../test/photo-rows";
import { classifyError } from "../../errors";
import { PhotoFilesReconciler } from "./photo-files.reconciler";
import { PhotosService, unattachedPhotoLifetimeMs, type PhotosServiceDeps } from "./photos.service";

describe.each(testEngines())("photo files on %s", (engine) => {
  let database: Awaited<ReturnType<typeof openMigratedTestDatabase>>;
  let dir: string;
  let clock: Date;
  let service: PhotosService;
  let store: LocalBlobStore;
  let ownerId: string;
  let warnings: object[];
  const sessionId = "8a0c1f5e-0000-4000-8000-00000000005e";
  const deps = (): PhotosServiceDeps => ({
    photos: new PhotosRepository(database.db),
    blobStore: store,
    urlSecret: Buffer.alloc(32, 7),
    uploadDir: path.join(dir, "uploads"),
    log: { warn: (details) => warnings.push(details) },
    now: () => clock,
  });

  beforeEach(async () => {
    database = await openMigratedTestDatabase(engine);
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-sweep-"));
    store = new LocalBlobStore(path.join(dir, "storage"));
    clock = new Date("2026-01-01T12:00:00Z");
    service = new PhotosService(deps());
    warnings = [];
    ownerId = "8a0c1f5e-0000-4000-8000-000000000001";
    const now = clock.toISOString();
    await database.db
      .insertInto("users")
      .values({ ...newUser("ann@memory-box.test", null, {}, now), id: ownerId, email_confirmed_at: now })
      .execute();
  });
  afterEach(async () => {
    await database.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const upload = async () =>
    service.receive(
      Readable.from([await twoTone(64, 48).jpeg().toBuffer()]),
      () => false,
      async () => {},
      (file) => service.acceptFile(ownerId, file),
    );
  const objectCount = async () => {
    let count = 0;
    for await (const _object of store.list("memory-photos/")) count += 1;
    return count;
  };

  it("grants photo access for its lifetime by the service's clock, and serves renditions only", async () => {
    const photo = await upload();
    const grant = service.grantAccess(sessionId);
    expect(grant.expires).toBe(clock.getTime() / 1000 + 600);
    expect(service.readAccess(grant.value)).toEqual({ sessionId, expires: grant.expires });
    clock = new Date(grant.expires * 1000 - 1);
    expect(service.readAccess(grant.value)?.sessionId).toBe(sessionId);
    clock = new Date(grant.expires * 1000);
    expect(service.readAccess(grant.value)).toBeNull();

    const key = decodeURIComponent(photo.thumbnail_url.replace("/storage/v1/object/authenticated/memory-photos/", ""));
    const opened = await service.open(key, undefined, "viewer");
    opened.body.destroy();
    const [row] = await database.db.selectFrom("photos").selectAll().where("id", "=", photo.id).execute();
    await expect(service.open(row!.object_key, undefined, "viewer")).rejects.toMatchObject({ code: "object_not_found" });
    await expect(service.assertServed(row!.object_key, "viewer")).rejects.toMatchObject({ code: "object_not_found" });
    await expect(service.assertServed(row!.display_key!, "viewer")).resolves.toBeUndefined();
  });

  it("refuses forged, altered and other keys' access cookies", () => {
    const grant = service.grantAccess(sessionId);
    const [id, expires, signature] = grant.value.split(".") as [string, string, string];
    const forged = [
      "",
      `${id}.${expires}`,
      `${id}.${Number(expires) + 3600}.${signature}`,
      `${"0".repeat(8)}${id.slice(8)}.${expires}.${signature}`,
      `${id}.${expires}.${"A".repeat(43)}`,
      `${id}.${expires}.${signature}x`,
      new PhotosService({ ...deps(), urlSecret: Buffer.alloc(32, 8) }).grantAccess(sessionId).value,
    ];
    for (const value of forged) expect(service.readAccess(value), value).toBeNull();
  });

  it("never lets an access cookie live longer than ten minutes", () => {
    const long = new PhotosService({ ...deps(), accessTtlSeconds: 3600 });
    expect(long.accessTtlSeconds).toBe(600);
    expect(new PhotosService({ ...deps(), accessTtlSeconds: 60 }).grantAccess(sessionId).expires).toBe(
      clock.getTime() / 1000 + 60,
    );
  });

  it("answers a full disk mid-upload with 507 insufficient_storage and leaves no file or row behind", async () => {
    // The third file of the upload meets a full disk, as the file system reports it.
    let puts = 0;
    const put = store.put.bind(store);
    store.put = async (...args) => {
      puts += 1;
      if (puts === 3) throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", errno: -28 });
      return put(...args);
    };

    const failed = await upload().catch((error: unknown) => error);

    const { error, operatorMustAct } = classifyError(failed);
    expect(error).toMatchObject({ code: "insufficient_storage", statusCode: 507 });
    expect(error.message).toMatch(/storage is full/);
    expect(operatorMustAct).toBe(true);
    expect(await objectCount()).toBe(0);
    expect(await database.db.selectFrom("photos").selectAll().execute()).toEqual([]);
    expect(await fs.readdir(path.join(dir, "uploads"))).toEqual([]);
  });

  const reconciler = () =>
    new PhotoFilesReconciler({
      photos: new PhotosRepository(database.db),
      blobStore: store,
      log: { warn: (details) => warnings.push(details) },
      now: () => clock,
    });

  it("reconciles files and rows: removes files no row names once past the grace period, reports rows whose files are gone", async () => {
    const kept = await upload();
    const damaged = await upload();
    const [damagedRow] = await database.db.selectFrom("photos").selectAll().where("id", "=", damaged.id).execute();
    await store.delete(`memory-photos/${damagedRow!.display_key}`);
    // What a crash between storing the files and writing the row leaves behind.
    await store.put(`memory-photos/${ownerId}/1767268800000-0123456789ab.jpg`, Buffer.from("orphan original"));
    await store.put(`memory-photos/${ownerId}/1767268800000-0123456789ab.thumb.webp`, Buffer.from("orphan thumb"));
    expect(await objectCount()).toBe(9);

    // Files younger than the grace period may still be waiting for their row: kept.
    clock = new Date(Date.now() + 60_000);
    const early = await reconciler().run(3600_000);
    expect(early).toMatchObject({ filesChecked: 9, orphansRemoved: 0 });

    clock = new Date(Date.now() + 2 * 3600_000);
    const later = await reconciler().run(3600_000, 2);
    expect(later).toEqual({
      filesChecked: 9,
      orphansRemoved: 2,
      orphanBytes: "orphan original".length + "orphan thumb".length,
      missingCount: 1,
      missing: [{ photoId: damaged.id, memoryId: null, keys: [damagedRow!.display_key] }],
    });
    expect(warnings).toContainEqual(expect.objectContaining({ photoId: damaged.id }));
    expect(await objectCount()).toBe(7);
    const keptKeys = await database.db.selectFrom("photos").selectAll().where("id", "=", kept.id).executeTakeFirstOrThrow();
    for (const key of [keptKeys.object_key, keptKeys.preview_key, keptKeys.thumbnail_key, keptKeys.display_key!]) {
      expect(await store.stat(`memory-photos/${key}`), key).not.toBeNull();
    }
  });

  it("removes at start-up what interrupted uploads left, never another live process's upload", async () => {
    const uploads = path.join(dir, "uploads");
    await fs.mkdir(uploads, { recursive: true });
    const crashed = path.join(uploads, "999999999-0b9c6c1e-8d0a-4c55-9a57-2f1f9b1c1d11.upload");
    const otherLiveProcess = path.join(uploads, `${process.ppid}-0b9c6c1e-8d0a-4c55-9a57-2f1f9b1c1d12.upload`);
    await fs.writeFile(crashed, "half a photo");
    await fs.writeFile(otherLiveProcess, "a photo arriving");

    expect(await service.removeLeftoverUploads()).toEqual({ files: 1, bytes: "half a photo".length });
    expect(await fs.readdir(uploads)).toEqual([path.basename(otherLiveProcess)]);
  });

  it("removes uploads never attached within a day, with their files, and keeps the rest", async () => {
    const stale = await upload();
    const attached = await upload();
    await database.db
      .insertInto("memories")
      .values({
        id: "8a0c1f5e-0000-4000-8000-0000000000aa",
        title: "Kept",
        content: null,
        memory_date: null,
        user_id: ownerId,
        updated_by: ownerId,
        created_at: clock.toISOString(),
        updated_at: clock.toISOString(),
        version: 1,
        sort_key: "x",
        search_text: "kept",
      })
      .execute();
    await database.db
      .updateTable("photos")
      .set({ memory_id: "8a0c1f5e-0000-4000-8000-0000000000aa", position: 0 })
      .where("id", "=", attached.id)
      .execute();
    expect(await objectCount()).toBe(8);

    clock = new Date(clock.getTime() + unattachedPhotoLifetimeMs - 60_000);
    expect(await service.sweepUnattached()).toBe(0);
    const fresh = await upload();

    clock = new Date(clock.getTime() + 2 * 60_000);
    expect(await service.sweepUnattached()).toBe(1);
    const remaining = (await database.db.selectFrom("photos").select("id").execute()).map((row) => row.id).sort();
    expect(remaining).toEqual([attached.id, fresh.id].sort());
    expect(remaining).not.toContain(stale.id);
    expect(await objectCount()).toBe(8);
  });

  it("renders the display copies of photos uploaded before there were any, and skips an unreadable original", async () => {
    const older = await upload();
    const broken = await upload();
    const rows = await database.db.selectFrom("photos").selectAll().execute();
    for (const row of rows) await store.delete(`memory-photos/${row.display_key}`);
    await database.db.updateTable("photos").set({ display_key: null }).execute();
    const brokenRow = rows.find((row) => row.id === broken.id)!;
    await store.put(`memory-photos/${brokenRow.object_key}`, Buffer.from("no longer an image"));
    // Meanwhile the photo shows its preview: never the original.
    expect(service.present({ ...brokenRow, display_key: null })).toMatchObject({ content_type: "image/webp" });

    expect(await service.renderMissingDisplayCopies(1)).toBe(1);

    const after = await database.db.selectFrom("photos").selectAll().orderBy("id").execute();
    const olderRow = after.find((row) => row.id === older.id)!;
    expect(olderRow.display_key).toBe(olderRow.object_key.replace(/\.jpg$/, ".display.jpg"));
    expect(await store.stat(`memory-photos/${olderRow.display_key}`)).not.toBeNull();
    expect(after.find((row) => row.id === broken.id)!.display_key).toBeNull();
    expect(warnings).toEqual([expect.objectContaining({ photoId: broken.id })]);
    expect(await objectCount()).toBe(7);
  });
});

describe("photo URLs in the API form", () => {
  it("are stable paths to the renditions, never to the original, whatever the time", () => {
    let clock = new Date("2026-01-01T12:00:01Z");
    const service = new PhotosService({
      photos: {} as PhotosRepository,
      blobStore: {} as LocalBlobStore,
      urlSecret: Buffer.alloc(32, 9),
      uploadDir: "/nonexistent",
      log: { warn: () => {} },
      now: () => clock,
    });
    const row = photoRow("user/two words#?", { id: "8a0c1f5e-0000-4000-8000-0000000000f1" });
    const first = service.present(row);
    expect([first.url, first.preview_url, first.thumbnail_url]).toEqual([
      "/storage/v1/object/authenticated/memory-photos/user/two%20words%23%3F.display.jpg",
      "/storage/v1/object/authenticated/memory-photos/user/two%20words%23%3F.preview.webp",
      "/storage/v1/object/authenticated/memory-photos/user/two%20words%23%3F.thumb.webp",
    ]);
    clock = new Date("2026-03-01T00:00:00Z");
    expect(service.present(row)).toEqual(first);
  });
});
