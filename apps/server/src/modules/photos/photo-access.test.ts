import type { Memory, MemoryPage } from "@memory-box/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inviteCommand } from "../../cli/invite.command";
import { openDatabase } from "../../db/database";
import { createMember, memberPassword, type TestMember } from "../../../test/members";
import { multipartContentType, multipartPayload } from "../../../test/multipart";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";
import { twoTone } from "./fixtures/test-images";

/**
 * Photo bytes as an attacker meets them (ADR 0018): a browser loads them with a cookie that names
 * the member's session; every request checks that session is still live.
 */
describe.each(testEngines())("photo access on %s", (engine) => {
  let testApp: TestApp;
  let clock: Date;
  let ann: TestMember;
  let memory: Memory;

  beforeAll(async () => {
    clock = new Date();
    testApp = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" }, now: () => clock });
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
    const uploaded = await testApp.app.inject({
      method: "POST",
      url: "/api/v1/photos",
      headers: { ...ann.headers, "content-type": multipartContentType },
      payload: multipartPayload([
        { name: "file", filename: "a.jpg", contentType: "image/jpeg", data: await twoTone(64, 48).jpeg().toBuffer() },
      ]),
    });
    const created = await testApp.app.inject({
      method: "POST",
      url: "/api/v1/memories",
      headers: ann.headers,
      payload: { title: "Beach", photo_ids: [uploaded.json<{ id: string }>().id] },
    });
    memory = created.json<Memory>();
  });
  afterAll(() => testApp.close());

  /** What a browser does: list the memories with the bearer token, keep the cookie the answer sets. */
  const signedInBrowser = async (member: TestMember) => {
    const listed = await testApp.app.inject({ method: "GET", url: "/api/v1/memories", headers: member.headers });
    expect(listed.statusCode).toBe(200);
    const cookie = listed.cookies.find((candidate) => candidate.name === "memory-box-photos");
    expect(cookie).toMatchObject({
      httpOnly: true,
      sameSite: "Strict",
      path: "/storage/v1/object/authenticated/memory-photos/",
      maxAge: 600,
    });
    return { cookie: `memory-box-photos=${cookie!.value}`, page: listed.json<MemoryPage>() };
  };
  const load = (url: string, headers: Record<string, string> = {}) => testApp.app.inject({ method: "GET", url, headers });
  const thumbnail = () => memory.photos[0]!.thumbnail_url;

  it("shows a member's photos to their browser, by the cookie the list answer set", async () => {
    const { cookie, page } = await signedInBrowser(ann);
    expect(page.items[0]!.photos[0]!.thumbnail_url).toBe(thumbnail());

    const shown = await load(thumbnail(), { cookie });
    expect(shown.statusCode).toBe(200);
    expect(shown.headers["content-type"]).toBe("image/webp");
    expect(shown.headers["cache-control"]).toBe("private, max-age=600");
    expect(shown.headers["set-cookie"]).toBeUndefined();
  });

  it("answers a revalidation with 304 and no bytes", async () => {
    const { cookie } = await signedInBrowser(ann);
    const first = await load(thumbnail(), { cookie });
    const again = await load(thumbnail(), { cookie, "if-none-match": String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers.etag).toBe(first.headers.etag);
  });

  it("refuses a copied link: no cookie, no token, no bytes", async () => {
    const copied = await load(thumbnail());
    expect(copied.statusCode).toBe(401);
    expect(copied.json()).toMatchObject({ code: "not_authenticated" });
    expect((await load(memory.photos[0]!.url, { "if-none-match": '"anything"' })).statusCode).toBe(401);
  });

  it("refuses forged, altered and expired cookies", async () => {
    const { cookie } = await signedInBrowser(ann);
    const [sessionId, expires, signature] = cookie.replace("memory-box-photos=", "").split(".") as [string, string, string];
    for (const forged of [
      `${sessionId}.${Number(expires) + 3600}.${signature}`,
      `${sessionId}.${expires}.${"A".repeat(43)}`,
      `${sessionId.replace(/^./, sessionId.startsWith("0") ? "1" : "0")}.${expires}.${signature}`,
      "garbage",
    ]) {
      expect((await load(thumbnail(), { cookie: `memory-box-photos=${forged}` })).statusCode, forged).toBe(401);
    }

    const started = clock;
    try {
      clock = new Date(Number(expires) * 1000 + 1000);
      expect((await load(thumbnail(), { cookie })).statusCode).toBe(401);
    } finally {
      clock = started;
    }
  });

  it("never serves the original as uploaded, even to a member", async () => {
    const { cookie } = await signedInBrowser(ann);
    const original = memory.photos[0]!.url.replace(".display.jpg", ".jpg");
    expect((await load(original, { cookie })).statusCode).toBe(404);
    expect((await load(original, ann.headers)).statusCode).toBe(404);
  });

  it("ends the moment the device signs out, a revalidation included", async () => {
    const bob = await createMember(testApp, "bob@memory-box.test");
    const { cookie } = await signedInBrowser(bob);
    const cached = await load(thumbnail(), { cookie });
    expect(cached.statusCode).toBe(200);

    await testApp.app.inject({ method: "POST", url: "/auth/v1/logout", headers: bob.headers });

    expect((await load(thumbnail(), { cookie })).statusCode).toBe(401);
    const revalidated = await load(thumbnail(), { cookie, "if-none-match": String(cached.headers.etag) });
    expect(revalidated.statusCode).toBe(401);
  });

  it("ends for every device when the member signs out everywhere", async () => {
    const carol = await createMember(testApp, "carol@memory-box.test");
    const phone = await signedInBrowser(carol);
    const laptopSession = await testApp.app.inject({
      method: "POST",
      url: "/auth/v1/token?grant_type=password",
      payload: { email: carol.email, password: memberPassword },
    });
    const laptop = await signedInBrowser({
      ...carol,
      headers: { authorization: `Bearer ${laptopSession.json<{ access_token: string }>().access_token}` },
    });

    await testApp.app.inject({ method: "POST", url: "/auth/v1/logout?scope=global", headers: carol.headers });

    for (const browser of [phone, laptop]) expect((await load(thumbnail(), { cookie: browser.cookie })).statusCode).toBe(401);
  });

  it("ends when the member's invitation is revoked", async () => {
    const dave = await createMember(testApp, "dave@memory-box.test");
    const { cookie } = await signedInBrowser(dave);
    expect((await load(thumbnail(), { cookie })).statusCode).toBe(200);

    const database = openDatabase(testApp.config.database);
    try {
      await inviteCommand.run({ args: ["--revoke", dave.email], db: database.db, out: () => {} });
    } finally {
      await database.destroy();
    }

    expect((await load(thumbnail(), { cookie })).statusCode).toBe(401);
    expect((await load(thumbnail(), dave.headers)).statusCode).toBe(401);
  });

  it("is renewed by POST /api/v1/photo-access for members only, and forgotten by DELETE", async () => {
    const refused = await testApp.app.inject({ method: "POST", url: "/api/v1/photo-access" });
    expect(refused.statusCode).toBe(401);
    expect(refused.cookies).toEqual([]);

    const renewed = await testApp.app.inject({ method: "POST", url: "/api/v1/photo-access", headers: ann.headers });
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json()).toEqual({ expires_in: 600 });
    const cookie = renewed.cookies.find((candidate) => candidate.name === "memory-box-photos")!;
    expect((await load(thumbnail(), { cookie: `memory-box-photos=${cookie.value}` })).statusCode).toBe(200);

    const forgotten = await testApp.app.inject({ method: "DELETE", url: "/api/v1/photo-access" });
    expect(forgotten.statusCode).toBe(204);
    expect(forgotten.cookies[0]).toMatchObject({ name: "memory-box-photos", value: "", maxAge: 0 });
  });

  it("renews the cookie with a member's answers only once it is half spent", async () => {
    const { cookie } = await signedInBrowser(ann);
    const fresh = await testApp.app.inject({ method: "GET", url: "/api/v1/memories", headers: { ...ann.headers, cookie } });
    expect(fresh.headers["set-cookie"]).toBeUndefined();

    const started = clock;
    try {
      clock = new Date(started.getTime() + 301_000);
      const halfSpent = await testApp.app.inject({ method: "GET", url: "/api/v1/memories", headers: { ...ann.headers, cookie } });
      expect(halfSpent.cookies.map((candidate) => candidate.name)).toEqual(["memory-box-photos"]);
    } finally {
      clock = started;
    }
  });
});
