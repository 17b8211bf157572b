import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Memory, Photo } from "@memory-box/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember, uploadPhotoAs } from "../../../test/members";
import { multipartContentType, multipartPayload } from "../../../test/multipart";
import { startTestS3Server, type TestS3Server } from "../../../test/s3-test-server";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database";
import { engineStorageCombinations } from "../../../test/test-matrix";
import { restoreCommand } from "../../cli/restore.command";
import type { Config } from "../../config";
import { openDatabase } from "../../db/database";
import { rotatedCameraJpeg, twoTone } from "../photos/fixtures/test-images";
import { createBlobStore } from "../storage";
import { resolveVideoTools } from "../videos";
import { BackupService } from "./backup.service";

// Issue #31 in backups (ADR 0029, 0055): a video's original and web copy, and a Live Photo's
// motion and its copy, are in the snapshot and come back with a restore; a video the backup caught
// being prepared is prepared by the restored instance at once, not left waiting.

const run = promisify(execFile);
let clip: Buffer;

beforeAll(async () => {
  const tools = await resolveVideoTools();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "backup-videos-"));
  try {
    const file = path.join(dir, "clip.mov");
    await run(tools.ffmpeg, [
      ...["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25:duration=1"],
      ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", file],
    ]);
    clip = await fs.readFile(file);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const combinations = engineStorageCombinations("S3 (s3rver)");

describe.each(combinations)("videos in backups on %s with %s storage", (engine, storage) => {
  let s3: TestS3Server | undefined;
  let source: TestApp;
  let ann: TestMember;
  let workDir: string;
  const restoredDatabases: TestDatabase[] = [];
  const ids = { video: "", live: "", cut: "" };

  const upload = async (filename: string, data: Buffer, url = "/api/v1/photos") => {
    const response = await source.app.inject({
      method: "POST",
      url,
      payload: multipartPayload([{ name: "file", filename, contentType: "application/octet-stream", data }]),
      headers: { "content-type": multipartContentType, ...ann.headers },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Photo>();
  };
  const prepared = async (app: TestApp, id: string): Promise<Photo> => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const photo = (await app.app.inject({ method: "GET", url: `/api/v1/photos/${id}`, headers: ann.headers })).json<Photo>();
      if (photo.status !== "processing") return photo;
      if (Date.now() > deadline) throw new Error(`${id} was not prepared in time`);
      await sleep(50);
    }
  };
  const keysOf = async (storageUrl: string | undefined, dataDir: string) => {
    const store = createBlobStore(storageUrl, dataDir);
    const keys: string[] = [];
    try {
      for await (const object of store.list("memory-photos/")) keys.push(object.key.slice("memory-photos/".length));
    } finally {
      await store.close();
    }
    return keys.sort();
  };

  beforeAll(async () => {
    s3 = storage === "S3 (s3rver)" ? await startTestS3Server() : undefined;
    workDir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-backup-videos-"));
    source = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false", ...(s3 ? { STORAGE_URL: s3.storageUrl } : {}) } });
    ann = await createMember(source, "ann@memory-box.test", "Ann");
    ids.video = (await upload("first-dance.mov", clip)).id;
    ids.live = await uploadPhotoAs(source, ann, await rotatedCameraJpeg(twoTone(200, 150)));
    await upload("IMG_0001.MOV", clip, `/api/v1/photos/${ids.live}/motion`);
    ids.cut = (await upload("toast.mov", clip)).id;
    const created = await source.app.inject({
      method: "POST",
      url: "/api/v1/memories",
      headers: ann.headers,
      payload: { title: "The wedding", photo_ids: [ids.video, ids.live, ids.cut] },
    });
    expect(created.statusCode).toBe(201);
    for (const id of Object.values(ids)) expect((await prepared(source, id)).status).toBe("ready");

    // The toast as a backup catches a video being prepared: its copy not written yet, its job
    // running on its last attempt under a lease of a process that will not come back.
    const database = openDatabase(source.config.database);
    try {
      const row = await database.db.selectFrom("photos").selectAll().where("id", "=", ids.cut).executeTakeFirstOrThrow();
      const store = createBlobStore(source.config.storageUrl, source.config.dataDir);
      await store.delete(`memory-photos/${row.web_key}`);
      await store.close();
      await database.db.updateTable("photos").set({ status: "processing", web_bytes: null }).where("id", "=", ids.cut).execute();
      await database.db
        .updateTable("media_jobs")
        .set({
          state: "running",
          attempts: 3,
          progress: 0.4,
          lease_owner: "runner-of-the-old-machine",
          lease_until: new Date(Date.now() + 3600_000).toISOString(),
        })
        .where("subject_id", "=", ids.cut)
        .execute();
    } finally {
      await database.destroy();
    }
  });
  afterAll(async () => {
    await source?.close();
    await s3?.stop();
    for (const database of restoredDatabases) await database.drop();
    await fs.rm(workDir, { recursive: true, force: true });
  });

  it("keeps originals, web copies and motion, and a restored instance finishes what the backup caught being prepared", async () => {
    const store = createBlobStore(source.config.storageUrl, source.config.dataDir);
    let snapshot: string;
    try {
      snapshot = (
        await new BackupService({
          database: source.config.database,
          blobStore: store,
          backupDir: path.join(workDir, "b"),
          keep: 2,
        }).run()
      ).snapshot;
    } finally {
      await store.close();
    }
    const database = openDatabase(source.config.database);
    const rows = await database.db.selectFrom("photos").selectAll().execute();
    await database.destroy();
    const video = rows.find((row) => row.id === ids.video)!;
    const live = rows.find((row) => row.id === ids.live)!;
    const sourceKeys = await keysOf(source.config.storageUrl, source.config.dataDir);
    for (const key of [video.object_key, video.web_key!, video.preview_key, live.object_key, live.motion_key!, live.web_key!]) {
      expect(sourceKeys).toContain(key);
    }

    // Into an empty instance: a new database and a DATA_DIR that does not exist yet.
    const restoredDatabase = await createTestDatabase(engine);
    restoredDatabases.push(restoredDatabase);
    const dataDir = path.join(await fs.mkdtemp(path.join(workDir, "restored-")), "data");
    const target: Config = {
      ...source.config,
      dataDir,
      storageUrl: undefined,
      database:
        restoredDatabase.config.engine === "sqlite"
          ? { engine: "sqlite", file: path.join(dataDir, "memory-box.sqlite") }
          : restoredDatabase.config,
    };
    const lines: string[] = [];
    await restoreCommand.run({ args: [snapshot], out: (line) => lines.push(line), config: target });
    expect(lines[0]).toMatch(/it finishes preparing 1 videos the backup caught being prepared\.$/);
    expect(await keysOf(undefined, dataDir)).toEqual(sourceKeys);
    const restoredFiles = async (key: string) => fs.readFile(path.join(dataDir, "storage", "objects", "memory-photos", key));
    expect((await restoredFiles(video.object_key)).equals(clip)).toBe(true);
    expect((await restoredFiles(live.motion_key!)).equals(clip)).toBe(true);

    const restored = await createTestApp(engine, { sharedDatabase: target.database, env: { DATA_DIR: dataDir } });
    try {
      const memory = (await restored.app.inject({ method: "GET", url: "/api/v1/memories", headers: ann.headers })).json<{
        items: Memory[];
      }>().items[0]!;
      expect(memory.photos.map((photo) => [photo.id, photo.kind])).toEqual([
        [ids.video, "video"],
        [ids.live, "live"],
        [ids.cut, "video"],
      ]);
      // The copies the backup held play as they are; the one it caught being made is made again.
      for (const id of Object.values(ids)) {
        const photo = await prepared(restored, id);
        expect(photo.status, id).toBe("ready");
        const played = await restored.app.inject({ method: "GET", url: photo.video_url!, headers: ann.headers });
        expect(played.statusCode).toBe(200);
        expect(played.headers["content-type"]).toBe("video/mp4");
      }
      const check = openDatabase(target.database);
      try {
        const [job] = await check.db.selectFrom("media_jobs").selectAll().where("subject_id", "=", ids.cut).execute();
        // Its cut attempt did not count: the restored run was its third, not a fourth past the limit.
        expect(job).toMatchObject({ state: "done", attempts: 3, lease_owner: null });
      } finally {
        await check.destroy();
      }
    } finally {
      await restored.close();
    }
  });
});
