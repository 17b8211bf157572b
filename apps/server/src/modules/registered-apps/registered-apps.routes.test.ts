import type { RegisteredApp, RegisteredAppList } from "@memory-box/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../db/database";
import { createMember, type TestMember } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";

const unknownId = "6f1b2c3d-0000-4000-8000-000000000000";
const web = { name: "Our photo printer", redirect_uris: ["https://print.example/callback"], client_type: "confidential" };

describe.each(testEngines())("Settings → Apps: owners register the apps that may sign members in (issue #36) on %s", (engine) => {
  let testApp: TestApp;
  let ann: TestMember;
  let ben: TestMember;

  beforeAll(async () => {
    testApp = await createTestApp(engine, {
      env: { AUTH_RATE_LIMITS: "false", AUTH_INVITE_ONLY: "false", AUTH_ANONYMOUS_SIGN_INS: "true" },
    });
    // The first account of an instance is its owner.
    ann = await createMember(testApp, "ann.apps@memory-box.test", "Ann");
    ben = await createMember(testApp, "ben.apps@memory-box.test", "Ben");
  });
  afterAll(() => testApp.close());

  const call = (method: "GET" | "POST" | "DELETE", url: string, headers: Record<string, string>, payload?: unknown) =>
    testApp.app.inject({
      method,
      url,
      headers: payload === undefined ? headers : { ...headers, "content-type": "application/json" },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
  const listAs = async (member: TestMember) => {
    const response = await call("GET", "/api/v1/apps", member.headers);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<RegisteredAppList>().apps;
  };
  const register = async (payload: unknown) => {
    const response = await call("POST", "/api/v1/apps", ann.headers, payload);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<RegisteredApp>();
  };
  /** The audit log's actions about apps, with who did them, oldest first. */
  const auditedActions = async () => {
    const database = openDatabase(testApp.config.database);
    try {
      const rows = await database.db
        .selectFrom("audit_log")
        .select(["action", "actor_id", "detail"])
        .where("action", "like", "oauth_client.%")
        .orderBy("created_at")
        .execute();
      return rows.map((row) => ({
        action: row.action,
        actor: row.actor_id,
        detail: JSON.parse(row.detail ?? "null") as unknown,
      }));
    } finally {
      await database.destroy();
    }
  };
  /** What the token endpoint says to the app's secret, by client authentication alone (a code that does not exist). */
  const tokenEndpointWith = async (clientId: string, secret: string) => {
    const response = await testApp.app.inject({
      method: "POST",
      url: "/auth/v1/oauth/token",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}`,
      },
      payload: new URLSearchParams({
        grant_type: "authorization_code",
        code: "no-such-code",
        redirect_uri: "https://print.example/callback",
        code_verifier: "v".repeat(43),
      }).toString(),
    });
    return response.json<{ error?: string }>().error;
  };

  it("is closed to the signed out and to a forged token, on every route", async () => {
    const knocks: Record<string, string>[] = [
      {},
      { authorization: "Bearer not-a-token" },
      { authorization: `${ann.headers.authorization}x` },
    ];
    for (const headers of knocks) {
      expect((await call("GET", "/api/v1/apps", headers)).statusCode).toBe(401);
      expect((await call("POST", "/api/v1/apps", headers, web)).statusCode).toBe(401);
      expect((await call("DELETE", `/api/v1/apps/${unknownId}`, headers)).statusCode).toBe(401);
      expect((await call("POST", `/api/v1/apps/${unknownId}/secret`, headers)).statusCode).toBe(401);
    }
    expect(await listAs(ann)).toEqual([]);
  });

  it("refuses a member who is not an owner, whatever they send, before anything is looked at", async () => {
    const attempts = [
      call("GET", "/api/v1/apps", ben.headers),
      call("POST", "/api/v1/apps", ben.headers, web),
      call("POST", "/api/v1/apps", ben.headers, { name: 5 }),
      call("DELETE", `/api/v1/apps/${unknownId}`, ben.headers),
      call("DELETE", "/api/v1/apps/not-an-id", ben.headers),
      call("POST", `/api/v1/apps/${unknownId}/secret`, ben.headers),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json()).toMatchObject({ code: "owner_only" });
    }
    expect(await listAs(ann)).toEqual([]);
  });

  it("never opens to an anonymous session", async () => {
    const signUp = await testApp.app.inject({
      method: "POST",
      url: "/auth/v1/signup",
      headers: { "x-supabase-api-version": "2024-01-01" },
      payload: {},
    });
    const headers = { authorization: `Bearer ${signUp.json<{ access_token: string }>().access_token}` };
    const response = await call("POST", "/api/v1/apps", headers, web);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: "anonymous_not_member" });
  });

  it("registers a confidential app with a secret shown once, which the token endpoint then knows; a new secret replaces it", async () => {
    const app = await register(web);
    expect(app).toMatchObject({ name: "Our photo printer", client_type: "confidential", redirect_uris: web.redirect_uris });
    expect(app.client_secret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const listed = await listAs(ann);
    expect(listed.map((entry) => entry.client_id)).toContain(app.client_id);
    expect(listed.find((entry) => entry.client_id === app.client_id)).not.toHaveProperty("client_secret");
    // Right secret: authenticated, then refused for the made-up code; wrong one: not authenticated.
    expect(await tokenEndpointWith(app.client_id, app.client_secret!)).toBe("invalid_grant");
    expect(await tokenEndpointWith(app.client_id, "not-the-secret")).toBe("invalid_client");

    const renewed = await call("POST", `/api/v1/apps/${app.client_id}/secret`, ann.headers);
    expect(renewed.statusCode, renewed.body).toBe(200);
    const secret = renewed.json<RegisteredApp>().client_secret!;
    expect(secret).not.toBe(app.client_secret);
    expect(await tokenEndpointWith(app.client_id, app.client_secret!)).toBe("invalid_client");
    expect(await tokenEndpointWith(app.client_id, secret)).toBe("invalid_grant");

    expect((await call("DELETE", `/api/v1/apps/${app.client_id}`, ann.headers)).statusCode).toBe(204);
    expect((await listAs(ann)).map((entry) => entry.client_id)).not.toContain(app.client_id);
    expect(await tokenEndpointWith(app.client_id, secret)).toBe("invalid_client");
    expect(await auditedActions()).toEqual([
      { action: "oauth_client.registered", actor: ann.userId, detail: { client_id: app.client_id, name: "Our photo printer" } },
      {
        action: "oauth_client.secret_regenerated",
        actor: ann.userId,
        detail: { client_id: app.client_id, name: "Our photo printer" },
      },
      { action: "oauth_client.removed", actor: ann.userId, detail: { client_id: app.client_id, name: "Our photo printer" } },
    ]);
  });

  it("registers a public app without a secret, and has none to renew", async () => {
    const app = await register({ name: "Phone app", redirect_uris: ["http://127.0.0.1:8765/done"], client_type: "public" });
    expect(app).not.toHaveProperty("client_secret");
    const renewed = await call("POST", `/api/v1/apps/${app.client_id}/secret`, ann.headers);
    expect(renewed.statusCode).toBe(400);
    expect(renewed.json()).toMatchObject({ code: "validation_failed" });
    await call("DELETE", `/api/v1/apps/${app.client_id}`, ann.headers);
  });

  it.each([
    ["plain http to another machine", { ...web, redirect_uris: ["http://print.example/callback"] }],
    ["a script for an address", { ...web, redirect_uris: ["javascript:alert(1)"] }],
    ["an address with a fragment", { ...web, redirect_uris: ["https://print.example/callback#x"] }],
    ["no address", { ...web, redirect_uris: [] }],
    ["eleven addresses", { ...web, redirect_uris: Array.from({ length: 11 }, (_, n) => `https://print.example/${n}`) }],
    ["an empty name", { ...web, name: "   " }],
    ["a name too long", { ...web, name: "x".repeat(101) }],
    ["an unknown kind", { ...web, client_type: "trusted" }],
    ["a field of its own", { ...web, grant_types: ["client_credentials"] }],
  ])("refuses %s with 400 validation_failed, registering nothing", async (_name, payload) => {
    const response = await call("POST", "/api/v1/apps", ann.headers, payload);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ code: "validation_failed" });
    expect(await listAs(ann)).toEqual([]);
  });

  it("answers 404 for an app that is not registered and 400 for what is not an id", async () => {
    for (const response of [
      await call("DELETE", `/api/v1/apps/${unknownId}`, ann.headers),
      await call("POST", `/api/v1/apps/${unknownId}/secret`, ann.headers),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: "oauth_client_not_found" });
    }
    expect((await call("DELETE", "/api/v1/apps/not-an-id", ann.headers)).statusCode).toBe(400);
  });
});
