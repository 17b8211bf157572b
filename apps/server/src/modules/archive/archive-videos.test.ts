import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { ImportResult, Memory, Photo } from "@memory-box/contract";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dayOneId, dayOnePhoto, momentLine, tinyJpeg, writeDayOneExport, writeZip } from "../../../test/dayone-export";
import { createMember, type TestMember, uploadPhotoAs } from "../../../test/members";
import { multipartContentType, multipartPayload } from "../../../test/multipart";
import { startTestS3Server, type TestS3Server } from "../../../test/s3-test-server";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { zipEntries } from "../../../test/zip-entries";
import { engineStorageCombinations } from "../../../test/test-matrix";
import { exportCommand } from "../../cli/export.command";
import { openDatabase } from "../../db/database";
import { rotatedCameraJpeg, twoTone } from "../photos/fixtures/test-images";
import { resolveVideoTools } from "../videos";
import { ArchiveManifest, type ArchivePhoto } from "./archive-format";

// Issue #31 in the archive: a memory of a photo, a video and a Live Photo is exported with every
// original byte for byte (the video's, the Live Photo's still and motion), pages that play them,
// and comes back whole into a fresh instance, where videos get their posters and web copies again;
// Day One's videos come in as videos. Clips are made by the packaged ffmpeg, 160 × 120, one second.

const run = promisify(execFile);
let clipDir: string;
const clips: Record<"mp4" | "mov", Buffer> = { mp4: Buffer.alloc(0), mov: Buffer.alloc(0) };

