import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Photo } from "@memory-box/contract";
import sharp from "sharp";
import { Upload, type HttpResponse } from "tus-js-client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { cuttingProxy } from "../../../test/cutting-proxy";
import { createMember, type TestMember } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";
import { filmTestClip } from "../../../test/video-clips";
import { openDatabase } from "../../db/database";
import { ResumableUploadsService } from "./resumable-uploads.service";

// Resumable uploads over tus (ADR 0056), driven by the real tus-js-client over a real connection,
// and by raw requests for the protocol's edges. A completed upload goes where a multipart one goes
// (the media intake): photos here, and one video.

const maxBytes = 12 * 1024 * 1024;

describe.each(testEngines())("resumable uploads on %s", (engine) => {
  let testApp: TestApp;
  let base: string;
  let ann: TestMember;
  let bob: TestMember;
  /** A JPEG of noise, about 2.7 MB. */
  let jpeg: Buffer;
  /** About 9 MB: what a few hundred KB in flight at a cut weigh less against. */
  let largeJpeg: Buffer;
  let uploadDir: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    testApp = await createTestApp(engine, {
      env: { AUTH_RATE_LIMITS: "false", VIDEO_MAX_BYTES: String(maxBytes) },
      logStream: { write: (line: string) => void logLines.push(line) },
    });
    base = await testApp.app.listen({ port: 0, host: "127.0.0.1" });
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
    bob = await createMember(testApp, "bob@memory-box.test", "Bob");
    jpeg = await sharp(randomBytes(1000 * 900 * 3), { raw: { width: 1000, height: 900, channels: 3 } })
      .jpeg({ quality: 100 })
      .toBuffer();
    largeJpeg = await sharp(randomBytes(2600 * 2400 * 3), { raw: { width: 2600, height: 2400, channels: 3 } })
      .jpeg({ quality: 100 })
      .toBuffer();
    uploadDir = path.join(testApp.config.dataDir, "resumable-uploads");
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const photoCount = async () => {
    const database = openDatabase(testApp.config.database);
    try {
      return (await database.db.selectFrom("photos").select("id").execute()).length;
    } finally {
      await database.destroy();
    }
  };
  /** What uploads left in their folder, but the records of finished ones (a media id each, no byte of the file). */
  const leftovers = async () =>
    (await fsp.readdir(uploadDir).catch(() => [])).filter((name) => !name.endsWith(".finished")).sort();

  /** Uploads `file` with tus-js-client through `endpoint`; resolves with the last response, rejects with the client's error. */
  function tusUpload(
    file: Buffer,
    options: {
      endpoint?: string;
      member?: TestMember;
      filename?: string;
      retryDelays?: number[];
      uploadDataDuringCreation?: boolean;
    } = {},
  ): Promise<HttpResponse> {
    return new Promise((resolve, reject) => {
      const upload = new Upload(file, {
        endpoint: options.endpoint ?? `${base}/api/v1/uploads`,
        headers: (options.member ?? ann).headers,
        metadata: { filename: options.filename ?? "beach.jpg", filetype: "image/jpeg" },
        retryDelays: options.retryDelays ?? [],
        uploadDataDuringCreation: options.uploadDataDuringCreation ?? false,
        onSuccess: ({ lastResponse }) => resolve(lastResponse),
        onError: reject,
      });
      upload.start();
    });
  }

  const create = (length: number, member: TestMember | null = ann, metadata = `filename ${b64("clip.mp4")}`) =>
    fetch(`${base}/api/v1/uploads`, {
      method: "POST",
      headers: {
        ...(member ? member.headers : {}),
        "tus-resumable": "1.0.0",
        "upload-length": String(length),
        "upload-metadata": metadata,
      },
    });
  const send = (location: string, method: string, member: TestMember | null, init: { offset?: number; body?: Buffer } = {}) =>
    fetch(new URL(location, base), {
      method,
      headers: {
        ...(member ? member.headers : {}),
        "tus-resumable": "1.0.0",
        ...(init.offset === undefined
          ? {}
          : { "upload-offset": String(init.offset), "content-type": "application/offset+octet-stream" }),
      },
      ...(init.body ? { body: new Uint8Array(init.body) } : {}),
    });

  it("takes a whole image through tus-js-client and answers the last request with its Photo", async () => {
    const before = await photoCount();
    const response = await tusUpload(jpeg);
    expect(response.getStatus()).toBe(200);
    const photo = JSON.parse(response.getBody()) as Photo;
    expect(photo).toMatchObject({ kind: "photo", status: "ready", width: 1000, height: 900 });
    expect(await photoCount()).toBe(before + 1);
    expect(await leftovers()).toEqual([]);
  });

  it("takes a video: the last request answers with it in preparation, its poster ready, and its job makes the copy that plays", async () => {
    const folder = await fsp.mkdtemp(path.join(os.tmpdir(), "tus-clip-"));
    try {
      await filmTestClip(path.join(folder, "first-steps.mp4"), { seconds: 2 });
      const clip = await fsp.readFile(path.join(folder, "first-steps.mp4"));
      const response = await tusUpload(clip, { filename: "first-steps.mp4" });
      const video = JSON.parse(response.getBody()) as Photo;
      expect(video).toMatchObject({ kind: "video", status: "processing", video_url: null, duration_seconds: 2 });
      expect(video.thumbnail_url).toMatch(/\.webp$/);
      await expect
        .poll(
          async () =>
            (await testApp.app.inject({ method: "GET", url: `/api/v1/photos/${video.id}`, headers: ann.headers })).json<Photo>()
              .status,
          { timeout: 15_000 },
        )
        .toBe("ready");
      expect(await leftovers()).toEqual([]);
    } finally {
      await fsp.rm(folder, { recursive: true, force: true });
    }
  });

  it("tells a client whose last answer was lost what its finished upload became, and nobody else", async () => {
    const before = await photoCount();
    const location = (await create(jpeg.length, ann, `filename ${b64("beach.jpg")}`)).headers.get("location")!;
    const finished = await send(location, "PATCH", ann, { offset: 0, body: jpeg });
    const photo = (await finished.json()) as Photo;
    // The answer never reached the client: it asks where the upload stands, as tus-js-client does on resuming.
    const asked = await send(location, "HEAD", ann);
    expect(asked.status).toBe(200);
    expect(asked.headers.get("upload-offset")).toBe(String(jpeg.length));
    expect(asked.headers.get("upload-length")).toBe(String(jpeg.length));
    expect(asked.headers.get("memory-box-media")).toBe(photo.id);
    // The upload is over: nothing more goes in, no second photo, and it is nobody else's to learn of.
    expect((await send(location, "PATCH", ann, { offset: jpeg.length, body: Buffer.alloc(0) })).status).toBe(404);
    const bobAsks = await send(location, "HEAD", bob);
    expect(bobAsks.status).toBe(404);
    expect(bobAsks.headers.get("memory-box-media")).toBeNull();
    expect(await photoCount()).toBe(before + 1);
    expect(await leftovers()).toEqual([]);
  });

  it("takes a whole image in the creation request itself (creation-with-upload): 201 with the Photo", async () => {
    const response = await tusUpload(jpeg, { uploadDataDuringCreation: true });
    expect(response.getStatus()).toBe(201);
    expect(JSON.parse(response.getBody())).toMatchObject({ kind: "photo", width: 1000 });
    expect(await leftovers()).toEqual([]);
  });

  it("continues after the connection drops half-way, sending at most 5 % of the file again", async () => {
    const proxy = await cuttingProxy(new URL(base), largeJpeg.length / 2);
    try {
      const response = await tusUpload(largeJpeg, {
        endpoint: `http://127.0.0.1:${proxy.port}/api/v1/uploads`,
        retryDelays: [0, 100],
      });
      expect(response.getStatus()).toBe(200);
      expect(proxy.cuts).toBe(1);
      // Everything that crossed the connections (request heads included) beyond the file itself.
      const resent = proxy.bytesUp - largeJpeg.length;
      expect(resent / largeJpeg.length).toBeLessThanOrEqual(0.05);
      expect(JSON.parse(response.getBody())).toMatchObject({ kind: "photo" });
    } finally {
      await proxy.close();
    }
    expect(await leftovers()).toEqual([]);
  });

  it("says what it offers, with the app's security headers and a same-origin Location", async () => {
    const options = await fetch(`${base}/api/v1/uploads`, { method: "OPTIONS", headers: ann.headers });
    expect(options.status).toBe(204);
    expect(options.headers.get("tus-version")).toBe("1.0.0");
    expect(options.headers.get("tus-extension")).toBe("creation,creation-with-upload,termination,expiration");
    expect(options.headers.get("tus-max-size")).toBe(String(maxBytes));
    expect(options.headers.get("access-control-allow-origin")).toBeNull();

    const created = await fetch(`${base}/api/v1/uploads`, {
      method: "POST",
      headers: {
        ...ann.headers,
        "tus-resumable": "1.0.0",
        "upload-length": "10",
        "upload-metadata": `filename ${b64("a.mov")}`,
        host: "evil.example",
        "x-forwarded-host": "evil.example",
      },
    });
    expect(created.status).toBe(201);
    const location = created.headers.get("location")!;
    expect(location).toMatch(/^\/api\/v1\/uploads\/[0-9a-f]{32}$/);
    expect(created.headers.get("x-content-type-options")).toBe("nosniff");
    expect(created.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(created.headers.get("x-request-id")).toBeTruthy();
    expect(Date.parse(created.headers.get("upload-expires")!) - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
    expect((await send(location, "DELETE", ann)).status).toBe(204);
    expect(await leftovers()).toEqual([]);
  });

  it("tells another member an upload does not exist, and leaves it as it was", async () => {
    const created = await create(1000);
    const location = created.headers.get("location")!;
    expect((await send(location, "PATCH", ann, { offset: 0, body: Buffer.alloc(400, 1) })).status).toBe(204);
    for (const [method, init] of [
      ["HEAD", {}],
      ["PATCH", { offset: 400, body: Buffer.alloc(600, 2) }],
      ["DELETE", {}],
    ] as const) {
      const response = await send(location, method, bob, init);
      expect(response.status, method).toBe(404);
      if (method !== "HEAD") expect(await response.json()).toMatchObject({ code: "upload_not_found" });
    }
    const head = await send(location, "HEAD", ann);
    expect(head.status).toBe(200);
    expect(head.headers.get("upload-offset")).toBe("400");
    expect(head.headers.get("cache-control")).toBe("no-store");
    expect((await send(location, "DELETE", ann)).status).toBe(204);
    expect((await send(location, "HEAD", ann)).status).toBe(404);
  });

  it("refuses every request without a live session, and stops an upload at the next request after sign-out", async () => {
    const created = await create(1000);
    const location = created.headers.get("location")!;
    expect((await create(1000, null)).status).toBe(401);
    const unauthenticated = await send(location, "PATCH", null, { offset: 0, body: Buffer.alloc(10) });
    expect(unauthenticated.status).toBe(401);
    expect(await unauthenticated.json()).toMatchObject({ code: "not_authenticated" });
    for (const method of ["HEAD", "DELETE", "OPTIONS"]) expect((await send(location, method, null)).status, method).toBe(401);
    const forged = { ...ann, headers: { authorization: `${ann.headers.authorization.slice(0, -4)}AAAA` } };
    expect((await send(location, "PATCH", forged, { offset: 0, body: Buffer.alloc(10) })).status).toBe(401);

    const carl = await createMember(testApp, "carl@memory-box.test", "Carl");
    const carlsUpload = (await create(1000, carl)).headers.get("location")!;
    expect((await send(carlsUpload, "PATCH", carl, { offset: 0, body: Buffer.alloc(500) })).status).toBe(204);
    const signOut = await fetch(`${base}/auth/v1/logout`, { method: "POST", headers: carl.headers });
    expect(signOut.status).toBe(204);
    const after = await send(carlsUpload, "PATCH", carl, { offset: 500, body: Buffer.alloc(500) });
    expect(after.status).toBe(401);
    // What Carl had sent waits for the sweep; here it is removed at once.
    const carlsId = carlsUpload.split("/").pop()!;
    for (const file of [carlsId, `${carlsId}.json`]) await fsp.rm(path.join(uploadDir, file));
    expect((await send(location, "DELETE", ann)).status).toBe(204);
  });

  it("answers the protocol's own refusals in the app's shape and the member's language, and logs each request", async () => {
    const location = (await create(100)).headers.get("location")!;
    const conflict = await fetch(new URL(location, base), {
      method: "PATCH",
      headers: {
        ...ann.headers,
        "accept-language": "de",
        "tus-resumable": "1.0.0",
        "upload-offset": "50",
        "content-type": "application/offset+octet-stream",
      },
      body: new Uint8Array(10),
    });
    expect(conflict.status).toBe(409);
    expect(conflict.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(conflict.headers.get("tus-resumable")).toBe("1.0.0");
    expect(await conflict.json()).toEqual({
      code: "upload_offset_conflict",
      message: "Der Upload setzt nicht dort fort, wo der Server aufgehört hat; frage den Stand ab und mach von dort aus weiter.",
    });
    const noVersion = await fetch(new URL(location, base), { method: "HEAD", headers: ann.headers });
    expect(noVersion.status).toBe(412);
    const wrongType = await fetch(new URL(location, base), {
      method: "PATCH",
      headers: { ...ann.headers, "tus-resumable": "1.0.0", "upload-offset": "0", "content-type": "application/json" },
      body: "{}",
    });
    expect(wrongType.status).toBe(400);
    expect(await wrongType.json()).toMatchObject({ code: "bad_request" });
    expect((await send(location, "DELETE", ann)).status).toBe(204);

    const logged = logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const line = logged.find((entry) => entry.msg === "request" && entry.method === "PATCH" && entry.url === location);
    expect(line).toMatchObject({ statusCode: 409 });
    expect(typeof line?.durationMs).toBe("number");
    expect(logLines.join("\n")).not.toContain(ann.accessToken);
  });

  it("limits how many uploads a member starts in a while, member by member", async () => {
    const dora = await createMember(testApp, "dora@memory-box.test", "Dora");
    const statuses: number[] = [];
    // Empty files: each is complete at its creation, refused as no image, and leaves nothing behind.
    for (let batch = 0; batch < 15; batch++) {
      const answers = await Promise.all(Array.from({ length: 20 }, () => create(0, dora)));
      statuses.push(...answers.map((answer) => answer.status));
    }
    expect(statuses.filter((status) => status !== 429)).toHaveLength(300);
    const over = await create(10, dora);
    expect(over.status).toBe(429);
    expect(await over.json()).toMatchObject({ code: "over_request_rate_limit" });
    // Another member is not held back by Dora's uploads.
    const anns = await create(10, ann);
    expect(anns.status).toBe(201);
    expect((await send(anns.headers.get("location")!, "DELETE", ann)).status).toBe(204);
  });

  it("answers forged and unknown ids as not found", async () => {
    for (const id of [randomBytes(16).toString("hex"), "not-an-id", "..%2F..%2Fmemory-box.sqlite", "A".repeat(32)]) {
      const response = await send(`/api/v1/uploads/${id}`, "PATCH", ann, { offset: 0, body: Buffer.alloc(4) });
      expect(response.status, id).toBe(404);
      expect(await response.json()).toMatchObject({ code: "upload_not_found" });
    }
  });

  it("refuses at creation a file over the limit, a length left open and metadata out of bounds", async () => {
    const tooLarge = await create(maxBytes + 1);
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toEqual({
      code: "request_entity_too_large",
      message: "The file is larger than the upload limit of 12.6 MB.",
    });
    const deferred = await fetch(`${base}/api/v1/uploads`, {
      method: "POST",
      headers: { ...ann.headers, "tus-resumable": "1.0.0", "upload-defer-length": "1" },
    });
    expect(deferred.status).toBe(400);
    expect(await deferred.json()).toMatchObject({ code: "upload_length_required" });
    for (const metadata of [
      "",
      `filename ${b64("x".repeat(256))}`,
      `filename ${b64("../../etc/passwd")}`,
      `filename ${b64("a.mp4")},owner ${b64(bob.userId)}`,
      `filename ${b64("a.mp4")},filetype ${b64("not a type")}`,
      "filename not-base64!",
    ]) {
      const response = await create(10, ann, metadata);
      expect(response.status, metadata).toBe(400);
      expect(await response.json()).toMatchObject({ code: "validation_failed" });
    }
    expect(await leftovers()).toEqual([]);
  });

  it("refuses a completed file that is not an image with its code, and keeps nothing", async () => {
    const before = await photoCount();
    const error = await tusUpload(randomBytes(300_000), { filename: "notes.jpg" }).then(
      () => undefined,
      (failure: { originalResponse?: HttpResponse }) => failure,
    );
    expect(error?.originalResponse?.getStatus()).toBe(415);
    expect(JSON.parse(error!.originalResponse!.getBody())).toMatchObject({ code: "unsupported_image_type" });
    expect(await photoCount()).toBe(before);
    expect(await leftovers()).toEqual([]);
  });

  it("cannot complete the same upload twice", async () => {
    const before = await photoCount();
    const location = (await create(jpeg.length, ann, `filename ${b64("beach.jpg")}`)).headers.get("location")!;
    expect((await send(location, "PATCH", ann, { offset: 0, body: jpeg.subarray(0, -1) })).status).toBe(204);
    // Two requests carry the last byte at once: one completes, the other finds nothing to complete.
    const statuses = (
      await Promise.all([0, 1].map(() => send(location, "PATCH", ann, { offset: jpeg.length - 1, body: jpeg.subarray(-1) })))
    ).map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect((await send(location, "PATCH", ann, { offset: jpeg.length, body: Buffer.alloc(0) })).status).toBe(404);
    expect(await photoCount()).toBe(before + 1);
    expect(await leftovers()).toEqual([]);
  });

  it("answers a full disk with 507 insufficient_storage", async () => {
    const location = (await create(1000)).headers.get("location")!;
    const createWriteStream = fs.createWriteStream;
    const spy = vi.spyOn(fs, "createWriteStream").mockImplementation((...args: Parameters<typeof fs.createWriteStream>) => {
      const stream = createWriteStream(...args);
      stream._write = (_chunk, _encoding, callback) =>
        callback(Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", errno: -28 }));
      stream._writev = undefined;
      return stream;
    });
    let response: Response;
    try {
      response = await send(location, "PATCH", ann, { offset: 0, body: Buffer.alloc(1000, 7) });
    } finally {
      spy.mockRestore();
    }
    expect(response.status).toBe(507);
    expect(await response.json()).toEqual({
      code: "insufficient_storage",
      message: "The server's storage is full, so nothing was saved. Ask whoever runs Memory Box to free some space.",
    });
    expect((await send(location, "DELETE", ann)).status).toBe(204);
  });

  it("sweeps partial uploads a day after their last progress", async () => {
    const stale = (await create(1000)).headers.get("location")!;
    const fresh = (await create(1000)).headers.get("location")!;
    await send(stale, "PATCH", ann, { offset: 0, body: Buffer.alloc(100) });
    const staleId = stale.split("/").pop()!;
    const dayAgo = new Date(Date.now() - 25 * 3600 * 1000);
    for (const file of [staleId, `${staleId}.json`]) await fsp.utimes(path.join(uploadDir, file), dayAgo, dayAgo);
    // Past its lifetime it is gone for the client before the sweep comes.
    expect((await send(stale, "HEAD", ann)).status).toBe(410);
    const sweeper = new ResumableUploadsService({
      directory: uploadDir,
      maxBytes,
      complete: () => Promise.reject(new Error("not here")),
      log: { error: () => {}, warn: () => {} },
    });
    expect(await sweeper.sweepExpired()).toBe(1);
    expect(await leftovers()).toEqual([fresh.split("/").pop()!, `${fresh.split("/").pop()!}.json`].sort());
    expect((await send(stale, "HEAD", ann)).status).toBe(404);
    expect((await send(fresh, "DELETE", ann)).status).toBe(204);
  });
});

function b64(text: string): string {
  return Buffer.from(text).toString("base64");
}
