import { createHash } from "node:crypto";
import { type DeviceList, type Frame, FRAME_CLIENT_ID, type FrameList, type FramePairing } from "@memory-box/contract";
import { decodeJwt } from "jose";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../../db/database";
import type { Database } from "../../db/schema";
import { approvePairing, FrameTestClock, oauthForm, pairFrame, pollToken, startPairing } from "../../../test/frames";
import { enrolTotp } from "../../../test/auth-fixtures";
import { createMember, memberPassword, type TestMember } from "../../../test/members";
import { serviceRoleToken } from "../../../test/service-token";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";

// Pairing a frame (issue #36, ADR 0076): the device grant (RFC 8628) as a frame drives it, the
// member's answer through /api/v1/frames, the frame's session refreshed and revoked; then every
// wrong turn: pending, too soon, refused, expired, replayed, another client, a guessed code.

describe.each(testEngines())("pairing a frame on %s", (engine) => {
  const clock = new FrameTestClock();
  let testApp: TestApp;
  let database: DatabaseHandle;
  let db: Kysely<Database>;
  let ann: TestMember;
  let ben: TestMember;
  let cat: TestMember;
  let adminToken: string;

  beforeAll(async () => {
    // Rate limits on (twelve wrong codes per member and per address), the clock the test's.
    testApp = await createTestApp(engine, {
      now: clock.now,
      env: { AUTH_RATE_LIMIT_VERIFY: "12", AUTH_SITE_URL: "https://box.example" },
    });
    ann = await createMember(testApp, "ann.frames@memory-box.test", "Ann");
    ben = await createMember(testApp, "ben.frames@memory-box.test", "Ben");
    cat = await createMember(testApp, "cat.frames@memory-box.test", "Cat");
    database = openDatabase(testApp.config.database);
    db = database.db;
    adminToken = await serviceRoleToken(testApp);
  });
  afterAll(async () => {
    await database?.destroy();
    await testApp?.close();
  });

  const inject = (
    method: "GET" | "POST" | "PATCH" | "DELETE",
    url: string,
    headers: Record<string, string>,
    payload?: object,
    remoteAddress?: string,
  ) => testApp.app.inject({ method, url, headers, ...(payload ? { payload } : {}), ...(remoteAddress ? { remoteAddress } : {}) });
  const expectOauthError = (response: { statusCode: number; json(): unknown }, status: number, error: string) => {
    expect(response.statusCode, JSON.stringify(response.json())).toBe(status);
    expect(response.json()).toMatchObject({ error });
  };
  const frames = async () => (await inject("GET", "/api/v1/frames", ann.headers)).json<FrameList>().frames;
  const slides = (headers: Record<string, string>) =>
    inject("GET", `/api/v1/frame/slides?today=${clock.now().toISOString().slice(0, 10)}`, headers);

  it("the whole flow: codes, a member's approval on their phone, a session of the frame's own that refreshes", async () => {
    const response = await oauthForm(testApp, "device_authorization", { client_id: FRAME_CLIENT_ID, scope: "frame" });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    const pairing = response.json<{
      device_code: string;
      user_code: string;
      verification_uri: string;
      verification_uri_complete: string;
    }>();
    expect(pairing).toMatchObject({ verification_uri: "https://box.example/device", expires_in: 600, interval: 5 });
    expect(pairing.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(pairing.verification_uri_complete).toBe(`https://box.example/device?user_code=${pairing.user_code}`);
    // Only the device code's hash is kept.
    const row = await db
      .selectFrom("oauth_device_codes")
      .selectAll()
      .where("user_code", "=", pairing.user_code.replace("-", ""))
      .executeTakeFirstOrThrow();
    expect(row.device_code_hash).toBe(createHash("sha256").update(pairing.device_code).digest("base64url"));
    expect(JSON.stringify(row)).not.toContain(pairing.device_code);

    // Waiting; a poll sooner than the interval slows the frame down by five seconds more each time.
    expectOauthError(await pollToken(testApp, pairing.device_code), 400, "authorization_pending");
    expectOauthError(await pollToken(testApp, pairing.device_code), 400, "slow_down");
    clock.advance(6);
    expectOauthError(await pollToken(testApp, pairing.device_code), 400, "slow_down");
    clock.advance(16);
    expectOauthError(await pollToken(testApp, pairing.device_code), 400, "authorization_pending");
    const polled = await db
      .selectFrom("oauth_device_codes")
      .select("interval_seconds")
      .where("id", "=", row.id)
      .executeTakeFirstOrThrow();
    expect(polled.interval_seconds).toBe(15);

    // The member types the code as they read it (any case, a space for the dash).
    const typed = pairing.user_code.toLowerCase().replace("-", " ");
    const lookup = await inject("GET", `/api/v1/frames/pairing?user_code=${encodeURIComponent(typed)}`, ann.headers);
    expect(lookup.statusCode, lookup.body).toBe(200);
    expect(lookup.json<FramePairing>()).toEqual({ user_code: pairing.user_code, expires_at: row.expires_at });
    const approved = await approvePairing(testApp, ann, typed, {
      name: "  Kitchen  ",
      selection: { kind: "tags", tags: [" beach ", "Beach", "hike"] },
      display: { clock: false, night: { from: "22:30", to: "07:00" } },
    });
    expect(approved.statusCode, approved.body).toBe(201);
    const frame = approved.json<Frame>();
    expect(frame).toMatchObject({
      name: "Kitchen",
      selection: { kind: "tags", tags: ["beach", "hike"] },
      display: { clock: false, night: { from: "22:30", to: "07:00" } },
      paired_by: { id: ann.userId, name: "Ann" },
      last_seen_at: null,
    });
    // Answered: the code is no longer waiting, for anyone.
    const again = await inject("GET", `/api/v1/frames/pairing?user_code=${pairing.user_code}`, ben.headers);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ code: "frame_pairing_not_found" });

    const tokens = await pollToken(testApp, pairing.device_code);
    expect(tokens.statusCode, tokens.body).toBe(200);
    expect(tokens.headers["cache-control"]).toBe("no-store");
    const session = tokens.json<{ access_token: string; refresh_token: string; scope: string; user: object }>();
    expect(session.scope).toBe("frame");
    // The frame's tokens say nothing of the member who paired it.
    expect(session.user).toEqual({ id: ann.userId });
    expect(decodeJwt(session.access_token)).toMatchObject({
      client_id: FRAME_CLIENT_ID,
      scope: "frame",
      email: "",
      user_metadata: {},
    });
    expect(JSON.stringify(session)).not.toContain(ann.email);

    const shown = await slides({ authorization: `Bearer ${session.access_token}` });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json()).toMatchObject({ frame: { id: frame.id, name: "Kitchen" }, refresh_seconds: 30 });
    const listed = await frames();
    expect(listed.map((one) => one.id)).toContain(frame.id);
    expect(listed.find((one) => one.id === frame.id)!.last_seen_at).not.toBeNull();

    // Refreshed at /oauth/token as its client; the token it replaced, presented again later, ends the frame.
    const refreshed = await oauthForm(testApp, "token", {
      grant_type: "refresh_token",
      refresh_token: session.refresh_token,
      client_id: FRAME_CLIENT_ID,
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const next = refreshed.json<{ access_token: string }>();
    expect((await slides({ authorization: `Bearer ${next.access_token}` })).statusCode).toBe(200);
    clock.advance(11);
    const reused = await oauthForm(testApp, "token", {
      grant_type: "refresh_token",
      refresh_token: session.refresh_token,
      client_id: FRAME_CLIENT_ID,
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toMatchObject({ error_code: "refresh_token_already_used" });
    expect((await slides({ authorization: `Bearer ${next.access_token}` })).statusCode).toBe(401);
    expect((await frames()).map((one) => one.id)).not.toContain(frame.id);
  });

  it("refused: the frame hears access_denied, and the code is answered", async () => {
    const pairing = await startPairing(testApp);
    const denied = await inject("POST", "/api/v1/frames/pairing/deny", ben.headers, { user_code: pairing.user_code });
    expect(denied.statusCode, denied.body).toBe(204);
    expectOauthError(await pollToken(testApp, pairing.device_code), 400, "access_denied");
    const approved = await approvePairing(testApp, ann, pairing.user_code);
    expect(approved.statusCode).toBe(404);
    expect(approved.json()).toMatchObject({ code: "frame_pairing_not_found" });
    expect((await inject("POST", "/api/v1/frames/pairing/deny", ben.headers, { user_code: pairing.user_code })).statusCode).toBe(
      404,
    );
  });

  it("after ten minutes: expired_token for the frame, and the same 404 for the member as an unknown code", async () => {
    const pairing = await startPairing(testApp);
    clock.advance(601);
    expectOauthError(await pollToken(testApp, pairing.device_code), 400, "expired_token");
    for (const code of [pairing.user_code, "BCDF-GHJK"]) {
      const lookup = await inject("GET", `/api/v1/frames/pairing?user_code=${code}`, ann.headers);
      expect(lookup.statusCode).toBe(404);
      expect(lookup.json()).toMatchObject({ code: "frame_pairing_not_found" });
      const approved = await approvePairing(testApp, ann, code);
      expect(approved.statusCode).toBe(404);
      expect(approved.json()).toMatchObject({ code: "frame_pairing_not_found" });
    }
    // Approved but never fetched within its ten minutes: the frame goes from the list.
    const late = await startPairing(testApp);
    const approved = await approvePairing(testApp, ann, late.user_code, { name: "Never paired" });
    expect(approved.statusCode).toBe(201);
    expect((await frames()).map((one) => one.name)).toContain("Never paired");
    clock.advance(601);
    expectOauthError(await pollToken(testApp, late.device_code), 400, "expired_token");
    expect((await frames()).map((one) => one.name)).not.toContain("Never paired");
    // Not a code at all: told as a field at fault.
    const malformed = await inject("GET", "/api/v1/frames/pairing?user_code=AEIO-1234", ann.headers);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: "validation_failed" });
  });

  it("a device code works once: presented again, it is refused and the session it gave ends", async () => {
    const pairing = await startPairing(testApp);
    expect((await approvePairing(testApp, ann, pairing.user_code, { name: "Copied" })).statusCode).toBe(201);
    const first = await pollToken(testApp, pairing.device_code);
    expect(first.statusCode).toBe(200);
    const headers = { authorization: `Bearer ${first.json<{ access_token: string }>().access_token}` };
    expect((await slides(headers)).statusCode).toBe(200);
    expectOauthError(await pollToken(testApp, pairing.device_code), 400, "invalid_grant");
    expect((await slides(headers)).statusCode).toBe(401);
    expect((await frames()).map((one) => one.name)).not.toContain("Copied");
  });

  it("another client: not allowed the device grant, not the frame's device code, nor the frame's scope asked wrongly", async () => {
    const registered = await testApp.app.inject({
      method: "POST",
      url: "/auth/v1/admin/oauth/clients",
      headers: { authorization: `Bearer ${adminToken}` },
      payload: { client_name: "Photo printer", redirect_uris: ["https://app.example/cb"], token_endpoint_auth_method: "none" },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const other = registered.json<{ client_id: string }>().client_id;
    expectOauthError(await oauthForm(testApp, "device_authorization", { client_id: other }), 400, "unauthorized_client");
    expectOauthError(
      await oauthForm(testApp, "device_authorization", { client_id: FRAME_CLIENT_ID, scope: "email" }),
      400,
      "invalid_scope",
    );
    expectOauthError(
      await oauthForm(testApp, "device_authorization", { client_id: FRAME_CLIENT_ID, client_secret: "x" }),
      401,
      "invalid_client",
    );
    expectOauthError(await oauthForm(testApp, "device_authorization", { client_id: "not-a-client" }), 401, "invalid_client");
    const pairing = await startPairing(testApp);
    expect((await approvePairing(testApp, ann, pairing.user_code)).statusCode).toBe(201);
    // Another client may not use the grant at all (as the token endpoint answers any grant a client lacks).
    expectOauthError(await pollToken(testApp, pairing.device_code, other), 400, "unsupported_grant_type");
    expectOauthError(await pollToken(testApp, "made-up"), 400, "invalid_grant");
    // The frame's own client still gets its session: the wrong client burned nothing.
    expect((await pollToken(testApp, pairing.device_code)).statusCode).toBe(200);
  });

  it("the frames' client is no registered app: the admin API neither lists, shows, changes nor deletes it", async () => {
    const admin = { authorization: `Bearer ${adminToken}` };
    const list = await testApp.app.inject({ method: "GET", url: "/auth/v1/admin/oauth/clients?per_page=100", headers: admin });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(FRAME_CLIENT_ID);
    for (const [method, url, payload] of [
      ["GET", `/auth/v1/admin/oauth/clients/${FRAME_CLIENT_ID}`, undefined],
      ["PUT", `/auth/v1/admin/oauth/clients/${FRAME_CLIENT_ID}`, { client_name: "Mine now" }],
      ["DELETE", `/auth/v1/admin/oauth/clients/${FRAME_CLIENT_ID}`, undefined],
      ["POST", `/auth/v1/admin/oauth/clients/${FRAME_CLIENT_ID}/regenerate_secret`, undefined],
    ] as const) {
      const response = await testApp.app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await startPairing(testApp)).device_code).toEqual(expect.any(String));
  });

  it("any member renames, changes and removes any frame; removal ends its session at once", async () => {
    const paired = await pairFrame(testApp, ann, { kind: "everything" }, "Hall");
    const changed = await inject("PATCH", `/api/v1/frames/${paired.frame.id}`, ben.headers, {
      name: "Landing",
      selection: { kind: "dates", from: "2020-01-01", to: null },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<Frame>()).toMatchObject({
      name: "Landing",
      selection: { kind: "dates", from: "2020-01-01", to: null },
      display: { clock: true, night: null },
      paired_by: { id: ann.userId, name: "Ann" },
    });
    const wrong = await inject("PATCH", `/api/v1/frames/${paired.frame.id}`, ben.headers, {
      selection: { kind: "dates", from: null, to: null },
    });
    expect(wrong.statusCode).toBe(400);
    expect((await slides(paired.headers)).statusCode).toBe(200);
    // Newest first.
    const second = await pairFrame(testApp, ben, { kind: "on-this-day" }, "Study");
    const listed = await frames();
    expect(listed.findIndex((one) => one.id === second.frame.id)).toBeLessThan(
      listed.findIndex((one) => one.id === paired.frame.id),
    );
    expect(listed.find((one) => one.id === second.frame.id)!.paired_by).toEqual({ id: ben.userId, name: "Ben" });

    // A frame is not among its pairer's own devices, and cannot be signed out from there.
    const devices = await inject("GET", "/api/v1/account/devices", ann.headers);
    expect(devices.json<DeviceList>().devices).toHaveLength(1);
    const frameSession = await db
      .selectFrom("frames")
      .select("session_id")
      .where("id", "=", paired.frame.id)
      .executeTakeFirstOrThrow();
    const signOut = await inject("DELETE", `/api/v1/account/devices/${frameSession.session_id}`, ann.headers);
    expect(signOut.statusCode).toBe(404);
    expect((await slides(paired.headers)).statusCode).toBe(200);

    expect((await inject("DELETE", `/api/v1/frames/${paired.frame.id}`, ben.headers)).statusCode).toBe(204);
    const after = await slides(paired.headers);
    expect(after.statusCode).toBe(401);
    expectOauthError(
      await oauthForm(testApp, "token", {
        grant_type: "refresh_token",
        refresh_token: paired.refreshToken,
        client_id: FRAME_CLIENT_ID,
      }),
      400,
      "invalid_grant",
    );
    for (const method of ["DELETE", "PATCH"] as const) {
      const gone = await inject(
        method,
        `/api/v1/frames/${paired.frame.id}`,
        ann.headers,
        method === "PATCH" ? { name: "x" } : undefined,
      );
      expect(gone.statusCode).toBe(404);
      expect(gone.json()).toMatchObject({ code: "frame_not_found" });
    }
    expect((await slides(second.headers)).statusCode).toBe(200);
    const audit = await db.selectFrom("audit_log").select("action").where("action", "like", "frame.%").execute();
    expect(audit.map((entry) => entry.action)).toEqual(expect.arrayContaining(["frame.paired", "frame.removed"]));
  });

  it("wrong codes are limited per member and per address; a right code is then refused too", async () => {
    const pairing = await startPairing(testApp);
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const code = `BCDF-BC${"BCDFGHJKLMNP"[attempt]}F`;
      const response = await inject("GET", `/api/v1/frames/pairing?user_code=${code}`, cat.headers, undefined, "198.51.100.7");
      expect(response.statusCode).toBe(404);
    }
    // Cat, from anywhere, is refused even the right code; Ann from elsewhere is not.
    const limited = await inject(
      "GET",
      `/api/v1/frames/pairing?user_code=${pairing.user_code}`,
      cat.headers,
      undefined,
      "198.51.100.8",
    );
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: "over_request_rate_limit" });
    const deny = await inject(
      "POST",
      "/api/v1/frames/pairing/deny",
      cat.headers,
      { user_code: pairing.user_code },
      "198.51.100.9",
    );
    expect(deny.statusCode).toBe(429);
    const allowed = await inject(
      "GET",
      `/api/v1/frames/pairing?user_code=${pairing.user_code}`,
      ann.headers,
      undefined,
      "198.51.100.8",
    );
    expect(allowed.statusCode).toBe(200);
    // The address Cat tried from is limited for Ann too.
    const sameAddress = await inject(
      "GET",
      `/api/v1/frames/pairing?user_code=${pairing.user_code}`,
      ann.headers,
      undefined,
      "198.51.100.7",
    );
    expect(sameAddress.statusCode).toBe(429);
  });

  it("a second factor proven by its pairer ends their other aal1 sessions, not their frames", async () => {
    const dee = await createMember(testApp, "dee.frames@memory-box.test", "Dee");
    const paired = await pairFrame(testApp, dee, { kind: "everything" }, "Dee's frame");
    const signIn = await testApp.app.inject({
      method: "POST",
      url: "/auth/v1/token?grant_type=password",
      payload: { email: dee.email, password: memberPassword },
    });
    const otherDevice = { authorization: `Bearer ${signIn.json<{ access_token: string }>().access_token}` };
    expect((await inject("GET", "/api/v1/frames", otherDevice)).statusCode).toBe(200);
    expect((await slides(paired.headers)).statusCode).toBe(200);
    await enrolTotp(testApp.app, dee.accessToken, { now: clock.now });
    expect((await slides(paired.headers)).statusCode).toBe(200);
    expect((await frames()).map((one) => one.name)).toContain("Dee's frame");
    const ended = await inject("GET", "/api/v1/frames", otherDevice);
    expect(ended.statusCode).toBe(401);
    expect(ended.json()).toMatchObject({ code: "session_not_found" });
  });
});
