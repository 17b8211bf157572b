import { createHash, randomUUID } from "node:crypto";
import { FRAME_CLIENT_ID, type FrameSlides, type Memory } from "@memory-box/contract";
import type { Kysely } from "kysely";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../../db/database";
import type { Database } from "../../db/schema";
import { createBlobStore } from "../storage";
import { pairFrame, type PairedFrame } from "../../../test/frames";
import { createMember, type TestMember, uploadPhotoAs } from "../../../test/members";
import { photoRow } from "../../../test/photo-rows";
import { serviceRoleToken } from "../../../test/service-token";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";

// What a paired frame may read (ADR 0076): its slides, by what it was given to show, a page at a
// time in one query each; the bytes of those slides and of nothing else; and nothing of the
// product API, whose door refuses its session as it refuses every app's.

const dayMs = 86_400_000;
/** "YYYY-MM-DD", `days` before today (UTC). */
const daysAgo = (days: number) => new Date(Date.now() - days * dayMs).toISOString().slice(0, 10);
const today = daysAgo(0);

function jpeg(seed: number): Promise<Buffer> {
  return sharp({ create: { width: 48, height: 32, channels: 3, background: { r: seed * 40, g: 120, b: 90 } } })
    .jpeg()
    .toBuffer();
}

describe.each(testEngines())("a paired frame's door on %s", (engine) => {
  let testApp: TestApp;
  let database: DatabaseHandle;
  let db: Kysely<Database>;
  let ann: TestMember;
  let queries = 0;
  const photo: Record<"beach" | "hike" | "lastYears" | "undated" | "video" | "preparing" | "failed", string> = {
    beach: "",
    hike: "",
    lastYears: "",
    undated: "",
    video: "",
    preparing: "",
    failed: "",
  };
  let beachMemory: Memory;
  let everything: PairedFrame;

  const createMemory = async (payload: object) => {
    const response = await testApp.app.inject({ method: "POST", url: "/api/v1/memories", headers: ann.headers, payload });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Memory>();
  };
  /** A video's row and its web copy and poster, stored as the pipeline would leave them. */
  const storedVideo = async (status: "ready" | "processing" | "failed") => {
    const key = `${ann.userId}/${Date.now()}-${randomUUID().slice(0, 12)}`;
    const row = photoRow(key, {
      owner_id: ann.userId,
      kind: "video",
      status,
      duration_ms: 2000,
      web_key: `${key}.web.mp4`,
      web_content_type: "video/mp4",
      error_code: status === "failed" ? "video_unreadable" : null,
    });
    const blobs = createBlobStore(testApp.config.storageUrl, testApp.config.dataDir);
    try {
      await blobs.put(`memory-photos/${row.display_key}`, await jpeg(5), { contentType: "image/jpeg" });
      if (status === "ready")
        await blobs.put(`memory-photos/${row.web_key}`, Buffer.alloc(1000, 7), { contentType: "video/mp4" });
    } finally {
      await blobs.close();
    }
    await db.insertInto("photos").values(row).execute();
    return row.id;
  };
  const slides = (frame: { headers: Record<string, string> }, query = `today=${today}`) =>
    testApp.app.inject({ method: "GET", url: `/api/v1/frame/slides?${query}`, headers: frame.headers });
  const slideIds = async (frame: PairedFrame, query?: string) => {
    const response = await slides(frame, query);
    expect(response.statusCode, response.body).toBe(200);
    return response
      .json<FrameSlides>()
      .slides.map((slide) => slide.photo_id)
      .sort();
  };
  const media = (frame: PairedFrame, path: string, headers: Record<string, string> = {}) =>
    testApp.app.inject({ method: "GET", url: `/api/v1/frame/media/${path}`, headers: { ...frame.headers, ...headers } });

  beforeAll(async () => {
    testApp = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" }, onQuery: () => (queries += 1) });
    ann = await createMember(testApp, "ann.frame-door@memory-box.test", "Ann");
    database = openDatabase(testApp.config.database);
    db = database.db;
    photo.beach = await uploadPhotoAs(testApp, ann, await jpeg(1));
    photo.hike = await uploadPhotoAs(testApp, ann, await jpeg(2));
    photo.lastYears = await uploadPhotoAs(testApp, ann, await jpeg(3));
    photo.undated = await uploadPhotoAs(testApp, ann, await jpeg(4));
    photo.video = await storedVideo("ready");
    photo.preparing = await storedVideo("processing");
    photo.failed = await storedVideo("failed");
    beachMemory = await createMemory({ title: "Beach", memory_date: daysAgo(830), tags: ["Beach"], photo_ids: [photo.beach] });
    await createMemory({ title: "Hike", memory_date: daysAgo(1030), tags: ["hike"], photo_ids: [photo.hike] });
    await createMemory({ title: "Two years ago", memory_date: daysAgo(730), photo_ids: [photo.lastYears] });
    await createMemory({
      title: "Undated",
      photo_ids: [photo.undated, photo.video, photo.preparing, photo.failed],
    });
    everything = await pairFrame(testApp, ann, { kind: "everything" });
  });
  afterAll(async () => {
    await database?.destroy();
    await testApp?.close();
  });

  it("shows what it was given: everything, some tags, dates, on this day", async () => {
    const response = await slides(everything);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    const page = response.json<FrameSlides>();
    expect(page).toMatchObject({
      frame: { id: everything.frame.id, name: "Living room" },
      next_cursor: null,
      refresh_seconds: 30,
    });
    // Newest memory first; the undated last, its media in order; a failed video left out.
    expect(page.slides.map((slide) => slide.photo_id)).toEqual([
      photo.lastYears,
      photo.beach,
      photo.hike,
      photo.undated,
      photo.video,
      photo.preparing,
    ]);
    expect(page.slides[1]).toEqual({
      photo_id: photo.beach,
      memory_id: beachMemory.id,
      title: "Beach",
      memory_date: daysAgo(830),
      kind: "photo",
      width: 48,
      height: 32,
      placeholder: expect.any(String) as string,
      url: `/api/v1/frame/media/${photo.beach}`,
      video_url: null,
    });
    // A ready video plays; one being prepared shows its poster meanwhile.
    expect(page.slides[4]).toMatchObject({ kind: "video", video_url: `/api/v1/frame/media/${photo.video}/video` });
    expect(page.slides[5]).toMatchObject({ kind: "video", video_url: null, url: `/api/v1/frame/media/${photo.preparing}` });

    const tagged = await pairFrame(testApp, ann, { kind: "tags", tags: ["BEACH", "nothing"] });
    expect(await slideIds(tagged)).toEqual([photo.beach]);
    const twoTags = await pairFrame(testApp, ann, { kind: "tags", tags: ["beach", "hike"] });
    expect(await slideIds(twoTags)).toEqual([photo.beach, photo.hike].sort());
    const dated = await pairFrame(testApp, ann, { kind: "dates", from: daysAgo(900), to: daysAgo(800) });
    expect(await slideIds(dated)).toEqual([photo.beach]);
    const since = await pairFrame(testApp, ann, { kind: "dates", from: daysAgo(900), to: null });
    expect(await slideIds(since)).toEqual([photo.beach, photo.lastYears].sort());
    const onThisDay = await pairFrame(testApp, ann, { kind: "on-this-day" });
    expect(await slideIds(onThisDay)).toEqual([photo.lastYears]);
    // Its own calendar day, when that is a day somewhere on Earth now; any other is taken as today's.
    expect(await slideIds(onThisDay, `today=${daysAgo(-100)}`)).toEqual([photo.lastYears]);
    expect(await slideIds(onThisDay, `today=${daysAgo(2)}`)).toEqual([photo.lastYears]);
    expect((await slides(onThisDay, "today=yesterday")).statusCode).toBe(400);

    // A change from Settings is what the next refresh shows.
    const changed = await testApp.app.inject({
      method: "PATCH",
      url: `/api/v1/frames/${tagged.frame.id}`,
      headers: ann.headers,
      payload: { selection: { kind: "tags", tags: ["hike"] } },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await slideIds(tagged)).toEqual([photo.hike]);
  });

  it("serves the bytes of its own slides only, as the photo route serves them", async () => {
    const tagged = await pairFrame(testApp, ann, { kind: "tags", tags: ["beach"] });
    const shown = await media(tagged, photo.beach);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers).toMatchObject({
      "content-type": "image/jpeg",
      "cache-control": "private, max-age=600",
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
    });
    expect((await sharp(shown.rawPayload).metadata()).width).toBe(48);
    expect((await media(tagged, photo.beach, { "if-none-match": shown.headers.etag as string })).statusCode).toBe(304);
    // Not in its selection, not a video's copy, unknown: as if it did not exist.
    for (const path of [photo.hike, `${photo.beach}/video`, randomUUID(), `${photo.video}/video`]) {
      const refused = await media(tagged, path);
      expect(refused.statusCode, path).toBe(404);
    }

    const poster = await media(everything, photo.video);
    expect(poster.statusCode).toBe(200);
    expect(poster.headers["content-type"]).toBe("image/jpeg");
    const ranged = await media(everything, `${photo.video}/video`, { range: "bytes=10-19" });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.headers).toMatchObject({
      "content-range": "bytes 10-19/1000",
      "content-type": "video/mp4",
      "accept-ranges": "bytes",
    });
    expect(ranged.rawPayload.length).toBe(10);
    const past = await media(everything, `${photo.video}/video`, { range: "bytes=5000-" });
    expect(past.statusCode).toBe(416);
    expect(past.headers["content-range"]).toBe("bytes */1000");
    // A video being prepared shows its poster, and has no video yet; a failed one is no slide.
    expect((await media(everything, photo.preparing)).statusCode).toBe(200);
    expect((await media(everything, `${photo.preparing}/video`)).statusCode).toBe(404);
    expect((await media(everything, photo.failed)).statusCode).toBe(404);
    // "On this day" serves the days current somewhere now, not any other.
    const onThisDay = await pairFrame(testApp, ann, { kind: "on-this-day" });
    expect((await media(onThisDay, photo.lastYears)).statusCode).toBe(200);
    expect((await media(onThisDay, photo.beach)).statusCode).toBe(404);
  });

  it("walks a large selection a page of 100 at a time, one query a page, and notes when it was last seen", async () => {
    const memory = await createMemory({
      title: "Many",
      tags: ["many"],
      photo_ids: [await uploadPhotoAs(testApp, ann, await jpeg(6))],
    });
    const rows = Array.from({ length: 149 }, (_, index) =>
      photoRow(`${ann.userId}/many-${index}`, { memory_id: memory.id, position: index + 1, owner_id: ann.userId }),
    );
    await db.insertInto("photos").values(rows).execute();
    const many = await pairFrame(testApp, ann, { kind: "tags", tags: ["many"] });
    const seen: string[] = [];
    let cursor: string | null = null;
    const queriesPerPage: number[] = [];
    do {
      const before = queries;
      const response = await slides(many, `today=${today}${cursor ? `&cursor=${cursor}` : ""}`);
      queriesPerPage.push(queries - before);
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json<FrameSlides>();
      expect(page.slides.length).toBeLessThanOrEqual(100);
      seen.push(...page.slides.map((slide) => slide.photo_id));
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(seen).toHaveLength(150);
    expect(new Set(seen).size).toBe(150);
    expect(seen.slice(1)).toEqual(rows.map((row) => row.id));
    // The door's read, the page, and last_seen_at at most once a minute.
    expect(queriesPerPage[0]).toBeLessThanOrEqual(3);
    expect(queriesPerPage[1]).toBeLessThanOrEqual(3);
    const frame = await db.selectFrom("frames").select("last_seen_at").where("id", "=", many.frame.id).executeTakeFirstOrThrow();
    expect(frame.last_seen_at).not.toBeNull();
    expect((await slides(many, "today=2026-11-28&cursor=not-ours")).statusCode).toBe(400);
  });

  it("refuses anyone but a paired frame: signed out, a member's own token, another app's, a removed frame's", async () => {
    const unknown = await slides({ headers: {} });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toMatchObject({ code: "not_authenticated" });
    expect((await slides({ headers: { authorization: "Bearer not-a-token" } })).statusCode).toBe(401);
    const member = await slides(ann);
    expect(member.statusCode).toBe(401);
    expect(member.json()).toMatchObject({ code: "frame_not_found" });
    expect((await media({ ...everything, headers: ann.headers }, photo.beach)).statusCode).toBe(401);

    // Another app's session, through the authorization code flow.
    const app = await testApp.app.inject({
      method: "POST",
      url: "/auth/v1/admin/oauth/clients",
      headers: { authorization: `Bearer ${await serviceRoleToken(testApp)}` },
      payload: { client_name: "Photo printer", redirect_uris: ["https://app.example/cb"], token_endpoint_auth_method: "none" },
    });
    const clientId = app.json<{ client_id: string }>().client_id;
    const verifier = "v".repeat(50);
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const authorize = await testApp.app.inject({
      method: "GET",
      url: `/auth/v1/oauth/authorize?${new URLSearchParams({
        client_id: clientId,
        redirect_uri: "https://app.example/cb",
        code_challenge: challenge,
        code_challenge_method: "S256",
      })}`,
    });
    const authorizationId = new URL(authorize.headers.location as string).searchParams.get("authorization_id")!;
    await testApp.app.inject({ method: "GET", url: `/auth/v1/oauth/authorizations/${authorizationId}`, headers: ann.headers });
    const consent = await testApp.app.inject({
      method: "POST",
      url: `/auth/v1/oauth/authorizations/${authorizationId}/consent`,
      headers: ann.headers,
      payload: { action: "approve" },
    });
    const code = new URL(consent.json<{ redirect_url: string }>().redirect_url).searchParams.get("code")!;
    const exchanged = await testApp.app.inject({
      method: "POST",
      url: "/auth/v1/oauth/token",
      payload: {
        grant_type: "authorization_code",
        code,
        redirect_uri: "https://app.example/cb",
        code_verifier: verifier,
        client_id: clientId,
      },
    });
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    const appSession = await slides({
      headers: { authorization: `Bearer ${exchanged.json<{ access_token: string }>().access_token}` },
    });
    expect(appSession.statusCode).toBe(401);
    expect(appSession.json()).toMatchObject({ code: "frame_not_found" });

    const removed = await pairFrame(testApp, ann, { kind: "everything" }, "Removed");
    expect((await slides(removed)).statusCode).toBe(200);
    expect(
      (await testApp.app.inject({ method: "DELETE", url: `/api/v1/frames/${removed.frame.id}`, headers: ann.headers }))
        .statusCode,
    ).toBe(204);
    expect((await slides(removed)).statusCode).toBe(401);
    expect((await media(removed, photo.beach)).statusCode).toBe(401);
    expect(
      (
        await testApp.app.inject({
          method: "POST",
          url: "/auth/v1/oauth/token",
          payload: { grant_type: "refresh_token", refresh_token: removed.refreshToken, client_id: FRAME_CLIENT_ID },
        })
      ).json(),
    ).toMatchObject({ error: "invalid_grant" });
  });

  it("is refused by every route of the product API, the photo bytes, the live stream and the account", async () => {
    const document = (await testApp.app.inject({ method: "GET", url: "/api/openapi.json" })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const refused: string[] = [];
    const routes = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => [method.toUpperCase(), path] as const),
    );
    const productRoutes = routes.filter(
      ([method, path]) =>
        path.startsWith("/api/v1/") &&
        !path.startsWith("/api/v1/frame/") &&
        // Signed by its own token, for a mail's one-click link: no session at all.
        path !== "/api/v1/notifications/email/unsubscribe" &&
        // Forgets the browser's photo cookie, whoever asks: it reads and writes nothing.
        !(method === "DELETE" && path === "/api/v1/photo-access"),
    );
    expect(productRoutes.map(([method, path]) => `${method} ${path}`)).toEqual(
      expect.arrayContaining([
        "GET /api/v1/events",
        "POST /api/v1/photo-access",
        "GET /api/v1/account/export",
        "POST /api/v1/uploads",
        "POST /api/v1/memories/{id}/comments",
        "GET /api/v1/members",
        "PUT /api/v1/box",
        "POST /api/v1/frames",
        "DELETE /api/v1/frames/{id}",
      ]),
    );
    for (const [method, path] of productRoutes) {
      const url = path
        .replace(/\{(id|commentId)\}/g, beachMemory.id)
        .replace("{emoji}", encodeURIComponent("❤️"))
        .replace(/\{[a-z_]+\}/g, "x");
      const response = await testApp.app.inject({
        method: method as "GET",
        url,
        headers: everything.headers,
        ...(method === "GET" || method === "HEAD" || method === "DELETE" ? {} : { payload: {} }),
      });
      if (response.statusCode !== 403 || response.json<{ code?: string }>().code !== "oauth_client_session_not_allowed")
        refused.push(`${method} ${path}: ${response.statusCode} ${response.body.slice(0, 120)}`);
    }
    expect(refused).toEqual([]);
    // The photo object route (bearer), the live stream, the account as auth-js reads it.
    const photoObject = await testApp.app.inject({
      method: "GET",
      url: beachMemory.photos[0]!.url,
      headers: everything.headers,
    });
    expect(photoObject.statusCode).toBe(403);
    expect(photoObject.json()).toMatchObject({ code: "oauth_client_session_not_allowed" });
    const user = await testApp.app.inject({ method: "GET", url: "/auth/v1/user", headers: everything.headers });
    expect(user.statusCode).toBe(403);
    expect(user.json()).toMatchObject({ error_code: "oauth_client_session_not_allowed" });
    // Nothing was written on its behalf.
    const memories = await db
      .selectFrom("memories")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(memories.n)).toBe(5);
    expect((await slides(everything)).statusCode).toBe(200);
  });
});
