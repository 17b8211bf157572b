import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { AccountUsage, Memory, Photo } from "@memory-box/contract";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember } from "../../../test/members";
import { multipartContentType, multipartPayload } from "../../../test/multipart";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { openStream } from "../../../test/event-stream";
import { testEngines } from "../../../test/test-database";
import { filmTestClip, streamCodecs } from "../../../test/video-clips";
import { openDatabase } from "../../db/database";
import { createBlobStore } from "../storage";

// Videos through the product's routes (issue #31, ADR 0055): the upload answers at once with a
// poster, the media job makes the copy that plays, and only members who may see it get it.

let dir: string;
const clips: Record<string, Buffer> = {};

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "videos-routes-"));
  await Promise.all([
    filmTestClip(path.join(dir, "phone.mp4"), { extra: ["-metadata", "location=+48.8577+002.2950/"] }),
    filmTestClip(path.join(dir, "iphone.mov"), {
      video: ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error", "-tag:v", "hvc1"],
      audio: null,
    }),
  ]);
  clips.phone = await readFile(path.join(dir, "phone.mp4"));
  clips.hevc = await readFile(path.join(dir, "iphone.mov"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(testEngines())("videos on %s", (engine) => {
  let testApp: TestApp;
  let baseUrl: string;
  let ann: TestMember;
  let ben: TestMember;

  beforeAll(async () => {
    testApp = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false", PHOTO_MAX_UPLOAD_MB: "2" } });
    baseUrl = await testApp.app.listen({ port: 0, host: "127.0.0.1" });
    [ann, ben] = await Promise.all([
      createMember(testApp, "ann@memory-box.test", "Ann"),
      createMember(testApp, "ben@memory-box.test", "Ben"),
    ]);
  });
  afterAll(() => testApp.close());

  const upload = (filename: string, data: Buffer, member: TestMember | null = ann, url = "/api/v1/photos") =>
    testApp.app.inject({
      method: "POST",
      url,
      payload: multipartPayload([{ name: "file", filename, contentType: "application/octet-stream", data }]),
      headers: { "content-type": multipartContentType, ...(member ? member.headers : {}) },
    });
  const get = (url: string, member: TestMember | null = ann, headers: Record<string, string> = {}) =>
    testApp.app.inject({ method: "GET", url, headers: { ...(member ? member.headers : {}), ...headers } });
  /** Asks for the photo until its preparation is over. */
  const prepared = async (id: string, member = ann): Promise<Photo> => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const photo = (await get(`/api/v1/photos/${id}`, member)).json<Photo>();
      if (photo.status !== "processing") return photo;
      if (Date.now() > deadline) throw new Error("the video was not prepared in time");
      await sleep(50);
    }
  };
  const storedKeys = async () => {
    const store = createBlobStore(testApp.config.storageUrl, testApp.config.dataDir);
    const keys: string[] = [];
    for await (const object of store.list("memory-photos/")) keys.push(object.key.slice("memory-photos/".length));
    await store.close();
    return keys.sort();
  };
  const photoRows = async () => {
    const database = openDatabase(testApp.config.database);
    try {
      return await database.db.selectFrom("photos").selectAll().execute();
    } finally {
      await database.destroy();
    }
  };
  const keyOf = (url: string) => url.replace("/storage/v1/object/authenticated/memory-photos/", "");

  it("answers a clip's upload at once with its poster, then makes the copy that plays, with byte ranges", async () => {
    const response = await upload("first-dance.mp4", clips.phone!);
    expect(response.statusCode).toBe(201);
    const video = response.json<Photo>();
    expect(video).toMatchObject({ kind: "video", status: "processing", video_url: null, width: 160, height: 120 });
    expect(video.duration_seconds).toBeCloseTo(1, 1);
    expect(video.content_type).toBe("image/webp");
    const poster = await get(video.thumbnail_url);
    expect(poster.statusCode).toBe(200);
    expect((await sharp(poster.rawPayload).metadata()).format).toBe("webp");

    const ready = await prepared(video.id);
    expect(ready).toMatchObject({ status: "ready", video_content_type: "video/mp4", error_code: null });
    const memory = (
      await testApp.app.inject({
        method: "POST",
        url: "/api/v1/memories",
        headers: ann.headers,
        payload: { title: "First dance", photo_ids: [video.id] },
      })
    ).json<Memory>();
    expect(memory.photos[0]).toMatchObject({ id: video.id, kind: "video", status: "ready", video_url: ready.video_url });
    const listed = (await get("/api/v1/memories", ben)).json<{ items?: Memory[] } | Memory[]>();
    const items = Array.isArray(listed) ? listed : (listed.items ?? []);
    expect(items.find((each) => each.id === memory.id)?.photos[0]?.video_url).toBe(ready.video_url);

    // A player seeks: every member gets ranges of it once it is in a memory.
    const whole = await get(ready.video_url!, ben);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers["content-type"]).toBe("video/mp4");
    expect(whole.headers["accept-ranges"]).toBe("bytes");
    const part = await get(ready.video_url!, ben, { range: "bytes=100-199" });
    expect(part.statusCode).toBe(206);
    expect(part.headers["content-range"]).toBe(`bytes 100-199/${whole.rawPayload.length}`);
    expect(part.rawPayload).toEqual(whole.rawPayload.subarray(100, 200));
    // The copy carries none of the original's metadata.
    expect(whole.rawPayload.includes(Buffer.from("+48.8577"))).toBe(false);

    const [row] = (await photoRows()).filter((each) => each.id === video.id);
    expect(row).toMatchObject({ kind: "video", status: "ready", bytes: clips.phone!.length });
    // The original is kept byte for byte, and served to nobody.
    const original = await get(`/storage/v1/object/authenticated/memory-photos/${row!.object_key}`);
    expect(original.statusCode).toBe(404);
    const usage = (await get("/api/v1/account/usage")).json<AccountUsage>();
    expect(usage.videos.count).toBeGreaterThanOrEqual(1);
    expect(usage.videos.bytes).toBeGreaterThanOrEqual(clips.phone!.length + whole.rawPayload.length);
  });

  it("encodes a HEVC clip to H.264 for browsers", async () => {
    const video = (await upload("iphone.mov", clips.hevc!)).json<Photo>();
    const ready = await prepared(video.id);
    expect(ready.video_content_type).toBe("video/mp4");
    const copy = path.join(dir, `${engine}-copy.mp4`);
    await writeFile(copy, (await get(ready.video_url!)).rawPayload);
    expect(await streamCodecs(copy)).toEqual(["h264"]);
  });

  it("refuses what is not a whole video and stores nothing of it", async () => {
    const before = { keys: await storedKeys(), rows: (await photoRows()).length };
    const refusals = [
      ["holiday.mp4", Buffer.from("<html>not a video at all</html>".repeat(10))],
      ["cut.mp4", clips.phone!.subarray(0, Math.floor(clips.phone!.length / 2))],
      ["empty.mp4", Buffer.alloc(0)],
    ] as const;
    const codes = [];
    for (const [name, data] of refusals) {
      const response = await upload(name, data);
      codes.push([response.statusCode, response.json<{ code: string }>().code]);
    }
    expect(codes).toEqual([
      [415, "unsupported_video_type"],
      [422, "corrupt_video"],
      [422, "video_empty"],
    ]);
    expect(await storedKeys()).toEqual(before.keys);
    expect((await photoRows()).length).toBe(before.rows);
  });

  it("keeps an unattached video, its copy and its progress to its uploader", async () => {
    expect((await upload("clip.mp4", clips.phone!, null)).statusCode).toBe(401);
    const annStream = await openStream(baseUrl, ann);
    const benStream = await openStream(baseUrl, ben);
    try {
      const video = (await upload("ours.mp4", clips.phone!)).json<Photo>();
      const ready = await annStream.waitFor(
        (event) => event.event === "media.progress" && event.data.includes('"ready"'),
        15_000,
      );
      expect(JSON.parse(ready.data)).toEqual({ id: video.id, memory_id: null, status: "ready", progress: 1, error_code: null });
      const copyUrl = (await get(`/api/v1/photos/${video.id}`)).json<Photo>().video_url!;
      expect((await get(copyUrl)).statusCode).toBe(200);
      // Ben knows nothing of it: not its progress, not the video, not its copy even given the address.
      expect(benStream.events.filter((event) => event.event === "media.progress")).toEqual([]);
      expect((await get(`/api/v1/photos/${video.id}`, ben)).statusCode).toBe(404);
      expect((await get(copyUrl, ben)).statusCode).toBe(404);
      expect((await get(copyUrl, null)).statusCode).toBe(401);
    } finally {
      await Promise.all([annStream.close(), benStream.close()]);
    }
  });

  it("tells every member how a video in a memory is coming along", async () => {
    const benStream = await openStream(baseUrl, ben);
    try {
      const video = (await upload("toast.mov", clips.hevc!)).json<Photo>();
      // Attached while its copy is being encoded (tens of milliseconds against the encoder's hundreds).
      const memory = (
        await testApp.app.inject({
          method: "POST",
          url: "/api/v1/memories",
          headers: ann.headers,
          payload: { title: "The toast", photo_ids: [video.id] },
        })
      ).json<Memory>();
      expect(memory.photos[0]).toMatchObject({ id: video.id, status: "processing", video_url: null });
      const ready = await benStream.waitFor(
        (event) => event.event === "media.progress" && event.data.includes('"ready"'),
        15_000,
      );
      expect(JSON.parse(ready.data)).toEqual({
        id: video.id,
        memory_id: memory.id,
        status: "ready",
        progress: 1,
        error_code: null,
      });
      const shown = (await get(`/api/v1/memories/${memory.id}`, ben)).json<Memory>();
      expect(shown.photos[0]).toMatchObject({ status: "ready", video_content_type: "video/mp4" });
      expect((await get(shown.photos[0]!.video_url!, ben)).statusCode).toBe(200);
    } finally {
      await benStream.close();
    }
  });

  it("gives a member's still its Live Photo motion, and nobody else's", async () => {
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#3a6" } })
      .jpeg()
      .toBuffer();
    const still = (await upload("IMG_0001.JPG", jpeg)).json<Photo>();
    expect(still).toMatchObject({ kind: "photo", status: "ready" });
    const motionUrl = `/api/v1/photos/${still.id}/motion`;
    expect((await upload("IMG_0001.MOV", clips.phone!, null, motionUrl)).statusCode).toBe(401);
    const forged = { userId: ann.userId, headers: { authorization: `${ann.headers.authorization.slice(0, -4)}AAAA` } };
    expect((await upload("IMG_0001.MOV", clips.phone!, forged as TestMember, motionUrl)).statusCode).toBe(401);
    const refused = await upload("IMG_0001.MOV", clips.phone!, ben, motionUrl);
    expect([refused.statusCode, refused.json<{ code: string }>().code]).toEqual([404, "photo_not_found"]);

    const live = await upload("IMG_0001.MOV", clips.phone!, ann, motionUrl);
    expect(live.statusCode).toBe(201);
    expect(live.json<Photo>()).toMatchObject({ id: still.id, kind: "live", status: "processing", url: still.url });
    const again = await upload("IMG_0001.MOV", clips.phone!, ann, motionUrl);
    expect([again.statusCode, again.json<{ code: string }>().code]).toEqual([409, "not_a_still"]);
    const ready = await prepared(still.id);
    expect(ready).toMatchObject({ kind: "live", status: "ready", video_content_type: "video/mp4" });
    expect((await get(ready.video_url!)).statusCode).toBe(200);
    const [row] = (await photoRows()).filter((each) => each.id === still.id);
    expect((await get(`/storage/v1/object/authenticated/memory-photos/${row!.motion_key}`)).statusCode).toBe(404);
    expect(keyOf(ready.video_url!)).toBe(row!.web_key);
  });
});
