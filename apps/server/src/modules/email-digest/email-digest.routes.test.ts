import { createHmac } from "node:crypto";
import type { EmailDigestPreferences } from "@memory-box/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember } from "../../../test/members";
import { serviceRoleToken } from "../../../test/service-token";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";
import { openDatabase } from "../../db/database";
import { issueUnsubscribeToken } from "./unsubscribe-token";

/**
 * `/api/v1/notifications/email` and its one-click unsubscribe (ADR 0060), with what an attacker
 * would try: no session, bad values, forged tokens, another member's, another purpose's, a GET.
 */
const secret = "a-signing-secret-of-at-least-32-characters";
const key = Buffer.from(secret, "utf8");
const siteUrl = "https://box.example.org";
const form = { "content-type": "application/x-www-form-urlencoded" };

describe.each(testEngines())("e-mail digest routes (%s)", (engine) => {
  let testApp: TestApp;
  let ann: TestMember;
  let ben: TestMember;

  const preferencesOf = async (member: TestMember) =>
    (
      await testApp.app.inject({ method: "GET", url: "/api/v1/notifications/email", headers: member.headers })
    ).json<EmailDigestPreferences>();
  const choose = (member: TestMember, payload: unknown) =>
    testApp.app.inject({
      method: "PUT",
      url: "/api/v1/notifications/email",
      headers: member.headers,
      payload: payload as object,
    });
  const oneClick = (token: string, payload = "List-Unsubscribe=One-Click", headers: Record<string, string> = form) =>
    testApp.app.inject({
      method: "POST",
      url: `/api/v1/notifications/email/unsubscribe?token=${encodeURIComponent(token)}`,
      headers,
      payload,
    });

  beforeAll(async () => {
    testApp = await createTestApp(engine, { env: { PHOTO_URL_SECRET: secret, PUBLIC_URL: siteUrl } });
    ann = await createMember(testApp, "ann@example.org", "Ann");
    ben = await createMember(testApp, "ben@example.org", "Ben");
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it("starts off, on UTC's clock, and keeps what the member chooses", async () => {
    expect(await preferencesOf(ann)).toEqual({ digest: "off", time_zone: "UTC" });
    const saved = await choose(ann, { digest: "weekly", time_zone: "Pacific/Auckland" });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ digest: "weekly", time_zone: "Pacific/Auckland" });
    expect(await preferencesOf(ann)).toEqual({ digest: "weekly", time_zone: "Pacific/Auckland" });
    expect(await preferencesOf(ben)).toEqual({ digest: "off", time_zone: "UTC" });
  });

  it("refuses the signed-out, and a token that is not a member's session", async () => {
    for (const method of ["GET", "PUT"] as const) {
      const signedOut = await testApp.app.inject({
        method,
        url: "/api/v1/notifications/email",
        ...(method === "PUT" ? { payload: { digest: "off", time_zone: "UTC" } } : {}),
      });
      expect({ method, status: signedOut.statusCode }).toEqual({ method, status: 401 });
    }
    const forged = await testApp.app.inject({
      method: "GET",
      url: "/api/v1/notifications/email",
      headers: { authorization: "Bearer not.a.jwt" },
    });
    expect([401, 403]).toContain(forged.statusCode);
  });

  it("refuses a bad frequency, time zone or extra field with validation_failed naming it", async () => {
    const cases: [unknown, string][] = [
      [{ digest: "hourly", time_zone: "UTC" }, "digest"],
      [{ digest: "daily", time_zone: "Mars/Olympus_Mons" }, "time_zone"],
      [{ digest: "daily", time_zone: "x".repeat(10_000) }, "time_zone"],
      [{ digest: "daily", time_zone: 5 }, "time_zone"],
      [{ digest: "daily" }, "time_zone"],
      [{ digest: "daily", time_zone: "UTC", email: "eve@example.org" }, ""],
    ];
    for (const [payload, field] of cases) {
      const response = await choose(ann, payload);
      expect(response.statusCode).toBe(400);
      const body = response.json<{ code: string; details?: { path: string }[] }>();
      expect(body.code).toBe("validation_failed");
      if (field) expect(body.details?.map((detail) => detail.path)).toContain(`body.${field}`);
    }
    expect(await preferencesOf(ann)).toEqual({ digest: "weekly", time_zone: "Pacific/Auckland" });
  });

  it("never unsubscribes on a GET: it sends the browser to the page that asks first", async () => {
    const token = issueUnsubscribeToken(ann.userId, key);
    const response = await testApp.app.inject({ method: "GET", url: `/api/v1/notifications/email/unsubscribe?token=${token}` });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`${siteUrl}/unsubscribe?token=${token}`);
    expect(await preferencesOf(ann)).toEqual({ digest: "weekly", time_zone: "Pacific/Auckland" });
  });

  it("refuses forged tokens, another member's signature and another purpose's", async () => {
    const annToken = issueUnsubscribeToken(ann.userId, key);
    const benSignature = issueUnsubscribeToken(ben.userId, key).split(".")[1]!;
    const otherPurpose = createHmac("sha256", key).update(`photos\n${ann.userId}`).digest("base64url");
    const forgeries = [
      issueUnsubscribeToken(ann.userId, Buffer.from("another-secret-of-at-least-32-characters!!", "utf8")),
      `${ann.userId}.${benSignature}`,
      issueUnsubscribeToken(ann.userId, key, "archive.export"),
      `${ann.userId}.${otherPurpose}`,
      // One character of the signature changed (to another: a signature that ended in "A" kept it).
      `${ann.userId}.${annToken.split(".")[1]!.slice(0, -1)}${annToken.endsWith("A") ? "Q" : "A"}`,
      ann.userId,
      "",
      "../../etc/passwd",
      `${annToken}${"A".repeat(10_000)}`,
    ];
    for (const token of forgeries) {
      const response = await oneClick(token);
      expect({ token, status: response.statusCode }).toEqual({ token, status: 400 });
      expect(["unsubscribe_link_invalid", "validation_failed"]).toContain(response.json<{ code: string }>().code);
    }
    expect((await oneClick(`${ann.userId}.${benSignature}`)).json()).toMatchObject({ code: "unsubscribe_link_invalid" });
    expect(await preferencesOf(ann)).toEqual({ digest: "weekly", time_zone: "Pacific/Auckland" });
  });

  it("takes only the one-click body, as a form, and lets no other form post into the API", async () => {
    const token = issueUnsubscribeToken(ann.userId, key);
    expect((await oneClick(token, "List-Unsubscribe=Maybe")).statusCode).toBe(400);
    expect((await oneClick(token, "")).statusCode).toBe(400);
    expect((await oneClick(token, `List-Unsubscribe=One-Click&x=${"a".repeat(8_000)}`)).statusCode).toBe(413);
    expect(await preferencesOf(ann)).toEqual({ digest: "weekly", time_zone: "Pacific/Auckland" });
    // A form on another site posting to the rest of the API is still refused (no form parser there).
    const elsewhere = await testApp.app.inject({
      method: "POST",
      url: "/api/v1/memories",
      headers: { ...ann.headers, ...form },
      payload: "title=Planted",
    });
    expect(elsewhere.statusCode).toBe(415);
  });

  it("one-click unsubscribes with the mail's token, without a session, and only that member", async () => {
    await choose(ben, { digest: "daily", time_zone: "Europe/Berlin" });
    // From the mail provider's servers or its web page: another origin, and that is allowed here.
    const response = await oneClick(issueUnsubscribeToken(ann.userId, key), "List-Unsubscribe=One-Click", {
      ...form,
      origin: "https://mail.example.com",
      "sec-fetch-site": "cross-site",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ digest: "off" });
    expect(await preferencesOf(ann)).toEqual({ digest: "off", time_zone: "Pacific/Auckland" });
    expect(await preferencesOf(ben)).toEqual({ digest: "daily", time_zone: "Europe/Berlin" });
    // Again (a mail program retrying): still 200.
    expect((await oneClick(issueUnsubscribeToken(ann.userId, key))).statusCode).toBe(200);
  });

  it("takes the one-click body as multipart/form-data too (RFC 8058 allows either)", async () => {
    const boundary = "----digest";
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`;
    const response = await oneClick(issueUnsubscribeToken(ben.userId, key), body, {
      "content-type": `multipart/form-data; boundary=${boundary}`,
    });
    expect(response.statusCode).toBe(200);
    expect(await preferencesOf(ben)).toEqual({ digest: "off", time_zone: "Europe/Berlin" });
  });

  it("answers the one-click post with the security headers, and without a cookie", async () => {
    const response = await oneClick(issueUnsubscribeToken(ben.userId, key));
    expect(response.headers["set-cookie"]).toBeUndefined();
    expect(response.headers["content-security-policy"]).toContain("default-src 'self'");
  });

  it("goes with the member's account when it is deleted", async () => {
    const cleo = await createMember(testApp, "cleo@example.org", "Cleo");
    expect((await choose(cleo, { digest: "daily", time_zone: "UTC" })).statusCode).toBe(200);
    const database = openDatabase(testApp.config.database);
    try {
      const rowsOf = async () =>
        (await database.db.selectFrom("email_digests").select("user_id").where("user_id", "=", cleo.userId).execute()).length;
      expect(await rowsOf()).toBe(1);
      const deleted = await testApp.app.inject({
        method: "DELETE",
        url: `/auth/v1/admin/users/${cleo.userId}`,
        headers: { authorization: `Bearer ${await serviceRoleToken(testApp)}`, "x-supabase-api-version": "2024-01-01" },
      });
      expect(deleted.statusCode).toBe(200);
      expect(await rowsOf()).toBe(0);
      // Her old mail's link then finds nothing to turn off, and says so no differently.
      expect((await oneClick(issueUnsubscribeToken(cleo.userId, key))).statusCode).toBe(200);
    } finally {
      await database.destroy();
    }
  });
});
