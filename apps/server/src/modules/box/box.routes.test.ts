import type { BoxSettings, Memory } from "@memory-box/contract";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStream } from "../../../test/event-stream";
import { createMember, type TestMember, uploadPhotoAs } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";

/** A small JPEG. */
function jpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 90 } } })
    .jpeg()
    .toBuffer();
}

const unknownId = "6f1b2c3d-0000-4000-8000-000000000000";
const nothingSet: BoxSettings = { name: null, cover: null, together_since: null, updated_at: null, updated_by: null };

/** "YYYY-MM-DD", `days` from today (UTC). */
function dayFromToday(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

describe.each(testEngines())("the box's name, cover and together-since (ADR 0065) on %s", (engine) => {
  let testApp: TestApp;
  let baseUrl: string;
  let ann: TestMember;
  let ben: TestMember;
  let memory: Memory;

  beforeAll(async () => {
    // An open installation with anonymous sign-ins, so an anonymous session can knock too.
    testApp = await createTestApp(engine, {
      env: { AUTH_RATE_LIMITS: "false", AUTH_INVITE_ONLY: "false", AUTH_ANONYMOUS_SIGN_INS: "true" },
    });
    baseUrl = await testApp.app.listen({ port: 0, host: "127.0.0.1" });
    // The first account of an instance is its owner.
    ann = await createMember(testApp, "ann.box@memory-box.test", "Ann");
    ben = await createMember(testApp, "ben.box@memory-box.test", "Ben");
    const created = await testApp.app.inject({
      method: "POST",
      url: "/api/v1/memories",
      headers: ann.headers,
      payload: { title: "Our first trip", photo_ids: [await uploadPhotoAs(testApp, ann, await jpeg(120, 80))] },
    });
    expect(created.statusCode, created.body).toBe(201);
    memory = created.json<Memory>();
  });
  afterAll(() => testApp.close());

  const boxAs = async (member: TestMember) => {
    const response = await testApp.app.inject({ method: "GET", url: "/api/v1/box", headers: member.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<BoxSettings>();
  };
  const put = (headers: Record<string, string>, payload: unknown) =>
    testApp.app.inject({
      method: "PUT",
      url: "/api/v1/box",
      headers: { ...headers, "content-type": "application/json" },
      payload: JSON.stringify(payload),
    });
  const valid = { name: "Ann & Ben", cover_photo_id: null, together_since: "2019-06-01" };

  it("needs a signed-in member to read or change, and a forged token is not one", async () => {
    const knocks: Record<string, string>[] = [
      {},
      { authorization: "Bearer not-a-token" },
      { authorization: `${ann.headers.authorization}x` },
    ];
    for (const headers of knocks) {
      const read = await testApp.app.inject({ method: "GET", url: "/api/v1/box", headers });
      expect(read.statusCode).toBe(401);
      const write = await put(headers, valid);
      expect(write.statusCode).toBe(401);
    }
    expect(await boxAs(ann)).toEqual(nothingSet);
  });

  it("never opens to an anonymous session", async () => {
    const signUp = await testApp.app.inject({
      method: "POST",
      url: "/auth/v1/signup",
      headers: { "x-supabase-api-version": "2024-01-01" },
      payload: {},
    });
    expect(signUp.statusCode, signUp.body).toBe(200);
    const headers = { authorization: `Bearer ${signUp.json<{ access_token: string }>().access_token}` };
    const read = await testApp.app.inject({ method: "GET", url: "/api/v1/box", headers });
    expect(read.statusCode).toBe(403);
    expect(read.json()).toMatchObject({ code: "anonymous_not_member" });
    const write = await put(headers, valid);
    expect(write.statusCode).toBe(403);
    expect(await boxAs(ann)).toEqual(nothingSet);
  });

  it("shows every member a box with nothing set to begin with", async () => {
    expect(await boxAs(ann)).toEqual(nothingSet);
    expect(await boxAs(ben)).toEqual(nothingSet);
  });

  it("refuses a member (not an owner) whatever they send, and changes nothing", async () => {
    for (const payload of [valid, { name: 5 }, {}, "x".repeat(10_000)]) {
      const response = await put(ben.headers, payload);
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json()).toMatchObject({ code: "owner_only" });
    }
    expect(await boxAs(ben)).toEqual(nothingSet);
  });

  it("lets an owner name the box, choose a memory's photo as its cover and the day they met; every member sees it, live", async () => {
    const stream = await openStream(baseUrl, ben);
    const photoId = memory.photos[0]!.id;
    const response = await put(ann.headers, { name: "  Ann & Ben  ", cover_photo_id: photoId, together_since: "2019-06-01" });
    expect(response.statusCode, response.body).toBe(200);
    const saved = response.json<BoxSettings>();
    expect(saved).toMatchObject({ name: "Ann & Ben", together_since: "2019-06-01", updated_by: ann.userId });
    expect(saved.updated_at).toEqual(expect.any(String));
    // The cover is the photo's own members-only URLs (display copy and thumbnail), never its original.
    expect(saved.cover).toMatchObject({
      id: photoId,
      url: memory.photos[0]!.url,
      thumbnail_url: memory.photos[0]!.thumbnail_url,
      width: 120,
      height: 80,
    });
    expect(saved.cover!.placeholder).not.toBe("");
    expect(saved.cover!.url).toMatch(/^\/storage\/v1\/object\/authenticated\//);
    const event = await stream.waitFor((streamed) => streamed.event === "box.updated");
    expect(JSON.parse(event.data)).toEqual({ id: "box", actor: ann.userId });
    await stream.close();
    expect(await boxAs(ben)).toEqual(saved);

    // The cover's bytes are a member's only.
    const signedOut = await testApp.app.inject({ method: "GET", url: saved.cover!.url });
    expect(signedOut.statusCode).not.toBe(200);
    const asBen = await testApp.app.inject({ method: "GET", url: saved.cover!.thumbnail_url, headers: ben.headers });
    expect(asBen.statusCode).toBe(200);
  });

  it("takes today as together-since, and an 80-character name counted after trimming", async () => {
    const name = `  ${"n".repeat(80)}  `;
    const response = await put(ann.headers, { name, cover_photo_id: null, together_since: dayFromToday(0) });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<BoxSettings>()).toMatchObject({ name: "n".repeat(80), cover: null, together_since: dayFromToday(0) });
  });

  const refusals: [string, unknown, string][] = [
    ["a name of 81 characters", { ...valid, name: "n".repeat(81) }, "body.name"],
    ["a name of 10,000 characters", { ...valid, name: "n".repeat(10_000) }, "body.name"],
    ["a name that is a number", { ...valid, name: 42 }, "body.name"],
    ["no name field", { cover_photo_id: null, together_since: null }, "body.name"],
    ["a cover that is not a photo id", { ...valid, cover_photo_id: "nothing" }, "body.cover_photo_id"],
    ["a cover of no photo", { ...valid, cover_photo_id: unknownId }, "body.cover_photo_id"],
    ["a cover that is a number", { ...valid, cover_photo_id: 7 }, "body.cover_photo_id"],
    ["a date in the future", { ...valid, together_since: dayFromToday(3) }, "body.together_since"],
    ["a date far in the future", { ...valid, together_since: "9999-12-31" }, "body.together_since"],
    ["a date before the year 1000", { ...valid, together_since: "0999-12-31" }, "body.together_since"],
    ["a date that is no day", { ...valid, together_since: "2023-02-29" }, "body.together_since"],
    ["a date in another shape", { ...valid, together_since: "01/06/2019" }, "body.together_since"],
    ["a date that is a number", { ...valid, together_since: 20190601 }, "body.together_since"],
  ];

  it.each(refusals)("refuses %s with 400 validation_failed naming the field, and saves nothing", async (_, payload, path) => {
    const before = await boxAs(ann);
    const response = await put(ann.headers, payload);
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json<{ code: string; details: { path: string }[] }>();
    expect(body.code).toBe("validation_failed");
    expect(body.details.map((detail) => detail.path)).toContain(path);
    expect(await boxAs(ann)).toEqual(before);
  });

  it.each([[[]], ["box"], [null], [{ ...valid, user_id: unknownId }], [{ ...valid, id: 2 }]])(
    "refuses the body %j with 400 validation_failed and saves nothing",
    async (payload) => {
      const before = await boxAs(ann);
      const response = await put(ann.headers, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: "validation_failed" });
      expect(await boxAs(ann)).toEqual(before);
    },
  );

  it("refuses as cover an upload in no memory, even the owner's own, and saves nothing", async () => {
    const before = await boxAs(ann);
    const loose = await uploadPhotoAs(testApp, ann, await jpeg(30, 30));
    const response = await put(ann.headers, { ...valid, cover_photo_id: loose });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: "validation_failed", details: [{ path: "body.cover_photo_id" }] });
    expect(await boxAs(ann)).toEqual(before);
  });

  it("loses its cover, and only its cover, when the photo is deleted", async () => {
    const doomed = await testApp.app.inject({
      method: "POST",
      url: "/api/v1/memories",
      headers: ann.headers,
      payload: { title: "Gone", photo_ids: [await uploadPhotoAs(testApp, ann, await jpeg(20, 20))] },
    });
    const photoId = doomed.json<Memory>().photos[0]!.id;
    expect((await put(ann.headers, { ...valid, cover_photo_id: photoId })).statusCode).toBe(200);
    const deleted = await testApp.app.inject({
      method: "DELETE",
      url: `/api/v1/memories/${doomed.json<Memory>().id}`,
      headers: ann.headers,
    });
    expect(deleted.statusCode).toBe(204);
    expect(await boxAs(ben)).toMatchObject({ name: valid.name, cover: null, together_since: valid.together_since });
  });

  it("is unset again with nulls, or an empty name", async () => {
    const response = await put(ann.headers, { name: "   ", cover_photo_id: null, together_since: null });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<BoxSettings>()).toMatchObject({ name: null, cover: null, together_since: null, updated_by: ann.userId });
  });
});
