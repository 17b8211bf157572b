import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { classifyError } from "../../errors";
import { openMigratedTestDatabase, testEngines } from "../../../test/test-database";
import { filmTestClip, videoTools } from "../../../test/video-clips";
import { newUser } from "../auth/core/account-rules";
import { type MediaJobProgress, MediaJobRunner, MediaJobsRepository } from "../media-jobs";
import { PhotoFilesReconciler, PhotosRepository, PhotosService } from "../photos";
import { LocalBlobStore } from "../storage";
import { type VideoProgress, type VideoTools, VideosService, webCopyJobKind } from ".";

// The web copy job of a video (ADR 0055) when things go wrong: the server stops mid-job, the
// video is deleted while its copy is made, the original cannot be read. Nothing is left behind.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(5);
  }
}

let tools: VideoTools;
let clipDir: string;
let clip: string;

beforeAll(async () => {
  tools = await videoTools();
  clipDir = await fs.mkdtemp(path.join(os.tmpdir(), "videos-jobs-clip-"));
  clip = path.join(clipDir, "clip.mov");
  // Sound no browser plays in MP4 (PCM): the job encodes, as it would an iPhone's clip.
  await filmTestClip(clip, { audio: ["-c:a", "pcm_s16le"] });
});
afterAll(() => fs.rm(clipDir, { recursive: true, force: true }));

