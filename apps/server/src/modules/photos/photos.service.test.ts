import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openMigratedTestDatabase, testEngines } from "../../../test/test-database";
import { LocalBlobStore } from "../storage";
import { twoTone } from "./fixtures/test-images";
import { newUser } from "../auth/account-rules";
import { PhotosRepository } from "./photos.repository";
import type { PhotoRow } from "../../db/schema";
import { photoRow } from "../../../test/photo-rows";
import { PhotosService, unattachedPhotoLifetimeMs } from "./photos.service";
import { signedPhotoUrl } from "./signed-url";

describe.each(testEngines)("photo files on %s", (engine) => {
  let database: Awaited<ReturnType<typeof openMigratedTestDatabase>>;
  let dir: string;
  let clock: Date;
  let service: PhotosService;
  let store: LocalBlobStore;
  let ownerId: string;
  let warnings: object[];

  beforeEach(async () => {
    database = await openMigratedTestDatabase(engine);
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-sweep-"));
    store = new LocalBlobStore(path.join(dir, "storage"));
    clock = new Date("2026-01-01T12:00:00Z");
    service = new PhotosService({
      photos: new PhotosRepository(database.db),
      blobStore: store,
      urlSecret: Buffer.alloc(32, 7),
      uploadDir: path.join(dir, "uploads"),
      log: { warn: (details) => warnings.push(details) },
      now: () => clock,
    });
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

  const upload = async () => service.upload(ownerId, Readable.from([await twoTone(64, 48).jpeg().toBuffer()]), () => false);
  const objectCount = async () => {
    let count = 0;
    for await (const _object of store.list("memory-photos/")) count += 1;
    return count;
  };

  it("opens a photo by its signed URL until it expires, all by the service's clock", async () => {
    const photo = await upload();
    const url = new URL(photo.url, "http://memory-box.test");
    const key = decodeURIComponent(url.pathname.replace("/storage/v1/object/sign/memory-photos/", ""));
    const expires = url.searchParams.get("expires") ?? "";
    const token = url.searchParams.get("token") ?? "";
    const opened = await service.open(key, expires, token, undefined);
    opened.body.destroy();
    expect(opened.secondsLeft).toBe(Number(expires) - Math.floor(clock.getTime() / 1000));
    clock = new Date((Number(expires) + 1) * 1000);
    await expect(service.open(key, expires, token, undefined)).rejects.toMatchObject({ code: "invalid_signature" });
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

describe("signed photo URLs in the API form", () => {
  const secret = Buffer.alloc(32, 9);
  const photo = (key: string): PhotoRow =>
    photoRow(key, { id: "8a0c1f5e-0000-4000-8000-0000000000f1", created_at: "2026-01-01T00:00:00.000Z" });

  it("are the same as signing afresh, within the hour and after it", () => {
    let clock = new Date("2026-01-01T12:00:01Z");
    const service = new PhotosService({
      photos: {} as PhotosRepository,
      blobStore: {} as LocalBlobStore,
      urlSecret: secret,
      uploadDir: "/nonexistent",
      log: { warn: () => {} },
      now: () => clock,
    });
    const fresh = (key: string) => signedPhotoUrl("", key, secret, clock);
    const keys = ["user/one", "user/two words#?"];
    const check = () => {
      for (const key of keys) {
        const presented = service.present(photo(key));
        expect([presented.url, presented.preview_url, presented.thumbnail_url]).toEqual([
          fresh(`${key}.display.jpg`),
          fresh(`${key}.preview.webp`),
          fresh(`${key}.thumb.webp`),
        ]);
      }
      return service.present(photo(keys[0]!)).url;
    };
    const first = check();
    clock = new Date("2026-01-01T12:59:59Z");
    expect(check()).toBe(first);
    clock = new Date("2026-01-01T13:00:01Z");
    expect(check()).not.toBe(first);
    // Back in time (a test clock, a corrected system clock): still exactly what signing gives.
    clock = new Date("2026-01-01T12:30:00Z");
    expect(check()).toBe(first);
  });
});
