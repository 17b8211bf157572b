import type { Memory } from "@memory-box/contract";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStream } from "../../../test/event-stream";
import { createMember, type TestMember, uploadPhotoAs } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";

/** A small JPEG of this shape. */
function jpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 90, g: 140, b: 200 } } })
    .jpeg()
    .toBuffer();
}

const unknownId = "6f1b2c3d-0000-4000-8000-000000000000";

describe.each(testEngines())("a memory's cover and its photos' captions (ADR 0062) on %s", (engine) => {
  let testApp: TestApp;
  let baseUrl: string;
  let ann: TestMember;
  let ben: TestMember;
  let memory: Memory;
  let other: Memory;

  beforeAll(async () => {
    testApp = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
    baseUrl = await testApp.app.listen({ port: 0, host: "127.0.0.1" });
    ann = await createMember(testApp, "ann.cover@memory-box.test", "Ann");
    ben = await createMember(testApp, "ben.cover@memory-box.test", "Ben");
    const photoIds = [];
    for (const [width, height] of [
      [120, 80],
      [60, 100],
      [200, 50],
    ] as const) {
      photoIds.push(await uploadPhotoAs(testApp, ann, await jpeg(width, height)));
    }
    memory = await create(ann, { title: "Picnic by the lake", photo_ids: photoIds });
    other = await create(ann, { title: "Another day", photo_ids: [await uploadPhotoAs(testApp, ann, await jpeg(40, 40))] });
  });
  afterAll(() => testApp.close());

  async function create(member: TestMember, body: object): Promise<Memory> {
    const response = await testApp.app.inject({
      method: "POST",
      url: "/api/v1/memories",
      headers: member.headers,
      payload: body,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Memory>();
  }
  const put = (member: TestMember | null, url: string, payload: unknown, headers: Record<string, string> = {}) =>
    testApp.app.inject({
      method: "PUT",
      url,
      payload: payload as object,
      headers: { ...(member ? member.headers : {}), ...headers },
    });
  const get = async (id: string) =>
    (await testApp.app.inject({ method: "GET", url: `/api/v1/memories/${id}`, headers: ann.headers })).json<Memory>();

  it("has no cover and no captions to begin with", async () => {
    const shown = await get(memory.id);
    expect(shown.cover_photo_id).toBeNull();
    expect(shown.photos.map((photo) => photo.caption)).toEqual([null, null, null]);
  });

  it("lets any member choose one of the memory's photos as its cover: a new version, told to the live stream", async () => {
    const stream = await openStream(baseUrl, ann);
    const before = await get(memory.id);
    const response = await put(ben, `/api/v1/memories/${memory.id}/cover`, { photo_id: memory.photos[2]!.id });
    expect(response.statusCode, response.body).toBe(200);
    const answered = response.json<Memory>();
    expect(answered.cover_photo_id).toBe(memory.photos[2]!.id);
    expect(answered.version).toBe(before.version + 1);
    expect(answered.updated_by).toBe(ben.userId);
    expect(response.headers.etag).toBe(`"v${answered.version}"`);
    const event = await stream.waitFor((streamed) => streamed.event === "memory.updated");
    expect(JSON.parse(event.data)).toEqual({ id: memory.id, actor: ben.userId });
    await stream.close();
    expect((await get(memory.id)).cover_photo_id).toBe(memory.photos[2]!.id);
    // The list shows it too.
    const listed = (await testApp.app.inject({ method: "GET", url: "/api/v1/memories", headers: ann.headers })).json<{
      items: Memory[];
    }>();
    expect(listed.items.find((item) => item.id === memory.id)?.cover_photo_id).toBe(memory.photos[2]!.id);
  });

  it("refuses another memory's photo, an unknown photo, and a cover of an unknown memory", async () => {
    const foreign = await put(ann, `/api/v1/memories/${memory.id}/cover`, { photo_id: other.photos[0]!.id });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ code: "validation_failed", details: [{ path: "body.photo_id" }] });
    const unknown = await put(ann, `/api/v1/memories/${memory.id}/cover`, { photo_id: unknownId });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: "validation_failed", details: [{ path: "body.photo_id" }] });
    const noMemory = await put(ann, `/api/v1/memories/${unknownId}/cover`, { photo_id: memory.photos[0]!.id });
    expect(noMemory.statusCode).toBe(404);
    expect(noMemory.json()).toMatchObject({ code: "memory_not_found" });
    for (const body of [{}, { photo_id: 3 }, { photo_id: "not-a-uuid" }, []]) {
      const wrong = await put(ann, `/api/v1/memories/${memory.id}/cover`, body);
      expect(wrong.statusCode, JSON.stringify(body)).toBe(400);
      expect(wrong.json()).toMatchObject({ code: "validation_failed" });
    }
    expect((await get(memory.id)).cover_photo_id).toBe(memory.photos[2]!.id);
  });

  it("refuses a stale If-Match with 409", async () => {
    const response = await put(ann, `/api/v1/memories/${memory.id}/cover`, { photo_id: null }, { "if-match": '"v1"' });
    expect(response.statusCode).toBe(409);
  });

  it("sets, trims and removes a photo's caption, bumping its memory's version", async () => {
    const before = await get(memory.id);
    const photoId = memory.photos[1]!.id;
    const response = await put(ann, `/api/v1/photos/${photoId}/caption`, { caption: "  湖のそばで 🌊  " });
    expect(response.statusCode, response.body).toBe(200);
    const answered = response.json<Memory>();
    expect(answered.id).toBe(memory.id);
    expect(answered.photos[1]!.caption).toBe("湖のそばで 🌊");
    expect(answered.version).toBe(before.version + 1);
    const removed = await put(ben, `/api/v1/photos/${photoId}/caption`, { caption: "   " });
    expect(removed.json<Memory>().photos[1]!.caption).toBeNull();
    await put(ann, `/api/v1/photos/${photoId}/caption`, { caption: "x".repeat(500) });
    expect((await get(memory.id)).photos[1]!.caption).toHaveLength(500);
  });

  it("refuses a caption too long or of the wrong type, naming the field, and an unknown photo", async () => {
    const photoId = memory.photos[0]!.id;
    for (const body of [
      { caption: "x".repeat(501) },
      { caption: "x".repeat(100_000) },
      { caption: 42 },
      { caption: ["a"] },
      {},
    ]) {
      const response = await put(ann, `/api/v1/photos/${photoId}/caption`, body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 40)).toBe(400);
      const answer = response.json<{ code: string; details: { path: string }[] }>();
      expect(answer.code).toBe("validation_failed");
      expect(answer.details[0]!.path).toBe("body.caption");
    }
    const unknown = await put(ann, `/api/v1/photos/${unknownId}/caption`, { caption: "Hi" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: "photo_not_found" });
    const badId = await put(ann, "/api/v1/photos/not-a-uuid/caption", { caption: "Hi" });
    expect(badId.statusCode).toBe(400);
    expect(badId.json()).toMatchObject({ code: "validation_failed", details: [{ path: "params.id" }] });
  });

  it("refuses an upload not yet in a memory: no caption on a photo only its uploader sees", async () => {
    const loose = await uploadPhotoAs(testApp, ann, await jpeg(30, 30));
    const response = await put(ben, `/api/v1/photos/${loose}/caption`, { caption: "Mine" });
    expect(response.statusCode).toBe(404);
  });

  it("refuses a signed-out caller and a forged token on both routes", async () => {
    for (const url of [`/api/v1/memories/${memory.id}/cover`, `/api/v1/photos/${memory.photos[0]!.id}/caption`]) {
      const anonymous = await put(null, url, { photo_id: null, caption: null });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toMatchObject({ code: "not_authenticated" });
      const forged = await put(null, url, { photo_id: null, caption: null }, { authorization: "Bearer not.a.jwt" });
      expect(forged.statusCode).toBe(401);
    }
  });

  it("clears the cover when its photo leaves the memory", async () => {
    const [first, second, cover] = (await get(memory.id)).photos;
    expect((await get(memory.id)).cover_photo_id).toBe(cover!.id);
    const edited = await put(ann, `/api/v1/memories/${memory.id}`, {
      title: "Picnic by the lake",
      photo_ids: [first!.id, second!.id],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<Memory>().cover_photo_id).toBeNull();
    // The caption stays with its photo.
    expect(edited.json<Memory>().photos[1]!.caption).toHaveLength(500);
  });

  it("lets a memory with a cover be deleted", async () => {
    const doomed = await create(ann, { title: "Gone", photo_ids: [await uploadPhotoAs(testApp, ann, await jpeg(20, 20))] });
    expect((await put(ann, `/api/v1/memories/${doomed.id}/cover`, { photo_id: doomed.photos[0]!.id })).statusCode).toBe(200);
    const response = await testApp.app.inject({ method: "DELETE", url: `/api/v1/memories/${doomed.id}`, headers: ann.headers });
    expect(response.statusCode).toBe(204);
  });
});