beforeAll(async () => {
  const tools = await resolveVideoTools();
  clipDir = await fs.mkdtemp(path.join(os.tmpdir(), "archive-videos-"));
  const ffmpeg = (...args: string[]) => run(tools.ffmpeg, ["-nostdin", "-v", "error", "-y", ...args]);
  const pattern = ["-f", "lavfi", "-i", "testsrc=size=160x120:rate=25:duration=1"];
  const h264 = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"];
  await Promise.all([
    ffmpeg(
      ...pattern,
      ...["-f", "lavfi", "-i", "sine=frequency=440:duration=1"],
      ...h264,
      "-c:a",
      "aac",
      path.join(clipDir, "a.mp4"),
    ),
    // A Live Photo's motion, as an iPhone keeps it: a MOV.
    ffmpeg(...pattern, ...h264, path.join(clipDir, "b.mov")),
  ]);
  clips.mp4 = await fs.readFile(path.join(clipDir, "a.mp4"));
  clips.mov = await fs.readFile(path.join(clipDir, "b.mov"));
});
afterAll(async () => {
  await fs.rm(clipDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const combinations = engineStorageCombinations("S3 (s3rver)");

describe.each(combinations)("videos in the archive on %s with %s storage", (engine, storage) => {
  let s3: TestS3Server | undefined;
  let source: TestApp;
  let target: TestApp;
  let ann: TestMember;
  let annThere: TestMember;
  let workDir: string;
  let archive: string;
  let memory: Memory;
  const ids = { photo: "", video: "", live: "" };

  const upload = async (app: TestApp, member: TestMember, filename: string, data: Buffer, url = "/api/v1/photos") => {
    const response = await app.app.inject({
      method: "POST",
      url,
      payload: multipartPayload([{ name: "file", filename, contentType: "application/octet-stream", data }]),
      headers: { "content-type": multipartContentType, ...member.headers },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Photo>();
  };
  /** Asks for a media until its preparation is over. */
  const prepared = async (app: TestApp, member: TestMember, id: string): Promise<Photo> => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const photo = (await app.app.inject({ method: "GET", url: `/api/v1/photos/${id}`, headers: member.headers })).json<Photo>();
      if (photo.status !== "processing") return photo;
      if (Date.now() > deadline) throw new Error("the video was not prepared in time");
      await sleep(50);
    }
  };
  const exportOf = async (app: TestApp, file: string) => {
    const database = openDatabase(app.config.database);
    const lines: string[] = [];
    try {
      await exportCommand.run({ args: [file], db: database.db, out: (line) => lines.push(line), config: app.config });
    } finally {
      await database.destroy();
    }
    return lines;
  };
  const importInto = (app: TestApp, member: TestMember, body: Buffer, from = "memory-box") =>
    app.app.inject({
      method: "POST",
      url: `/api/v1/account/import?from=${from}`,
      headers: { ...member.headers, "content-type": "application/zip" },
      payload: body,
    });
  /** What says what the target holds: its rows, jobs and stored files, once no media is being prepared. */
  const targetState = async () => {
    const database = openDatabase(target.config.database);
    try {
      const deadline = Date.now() + 15_000;
      const processing = () => database.db.selectFrom("photos").select("id").where("status", "=", "processing").execute();
      while ((await processing()).length > 0) {
        if (Date.now() > deadline) throw new Error("media were not prepared in time");
        await sleep(50);
      }
      const count = async (table: "memories" | "photos" | "media_jobs") =>
        Number(
          (
            await database.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as("n"))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const files = await fs.readdir(path.join(target.config.dataDir, "storage"), { recursive: true }).catch(() => []);
      return {
        memories: await count("memories"),
        photos: await count("photos"),
        jobs: await count("media_jobs"),
        files: files.sort(),
      };
    } finally {
      await database.destroy();
    }
  };

  beforeAll(async () => {
    s3 = storage === "S3 (s3rver)" ? await startTestS3Server() : undefined;
    workDir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-archive-videos-"));
    [source, target] = await Promise.all([
      createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false", ...(s3 ? { STORAGE_URL: s3.storageUrl } : {}) } }),
      createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } }),
    ]);
    // The first member of an instance is its owner: Ann imports there.
    [ann, annThere] = await Promise.all([
      createMember(source, "ann@memory-box.test", "Ann"),
      createMember(target, "ann@memory-box.test", "Ann"),
    ]);
    ids.photo = await uploadPhotoAs(source, ann, await rotatedCameraJpeg(twoTone(300, 200)));
    ids.video = (await upload(source, ann, "first-dance.mp4", clips.mp4)).id;
    ids.live = await uploadPhotoAs(source, ann, await rotatedCameraJpeg(twoTone(200, 300)));
    await upload(source, ann, "IMG_0002.MOV", clips.mov, `/api/v1/photos/${ids.live}/motion`);
    const created = await source.app.inject({
      method: "POST",
      url: "/api/v1/memories",
      headers: ann.headers,
      payload: { title: "First dance", photo_ids: [ids.photo, ids.video, ids.live] },
    });
    expect(created.statusCode).toBe(201);
    memory = created.json<Memory>();
    for (const id of [ids.video, ids.live]) expect((await prepared(source, ann, id)).status).toBe("ready");
    archive = path.join(workDir, "memories.zip");
    expect((await exportOf(source, archive))[0]).toMatch(/^Exported 1 memories, 2 photos and 1 videos \(/);
  });
  afterAll(async () => {
    await Promise.all([source?.close(), target?.close()]);
    await s3?.stop();
    await fs.rm(workDir, { recursive: true, force: true });
  });

  it("exports a video's and a Live Photo's originals byte for byte, named by their kind, with pages that play them", async () => {
    const entries = await zipEntries(archive);
    const manifest = ArchiveManifest.parse(JSON.parse(entries.get("memory-box.json")!.toString()));
    expect(manifest.version).toBe(3);
    const [photo, video, live] = manifest.memories[0]!.photos as [ArchivePhoto, ArchivePhoto, ArchivePhoto];
    expect(photo.kind).toBeUndefined();
    expect(photo.file).toBe(`photos/${memory.id}/${ids.photo}.jpg`);

    expect(video).toMatchObject({
      id: ids.video,
      kind: "video",
      content_type: "video/mp4",
      width: 160,
      height: 120,
      bytes: clips.mp4.length,
      file: `photos/${memory.id}/${ids.video}.mp4`,
      poster: `photos/${memory.id}/${ids.video}.poster.webp`,
    });
    expect(video.duration_ms).toBeGreaterThan(900);
    expect(video.duration_ms).toBeLessThan(1100);
    expect(entries.get(video.file)!.equals(clips.mp4)).toBe(true);
    const poster = await sharp(entries.get(video.poster!)).metadata();
    expect([poster.format, poster.width, poster.height]).toEqual(["webp", 160, 120]);

    expect(live).toMatchObject({
      id: ids.live,
      kind: "live",
      content_type: "image/jpeg",
      file: `photos/${memory.id}/${ids.live}.jpg`,
      motion: { file: `photos/${memory.id}/${ids.live}.motion.mov`, content_type: "video/quicktime", bytes: clips.mov.length },
    });
    expect(entries.get(live.motion!.file)!.equals(clips.mov)).toBe(true);
    // Nothing else of the media but the small picture of the memory's year page: no web copies.
    const thumbnail = photo.file.replace(/\.jpg$/, ".thumb.webp");
    expect([...entries.keys()].filter((name) => name.startsWith("photos/")).sort()).toEqual(
      [photo.file, video.file, video.poster!, live.file, live.motion!.file, thumbnail].sort(),
    );

    const page = entries.get(`memories/${memory.id}.html`)!.toString();
    expect(page).toContain(
      `<img src="../${photo.file}" width="${photo.width}" height="${photo.height}" alt="Photo 1: open the original" loading="lazy">`,
    );
    expect(page).toContain(`<video controls preload="metadata" src="../${video.file}" poster="../${video.poster}">`);
    expect(page).toContain(`<a href="../${video.file}">Open the video (0:01)</a>`);
    expect(page).toContain(
      `<img src="../${live.file}" width="${live.width}" height="${live.height}" alt="Photo 3: open the original" loading="lazy">`,
    );
    expect(page).toContain(`<video controls preload="metadata" src="../${live.motion!.file}" poster="../${live.file}">`);
    expect(page).toContain("Live Photo: its motion plays below.");
    expect(page).toMatch(/<style>[^<]*video\{/);
  });

  it("brings the archive into a fresh instance with the same media, kinds and motion, prepared again there", async () => {
    const response = await importInto(target, annThere, await fs.readFile(archive));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<ImportResult>()).toEqual({ memories: 1, photos: 2, videos: 1, already_here: 0 });

    const imported = (
      await target.app.inject({ method: "GET", url: `/api/v1/memories/${memory.id}`, headers: annThere.headers })
    ).json<Memory>();
    expect(imported.photos.map((photo) => [photo.id, photo.kind])).toEqual([
      [ids.photo, "photo"],
      [ids.video, "video"],
      [ids.live, "live"],
    ]);
    // Posters at once; the copies that play made by the target's media jobs.
    const video = await prepared(target, annThere, ids.video);
    expect(video).toMatchObject({ status: "ready", video_content_type: "video/mp4", width: 160, height: 120 });
    expect(video.duration_seconds).toBeCloseTo(1, 1);
    const played = await target.app.inject({ method: "GET", url: video.video_url!, headers: annThere.headers });
    expect(played.statusCode).toBe(200);
    const live = await prepared(target, annThere, ids.live);
    expect(live).toMatchObject({ kind: "live", status: "ready" });
    expect((await target.app.inject({ method: "GET", url: live.video_url!, headers: annThere.headers })).statusCode).toBe(200);

    // Exported again: the same description of every media, the same originals and motion.
    const again = path.join(workDir, "again.zip");
    await exportOf(target, again);
    const [before, after] = [await zipEntries(archive), await zipEntries(again)];
    const photosOf = (entries: Map<string, Buffer>) =>
      ArchiveManifest.parse(JSON.parse(entries.get("memory-box.json")!.toString())).memories[0]!.photos;
    expect(photosOf(after)).toEqual(photosOf(before));
    for (const photo of photosOf(before)) {
      expect(after.get(photo.file)!.equals(before.get(photo.file)!), photo.file).toBe(true);
      if (photo.motion) expect(after.get(photo.motion.file)!.equals(before.get(photo.motion.file)!)).toBe(true);
    }

    // A second time changes nothing.
    const state = await targetState();
    const second = await importInto(target, annThere, await fs.readFile(archive));
    expect(second.json<ImportResult>()).toEqual({ memories: 0, photos: 0, videos: 0, already_here: 1 });
    expect(await targetState()).toEqual(state);
  });

  it("takes a video an archive of version 2 named `.bin` (as exports did before videos) as a video", async () => {
    const entries = await zipEntries(archive);
    const manifest = ArchiveManifest.parse(JSON.parse(entries.get("memory-box.json")!.toString()));
    const [memoryBefore] = manifest.memories;
    const renewed = (id: string) => `b1b1b1b1${id.slice(8)}`;
    const video = memoryBefore!.photos[1]!;
    const file = `photos/${renewed(memoryBefore!.id)}/${renewed(video.id)}.bin`;
    const old = {
      ...manifest,
      version: 2,
      memories: [
        {
          ...memoryBefore!,
          id: renewed(memoryBefore!.id),
          photos: [
            {
              id: renewed(video.id),
              position: 0,
              taken_at: video.taken_at,
              width: 160,
              height: 120,
              content_type: "video/mp4",
              bytes: video.bytes,
              file,
            },
          ],
        },
      ],
    };
    const zip = path.join(workDir, "version-2.zip");
    await writeZip(zip, [
      ["memory-box.json", JSON.stringify(old)],
      [file, entries.get(video.file)!],
    ]);
    const response = await importInto(target, annThere, await fs.readFile(zip));
    expect(response.statusCode, response.body).toBe(200);
    expect((await prepared(target, annThere, renewed(video.id))).kind).toBe("video");
  });

  describe("refuses, and leaves the instance as it was,", () => {
    let altered = 0;
    /** The archive with new ids (nothing of it is here yet), changed by `change`. */
    async function alteredArchive(change: (manifest: ArchiveManifest, entries: Map<string, Buffer>) => void): Promise<Buffer> {
      altered += 1;
      const renewed = (text: string) =>
        text.replaceAll(/[0-9a-f]{8}-[0-9a-f]{4}-4/g, (id) => `${(0xa0 + altered).toString(16).padStart(8, "0")}${id.slice(8)}`);
      const entries = new Map([...(await zipEntries(archive))].map(([name, bytes]) => [renewed(name), bytes]));
      const manifest = ArchiveManifest.parse(JSON.parse(renewed(entries.get("memory-box.json")!.toString())));
      change(manifest, entries);
      entries.set("memory-box.json", Buffer.from(JSON.stringify(manifest)));
      const file = path.join(workDir, `altered-${altered}.zip`);
      await writeZip(file, [...entries]);
      return fs.readFile(file);
    }
    const refusal = async (body: Buffer): Promise<string> => {
      const before = await targetState();
      const response = await importInto(target, annThere, body);
      expect(response.statusCode).toBe(422);
      expect(await targetState()).toEqual(before);
      return response.json<{ code: string; message: string }>().message;
    };

    it("a video's file that is not a video (after storing the photo before it, removed again)", async () => {
      const body = await alteredArchive((manifest, entries) => {
        const video = manifest.memories[0]!.photos[1]!;
        entries.set(video.file, Buffer.alloc(video.bytes, 0x41));
      });
      expect(await refusal(body)).toMatch(/^A photo of The memory "First dance" .* cannot be imported: /);
    });

    it("a Live Photo whose motion is missing, or not the size described", async () => {
      const missing = await alteredArchive((manifest, entries) => {
        entries.delete(manifest.memories[0]!.photos[2]!.motion!.file);
      });
      expect(await refusal(missing)).toMatch(/is missing from the archive: photos\/.*\.motion\.mov/);
      const lying = await alteredArchive((manifest) => {
        manifest.memories[0]!.photos[2]!.motion!.bytes += 1;
      });
      expect(await refusal(lying)).toMatch(/description says \d+/);
    });
  });

  it("brings Day One's videos in as videos of their entry's memory, in the entry's order", async () => {
    const photo = dayOnePhoto(await tinyJpeg(), { orderInEntry: 1 });
    const video = dayOnePhoto(clips.mp4, { type: "mp4", width: 160, height: 120, orderInEntry: 0 });
    const clip = dayOnePhoto(clips.mov, { type: "mov", identifier: dayOneId() });
    const file = path.join(workDir, "Export.zip");
    await writeDayOneExport(file, {
      "Journal.json": [
        {
          creationDate: "2022-07-01T18:30:00Z",
          text: `The wedding\n![](dayone-moment:/video/${video.identifier})\n${momentLine(photo)}\nWe danced.`,
          photos: [photo],
          videos: [video],
        },
        { creationDate: "2022-07-02T10:00:00Z", text: "The morning after", videos: [clip] },
      ],
    });
    const response = await importInto(target, annThere, await fs.readFile(file), "dayone");
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<ImportResult>()).toEqual({ memories: 2, photos: 1, videos: 2, already_here: 0 });
    const list = (await target.app.inject({ method: "GET", url: "/api/v1/memories?q=wedding", headers: annThere.headers })).json<{
      items: Memory[];
    }>();
    const wedding = list.items[0]!;
    expect(wedding.content).toBe("We danced.");
    expect(wedding.photos.map((media) => media.kind)).toEqual(["video", "photo"]);
    const ready = await prepared(target, annThere, wedding.photos[0]!.id);
    expect(ready).toMatchObject({ kind: "video", status: "ready", width: 160, height: 120 });

    // Refused whole when a video's file is missing from the export.
    const missing = path.join(workDir, "Missing.zip");
    await writeDayOneExport(missing, {
      "Journal.json": [
        {
          creationDate: "2022-08-01T10:00:00Z",
          text: "Lost",
          videos: [{ ...dayOnePhoto(clips.mov, { type: "mov" }), missing: true }],
        },
      ],
    });
    const before = await targetState();
    const refused = await importInto(target, annThere, await fs.readFile(missing), "dayone");
    expect(refused.statusCode).toBe(422);
    expect(refused.json<{ message: string }>().message).toMatch(
      /has a video that is missing from the export \(videos\/[0-9a-f]{32}\.mov\)/,
    );
    expect(await targetState()).toEqual(before);
  });
});