describe.each(testEngines())("video jobs on %s", (engine) => {
  let database: Awaited<ReturnType<typeof openMigratedTestDatabase>>;
  let dir: string;
  let store: LocalBlobStore;
  let photos: PhotosService;
  let repository: PhotosRepository;
  const ownerId = "8a0c1f5e-0000-4000-8000-000000000001";
  const runners: MediaJobRunner[] = [];
  let published: VideoProgress[];

  const workDir = () => path.join(dir, "uploads");
  const workFiles = async () => fs.readdir(workDir()).catch(() => []);
  const storedKeys = async () => {
    const keys: string[] = [];
    for await (const object of store.list("memory-photos/")) keys.push(object.key.slice("memory-photos/".length));
    return keys.sort();
  };
  /** A server's video service and job runner on the shared database and storage. */
  const server = (
    options: {
      onReport?: (report: MediaJobProgress) => void;
      tools?: () => Promise<VideoTools>;
      publishMemoryUpdated?: (memoryId: string, actor: string) => void;
    } = {},
  ) => {
    const maxAttempts = 2;
    const runner = new MediaJobRunner(new MediaJobsRepository(database.db), {
      leaseMs: 300,
      pollMs: 20,
      backoffMs: () => 10,
      maxAttempts,
      onProgress: (report) => {
        options.onReport?.(report);
        void videos.reportJob(report);
      },
    });
    const videos: VideosService = new VideosService({
      db: database.db,
      photos,
      blobStore: store,
      tools: options.tools ?? (async () => tools),
      workDir: workDir(),
      maxBytes: 10 * 1024 * 1024,
      maxSeconds: 60,
      maxAttempts,
      wakeJobs: () => runner.wake(),
      publishProgress: (progress) => published.push(progress),
      publishMemoryUpdated: options.publishMemoryUpdated ?? (() => {}),
      log: { warn: () => {} },
    });
    runner.register(webCopyJobKind, (context) => videos.makeWebCopy(context));
    runners.push(runner);
    return { runner, videos };
  };

  beforeAll(async () => {
    database = await openMigratedTestDatabase(engine);
    const now = new Date().toISOString();
    await database.db
      .insertInto("users")
      .values({ ...newUser("ann@memory-box.test", null, {}, now), id: ownerId, email_confirmed_at: now })
      .execute();
  });
  afterAll(() => database.close());
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((runner) => runner.stop({ abandon: true })));
    await fs.rm(dir, { recursive: true, force: true });
  });
  const setUp = async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "videos-jobs-"));
    store = new LocalBlobStore(path.join(dir, "storage"));
    repository = new PhotosRepository(database.db);
    photos = new PhotosService({
      photos: repository,
      blobStore: store,
      urlSecret: Buffer.alloc(32, 7),
      uploadDir: workDir(),
      log: { warn: () => {} },
    });
    published = [];
  };

  it("tells the members of the memory a still was saved into while its Live Photo clip was being checked", async () => {
    await setUp();
    const jpeg = path.join(dir, "IMG_0001.JPG");
    await sharp({ create: { width: 32, height: 24, channels: 3, background: "#5a8cc8" } })
      .jpeg()
      .toFile(jpeg);
    const still = await photos.acceptFile(ownerId, jpeg);
    const memoryId = "8a0c1f5e-0000-4000-8000-0000000000bb";
    const updated: string[] = [];
    let saved = false;
    const { videos } = server({
      // The clip's check asks for FFmpeg first: the memory is saved with the still right then.
      tools: async () => {
        if (!saved) {
          saved = true;
          const now = new Date().toISOString();
          await database.db
            .insertInto("memories")
            .values({
              id: memoryId,
              title: "Harbour",
              content: null,
              memory_date: null,
              user_id: ownerId,
              updated_by: ownerId,
              created_at: now,
              updated_at: now,
              version: 1,
              sort_key: "x",
              search_text: "harbour",
            })
            .execute();
          await database.db.updateTable("photos").set({ memory_id: memoryId, position: 0 }).where("id", "=", still.id).execute();
        }
        return tools;
      },
      publishMemoryUpdated: (id) => updated.push(id),
    });

    const live = await videos.attachMotion(ownerId, still.id, clip, "IMG_0001.MOV");

    expect(live).toMatchObject({ id: still.id, kind: "live", status: "processing" });
    expect(updated).toEqual([memoryId]);
    // The tests share one database: nothing of this one is left to the next one's runner and reconciler.
    await database.db.deleteFrom("media_jobs").where("subject_id", "=", still.id).execute();
    await database.db.deleteFrom("photos").where("id", "=", still.id).execute();
    await database.db.deleteFrom("memories").where("id", "=", memoryId).execute();
  });

  it("resumes a job stopped mid-way on another server, leaving no stray file", async () => {
    await setUp();
    const first = server();
    const video = await first.videos.accept(ownerId, clip, "clip.mov");
    expect(video.status).toBe("processing");
    const row = await repository.findById(video.id);
    first.runner.start();
    // Mid-way: the original fetched to the work folder, the copy being made.
    await until(async () => (await workFiles()).some((name) => name.endsWith(".original")));
    await first.runner.stop({ abandon: true });
    await until(async () => (await workFiles()).length === 0);
    expect(await repository.findById(video.id)).toMatchObject({ status: "processing" });
    expect(await storedKeys()).not.toContain(row!.web_key);
    expect((await first.videos.jobsOf(video.id))[0]).toMatchObject({ state: "running", attempts: 1 });

    // The files a processing row names are its own, the copy to come included: the reconciler keeps them.
    await store.put(`memory-photos/${row!.web_key}`, Buffer.from("a copy written just before a crash"));
    const reconciled = await new PhotoFilesReconciler({ photos: repository, blobStore: store, log: { warn: () => {} } }).run(
      -60_000,
    );
    expect(reconciled).toMatchObject({ orphansRemoved: 0, missingCount: 0 });

    const second = server();
    second.runner.start();
    await until(async () => (await second.videos.jobsOf(video.id))[0]?.state === "done");
    expect((await second.videos.jobsOf(video.id))[0]).toMatchObject({ state: "done", attempts: 2 });
    expect(await repository.findById(video.id)).toMatchObject({ status: "ready" });
    const copy = await store.stat(`memory-photos/${row!.web_key}`);
    expect(copy?.contentType).toBe("video/mp4");
    expect(copy!.size).toBeGreaterThan(1000);
    expect(await workFiles()).toEqual([]);
    const stem = row!.object_key.replace(/\.mov$/, "");
    expect(await storedKeys()).toEqual([row!.object_key, `${stem}.preview.webp`, `${stem}.thumb.webp`, `${stem}.web.mp4`].sort());
    await until(() => published.some((progress) => progress.status === "ready"));
    expect(published.filter((progress) => progress.status === "ready")).toEqual([
      { id: video.id, memoryId: null, ownerId, status: "ready", progress: 1, errorCode: null },
    ]);
  });

  it("removes the copy of a video deleted while it was made", async () => {
    await setUp();
    const { runner, videos } = server();
    const video = await videos.accept(ownerId, clip, "clip.mov");
    const row = (await repository.findById(video.id))!;
    runner.start();
    await until(async () => (await workFiles()).some((name) => name.endsWith(".original")));
    // The member deletes it (a memory's save dropping it, the sweep): row first, then its files.
    await database.db.deleteFrom("photos").where("id", "=", row.id).execute();
    await photos.deleteFiles([row]);
    await until(async () => (await videos.jobsOf(video.id))[0]?.state === "done");
    expect(await storedKeys()).toEqual([]);
    expect(await workFiles()).toEqual([]);
  });

  it("marks a video failed, with why, once its last attempt failed", async () => {
    await setUp();
    const { runner, videos } = server();
    const video = await videos.accept(ownerId, clip, "clip.mov");
    const row = (await repository.findById(video.id))!;
    // The original damaged in storage after the upload was checked.
    const original = await fs.readFile(clip);
    await store.put(`memory-photos/${row.object_key}`, original.subarray(0, 2000));
    runner.start();
    await until(async () => (await videos.jobsOf(video.id))[0]?.state === "failed");
    expect((await videos.jobsOf(video.id))[0]).toMatchObject({ state: "failed", attempts: 2, error_code: "corrupt_video" });
    const failed = photos.present((await repository.findById(video.id))!);
    expect(failed).toMatchObject({ status: "failed", error_code: "corrupt_video", video_url: null });
    await until(() => published.some((progress) => progress.status === "failed"));
    expect(published.at(-1)).toMatchObject({ status: "failed", errorCode: "corrupt_video" });
    expect(await storedKeys()).not.toContain(row.web_key);
    expect(await workFiles()).toEqual([]);
  });

  it("answers a full disk with 507 and keeps nothing of the video", async () => {
    await setUp();
    const { videos } = server();
    const rowsBefore = await database.db.selectFrom("photos").select("id").execute();
    const put = store.put.bind(store);
    let puts = 0;
    vi.spyOn(store, "put").mockImplementation(async (...args) => {
      // The original and the poster's preview are written; the thumbnail finds the disk full.
      if ((puts += 1) === 3) throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
      return put(...args);
    });
    const error = await videos.accept(ownerId, clip, "clip.mov").catch((thrown: unknown) => thrown);
    expect(classifyError(error).error).toMatchObject({ code: "insufficient_storage", statusCode: 507 });
    expect(puts).toBe(3);
    expect(await storedKeys()).toEqual([]);
    expect(await database.db.selectFrom("photos").select("id").execute()).toEqual(rowsBefore);
  });
});
