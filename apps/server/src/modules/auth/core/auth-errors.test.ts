import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  anyString,
  type AuthTestServer,
  codeIn,
  confirmedMember,
  password,
  startAuthServer,
  stringMatching,
  uniqueEmail,
} from "../../../../test/auth-fixtures";
import { testEngines } from "../../../../test/test-database";

// Every error the auth service answers, over HTTP, in both envelopes of protocol §10: the
// 2024-01-01 one ({code, message} + the version header echoed) for clients that send the
// header (auth-js always does), the legacy one ({code: status, error_code, msg} +
// x-sb-error-code) for those that do not.

const apiVersion = { "x-supabase-api-version": "2024-01-01" };

interface ErrorCheck {
  status: number;
  code: string;
  body?: Record<string, unknown>;
}

/**
 * Sends the request with and without the API version header and checks both envelopes. The
 * request is sent twice, so it must fail the same way the second time.
 */
async function expectAuthError(
  server: AuthTestServer,
  request: InjectOptions,
  { status, code, body = {} }: ErrorCheck,
): Promise<LightMyRequestResponse> {
  const current = await server.app.inject({ ...request, headers: { ...request.headers, ...apiVersion } });
  expect(current.statusCode, current.body).toBe(status);
  expect(current.headers["x-supabase-api-version"]).toBe("2024-01-01");
  expect(current.headers["content-type"]).toMatch(/^application\/json/);
  expect(current.json()).toEqual({ code, message: stringMatching(/\S/), ...body });

  const legacy = await server.app.inject(request);
  expect(legacy.statusCode, legacy.body).toBe(status);
  expect(legacy.headers["x-sb-error-code"]).toBe(code);
  expect(legacy.headers["x-supabase-api-version"]).toBeUndefined();
  expect(legacy.json()).toEqual({ code: status, error_code: code, msg: stringMatching(/\S/), ...body });
  return current;
}

const post = (url: string, payload: unknown, headers: Record<string, string> = {}): InjectOptions => ({
  method: "POST",
  url: `/auth/v1${url}`,
  payload: payload as Record<string, unknown>,
  headers,
});
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe.each(testEngines())("auth error answers on %s", (engine) => {
  let server: AuthTestServer;

  beforeAll(async () => {
    server = await startAuthServer(engine);
  });
  afterAll(async () => {
    await server?.close();
  });

  async function signIn(email: string): Promise<{ access_token: string; refresh_token: string }> {
    const response = await server.app.inject(post("/token?grant_type=password", { email, password }));
    expect(response.statusCode).toBe(200);
    return response.json();
  }

  describe("POST /signup", () => {
    it("anonymous_provider_disabled for a body without email or phone (signInAnonymously)", async () => {
      await expectAuthError(server, post("/signup", { data: {}, gotrue_meta_security: {} }), {
        status: 422,
        code: "anonymous_provider_disabled",
      });
      const { error } = await server.client().auth.signInAnonymously();
      expect(error).toMatchObject({ status: 422, code: "anonymous_provider_disabled" });
    });

    it("phone_provider_disabled for a phone sign-up", async () => {
      await expectAuthError(server, post("/signup", { phone: "+15555550100", password }), {
        status: 422,
        code: "phone_provider_disabled",
      });
    });

    it.each([
      ["an invalid address", { email: "not-an-address", password }],
      ["a missing password", { email: "ann@example.org" }],
      ["a code challenge without its method", { email: "ann@example.org", password, code_challenge: "a".repeat(43) }],
      ["a method without a code challenge", { email: "ann@example.org", password, code_challenge_method: "s256" }],
      [
        "a code challenge that is too short",
        { email: "ann@example.org", password, code_challenge: "short", code_challenge_method: "s256" },
      ],
      [
        "a code challenge with bad characters",
        { email: "ann@example.org", password, code_challenge: `${"a".repeat(42)}/`, code_challenge_method: "s256" },
      ],
      [
        "an unknown challenge method",
        { email: "ann@example.org", password, code_challenge: "a".repeat(43), code_challenge_method: "s512" },
      ],
      ["a password over 72 bytes (37 two-byte characters)", { email: "ann@example.org", password: "é".repeat(37) }],
      ["metadata that is not an object", { email: "ann@example.org", password, data: "nope" }],
    ])("validation_failed for %s", async (_label, body) => {
      await expectAuthError(server, post("/signup", body), { status: 400, code: "validation_failed" });
    });

    it("weak_password with the reasons for a short password", async () => {
      await expectAuthError(server, post("/signup", { email: "ann@example.org", password: "short" }), {
        status: 422,
        code: "weak_password",
        body: { weak_password: { reasons: ["length"] } },
      });
      const { error } = await server.client().auth.signUp({ email: "ann@example.org", password: "short" });
      expect(error).toMatchObject({ name: "AuthWeakPasswordError", status: 422, code: "weak_password", reasons: ["length"] });
    });

    it("over_email_send_rate_limit for a second confirmation mail within the minimum interval", async () => {
      const email = uniqueEmail("hasty");
      await server.invite(email);
      expect((await server.app.inject(post("/signup", { email, password }))).statusCode).toBe(200);
      const response = await expectAuthError(server, post("/signup", { email, password }), {
        status: 429,
        code: "over_email_send_rate_limit",
      });
      expect(response.json<{ message: string }>().message).toMatch(
        /^For security purposes, you can only request this after \d+ seconds\.$/,
      );
      await server.smtp.waitForMail(email);
      expect(server.smtp.messages.filter((mail) => mail.to.includes(email))).toHaveLength(1);
    });
  });

  describe("POST /token", () => {
    let member: { email: string; userId: string };
    let unconfirmed: string;
    beforeAll(async () => {
      member = await confirmedMember(server);
      unconfirmed = uniqueEmail("unconfirmed");
      await server.invite(unconfirmed);
      expect((await server.app.inject(post("/signup", { email: unconfirmed, password }))).statusCode).toBe(200);
    });

    it("invalid_credentials for a wrong password and an unknown address, alike", async () => {
      const wrong = await expectAuthError(
        server,
        post("/token?grant_type=password", { email: member.email, password: "wrong password" }),
        { status: 400, code: "invalid_credentials" },
      );
      const unknown = await expectAuthError(
        server,
        post("/token?grant_type=password", { email: uniqueEmail("nobody"), password }),
        { status: 400, code: "invalid_credentials" },
      );
      expect(unknown.json()).toEqual(wrong.json());
    });

    it("invalid_credentials (unsupported_grant_type) for an unknown or missing grant type", async () => {
      const unknown = await expectAuthError(server, post("/token?grant_type=client_credentials", {}), {
        status: 400,
        code: "invalid_credentials",
      });
      expect(unknown.json()).toMatchObject({ message: "unsupported_grant_type" });
      await expectAuthError(server, post("/token", {}), { status: 400, code: "invalid_credentials" });
    });

    it("email_not_confirmed for the right password of an unconfirmed account", async () => {
      await expectAuthError(server, post("/token?grant_type=password", { email: unconfirmed, password }), {
        status: 400,
        code: "email_not_confirmed",
      });
    });

    it.each([
      ["both email and phone", "password", { email: "a@example.org", phone: "+15555550100", password }],
      ["neither email nor phone", "password", { password }],
      ["an empty refresh token", "refresh_token", { refresh_token: "" }],
      ["an auth code without a verifier", "pkce", { auth_code: "3f0c9a55-8f7e-4bb4-9f0e-2f3c4f5a6b7c", code_verifier: "" }],
    ])("validation_failed for %s", async (_label, grant, body) => {
      await expectAuthError(server, post(`/token?grant_type=${grant}`, body), { status: 400, code: "validation_failed" });
    });

    it("phone_provider_disabled for a phone sign-in", async () => {
      await expectAuthError(server, post("/token?grant_type=password", { phone: "+15555550100", password }), {
        status: 422,
        code: "phone_provider_disabled",
      });
    });

    it("refresh_token_not_found for a token never issued", async () => {
      await expectAuthError(server, post("/token?grant_type=refresh_token", { refresh_token: "x".repeat(43) }), {
        status: 400,
        code: "refresh_token_not_found",
      });
    });

    it("flow_state_not_found for an unknown auth code", async () => {
      await expectAuthError(
        server,
        post("/token?grant_type=pkce", { auth_code: "3f0c9a55-8f7e-4bb4-9f0e-2f3c4f5a6b7c", code_verifier: "v".repeat(56) }),
        { status: 404, code: "flow_state_not_found" },
      );
    });

    it("provider_disabled for id_token and web3_provider_disabled for web3", async () => {
      await expectAuthError(server, post("/token?grant_type=id_token", { provider: "google", id_token: "x" }), {
        status: 400,
        code: "provider_disabled",
      });
      const { error } = await server.client().auth.signInWithIdToken({ provider: "google", token: "x" });
      expect(error).toMatchObject({ status: 400, code: "provider_disabled" });
      await expectAuthError(server, post("/token?grant_type=web3", { chain: "ethereum", message: "m", signature: "s" }), {
        status: 422,
        code: "web3_provider_disabled",
      });
    });

    it("bad_json for a body that is not JSON", async () => {
      await expectAuthError(
        server,
        {
          method: "POST",
          url: "/auth/v1/token?grant_type=password",
          headers: { "content-type": "application/json;charset=UTF-8" },
          payload: '{"email": "a@example.org",',
        },
        { status: 400, code: "bad_json" },
      );
    });

    it("request_entity_too_large for a body over 1 MiB", async () => {
      const payload = JSON.stringify({ email: "a@example.org", password, padding: "x".repeat(1024 * 1024) });
      await expectAuthError(
        server,
        { method: "POST", url: "/auth/v1/token?grant_type=password", headers: { "content-type": "application/json" }, payload },
        { status: 413, code: "request_entity_too_large" },
      );
    });
  });

  describe("bearer authentication", () => {
    let member: { email: string; userId: string };
    beforeAll(async () => {
      member = await confirmedMember(server);
    });

    it("no_authorization (401) without a bearer token", async () => {
      await expectAuthError(server, { method: "GET", url: "/auth/v1/user" }, { status: 401, code: "no_authorization" });
      await expectAuthError(
        server,
        { method: "GET", url: "/auth/v1/user", headers: { authorization: "Basic dXNlcjpwYXNz" } },
        { status: 401, code: "no_authorization" },
      );
    });

    it("bad_jwt (403) for garbage, alg none, a forged key, a changed payload and an expired token", async () => {
      const { access_token: real } = await signIn(member.email);
      const [header, payload, signature] = real.split(".") as [string, string, string];
      const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
      const { kid } = JSON.parse(Buffer.from(header, "base64url").toString("utf8")) as { kid: string };
      const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
      const foreign = await generateKeyPair("ES256");
      const forgeries = {
        garbage: "not-a-jwt",
        algNone: `${encode({ alg: "none", typ: "JWT" })}.${payload}.`,
        foreignKey: await new SignJWT(claims).setProtectedHeader({ alg: "ES256", typ: "JWT", kid }).sign(foreign.privateKey),
        changedPayload: `${header}.${encode({ ...claims, email: "someone.else@example.org" })}.${signature}`,
      };
      for (const [label, token] of Object.entries(forgeries)) {
        const response = await server.app.inject({
          method: "GET",
          url: "/auth/v1/user",
          headers: { ...bearer(token), ...apiVersion },
        });
        expect([label, response.statusCode, response.json<{ code: string }>().code]).toEqual([label, 403, "bad_jwt"]);
      }
      await expectAuthError(
        server,
        { method: "GET", url: "/auth/v1/user", headers: bearer(forgeries.algNone) },
        { status: 403, code: "bad_jwt" },
      );

      expect((await server.app.inject({ method: "GET", url: "/auth/v1/user", headers: bearer(real) })).statusCode).toBe(200);
      server.clock.advance(3600 + 31);
      await expectAuthError(
        server,
        { method: "GET", url: "/auth/v1/user", headers: bearer(real) },
        { status: 403, code: "bad_jwt" },
      );
    });

    it("session_not_found (403) once the session has ended", async () => {
      const { access_token: token } = await signIn(member.email);
      expect(
        (await server.app.inject({ method: "POST", url: "/auth/v1/logout?scope=local", headers: bearer(token) })).statusCode,
      ).toBe(204);
      await expectAuthError(
        server,
        { method: "GET", url: "/auth/v1/user", headers: bearer(token) },
        { status: 403, code: "session_not_found" },
      );
      await expectAuthError(
        server,
        { method: "PUT", url: "/auth/v1/user", headers: bearer(token), payload: { data: { a: 1 } } },
        { status: 403, code: "session_not_found" },
      );
    });

    it("not_admin for app_metadata, email_exists for a taken address, validation_failed for an unknown logout scope", async () => {
      const { access_token: token } = await signIn(member.email);
      const other = await confirmedMember(server);
      await expectAuthError(
        server,
        { method: "PUT", url: "/auth/v1/user", headers: bearer(token), payload: { app_metadata: { role: "admin" } } },
        { status: 403, code: "not_admin" },
      );
      await expectAuthError(
        server,
        { method: "PUT", url: "/auth/v1/user", headers: bearer(token), payload: { email: other.email } },
        { status: 422, code: "email_exists" },
      );
      await expectAuthError(
        server,
        { method: "PUT", url: "/auth/v1/user", headers: bearer(token), payload: { password: "tiny" } },
        { status: 422, code: "weak_password", body: { weak_password: { reasons: ["length"] } } },
      );
      await expectAuthError(
        server,
        { method: "POST", url: "/auth/v1/logout?scope=everywhere", headers: bearer(token) },
        { status: 400, code: "validation_failed" },
      );
    });
  });

  describe("POST /verify", () => {
    async function pendingSignUp(): Promise<{ email: string; code: string }> {
      const email = uniqueEmail("verify");
      await server.invite(email);
      expect((await server.app.inject(post("/signup", { email, password }))).statusCode).toBe(200);
      return { email, code: codeIn(await server.smtp.waitForMail(email)) };
    }

    it("otp_expired for a wrong code", async () => {
      const { email, code } = await pendingSignUp();
      const wrong = code === "000000" ? "000001" : "000000";
      await expectAuthError(server, post("/verify", { email, token: wrong, type: "signup" }), {
        status: 403,
        code: "otp_expired",
      });
      await expectAuthError(server, post("/verify", { token_hash: "not-a-link-token", type: "signup" }), {
        status: 403,
        code: "otp_expired",
      });
    });

    it("otp_expired for a code used once already", async () => {
      const { email, code } = await pendingSignUp();
      expect((await server.app.inject(post("/verify", { email, token: code, type: "signup" }))).statusCode).toBe(200);
      await expectAuthError(server, post("/verify", { email, token: code, type: "signup" }), {
        status: 403,
        code: "otp_expired",
      });
    });

    it("otp_expired for a code past its lifetime", async () => {
      const { email, code } = await pendingSignUp();
      server.clock.advance(86_400 + 1);
      await expectAuthError(server, post("/verify", { email, token: code, type: "signup" }), {
        status: 403,
        code: "otp_expired",
      });
    });

    it.each([
      ["a missing type", { email: "a@example.org", token: "123456" }],
      ["an unknown type", { email: "a@example.org", token: "123456", type: "sms" }],
      ["both token and token_hash", { email: "a@example.org", token: "123456", token_hash: "abc", type: "signup" }],
      ["a code without the address", { token: "123456", type: "signup" }],
    ])("validation_failed for %s", async (_label, body) => {
      await expectAuthError(server, post("/verify", body), { status: 400, code: "validation_failed" });
    });
  });

  describe("ways in that are not enabled", () => {
    it("answers /sso and identities as disabled", async () => {
      await expectAuthError(server, post("/sso", { domain: "example.org" }), { status: 422, code: "sso_provider_disabled" });
      await expectAuthError(
        server,
        { method: "GET", url: "/auth/v1/authorize?provider=google" },
        { status: 400, code: "provider_disabled" },
      );
      await expectAuthError(
        server,
        { method: "GET", url: "/auth/v1/user/identities/authorize?provider=google" },
        { status: 404, code: "manual_linking_disabled" },
      );
      await expectAuthError(
        server,
        { method: "DELETE", url: "/auth/v1/user/identities/3f0c9a55-8f7e-4bb4-9f0e-2f3c4f5a6b7c" },
        { status: 404, code: "manual_linking_disabled" },
      );
      await expectAuthError(server, { method: "GET", url: "/auth/v1/nothing-here" }, { status: 404, code: "not_found" });
    });

    it("lets auth-js see those answers as error codes", async () => {
      const member = await confirmedMember(server);
      const { auth } = server.client();
      await auth.signInWithPassword({ email: member.email, password });
      expect((await auth.signInWithSSO({ domain: "example.org" })).error).toMatchObject({ code: "sso_provider_disabled" });
      expect((await auth.mfa.enroll({ factorType: "phone", phone: "+15555550100" })).error).toMatchObject({
        code: "mfa_phone_enroll_not_enabled",
      });
      const factors = await auth.mfa.listFactors();
      expect(factors.error).toBeNull();
      expect(factors.data?.totp).toEqual([]);
    });
  });

  describe("Supabase Auth's answers for what Memory Box never sends", () => {
    it("answers phone codes as unknown, and a malformed number as such", async () => {
      for (const type of ["sms", "phone_change"]) {
        await expectAuthError(server, post("/verify", { type, phone: "12345abc", token: "123456" }), {
          status: 400,
          code: "validation_failed",
        });
        await expectAuthError(server, post("/verify", { type, phone: "+15555550100", token: "123456" }), {
          status: 403,
          code: "otp_expired",
        });
      }
    });

    it("refuses a sign-in code for an address no account uses when asked not to create one", async () => {
      const response = await expectAuthError(server, post("/otp", { email: uniqueEmail("nobody"), create_user: false }), {
        status: 422,
        code: "otp_disabled",
      });
      expect(response.json()).toMatchObject({ message: "Signups not allowed for otp" });
      const member = await confirmedMember(server);
      const known = await server.app.inject(post("/otp", { email: member.email, create_user: false }));
      expect(known.statusCode).toBe(200);
    });
  });

  describe("transport", () => {
    it("answers an older API version in the legacy envelope", async () => {
      const response = await server.app.inject({
        method: "GET",
        url: "/auth/v1/user",
        headers: { "x-supabase-api-version": "2023-05-01" },
      });
      expect(response.json()).toEqual({ code: 401, error_code: "no_authorization", msg: anyString });
    });

    it("accepts POST /logout with a JSON content type and an empty body (204)", async () => {
      const member = await confirmedMember(server);
      const { access_token: token } = await signIn(member.email);
      const response = await server.app.inject({
        method: "POST",
        url: "/auth/v1/logout",
        headers: { ...bearer(token), "content-type": "application/json;charset=UTF-8", ...apiVersion },
        payload: "",
      });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe("");
    });

    it("lets another origin call the API with the headers auth-js sends, and read the version header", async () => {
      const origin = "https://app.example.org";
      const preflight = await server.app.inject({
        method: "OPTIONS",
        url: "/auth/v1/token?grant_type=password",
        headers: {
          origin,
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization,content-type,x-client-info,x-supabase-api-version,apikey",
        },
      });
      expect(preflight.statusCode).toBe(204);
      expect(preflight.headers["access-control-allow-origin"]).toBe(origin);
      expect(preflight.headers["access-control-allow-credentials"]).toBe("true");
      expect(String(preflight.headers["access-control-allow-methods"])).toContain("POST");
      const allowed = String(preflight.headers["access-control-allow-headers"])
        .toLowerCase()
        .split(/\s*,\s*/);
      expect(allowed).toEqual(
        expect.arrayContaining(["authorization", "content-type", "x-client-info", "x-supabase-api-version", "apikey"]),
      );

      const actual = await server.app.inject({
        method: "POST",
        url: "/auth/v1/token?grant_type=password",
        headers: { origin, ...apiVersion },
        payload: { email: "a@example.org", password },
      });
      expect(actual.statusCode).toBe(400);
      expect(actual.headers["access-control-allow-origin"]).toBe(origin);
      expect(String(actual.headers["access-control-expose-headers"]).toLowerCase()).toContain("x-supabase-api-version");
    });
  });
});

describe.each(testEngines())("sign-in codes with AUTH_OTP_UNKNOWN_ADDRESS=hide on %s", (engine) => {
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthServer(engine, { env: { AUTH_OTP_UNKNOWN_ADDRESS: "hide" } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("answers an address no account uses as it answers a member's", async () => {
    const member = await confirmedMember(server);
    const unknown = await server.app.inject(post("/otp", { email: uniqueEmail("nobody"), create_user: false }));
    const known = await server.app.inject(post("/otp", { email: member.email, create_user: false }));
    expect({ status: unknown.statusCode, body: unknown.body }).toEqual({ status: known.statusCode, body: known.body });
    expect(known.statusCode).toBe(200);
  });
});

describe.each(testEngines())("auth error answers that need other settings on %s", (engine) => {
  describe("AUTH_SIGNUP_DISABLED", () => {
    let server: AuthTestServer;
    beforeAll(async () => {
      server = await startAuthServer(engine, { env: { AUTH_SIGNUP_DISABLED: "true" } });
    });
    afterAll(async () => {
      await server?.close();
    });

    it("signup_disabled", async () => {
      const email = uniqueEmail();
      await server.invite(email);
      await expectAuthError(server, post("/signup", { email, password }), { status: 422, code: "signup_disabled" });
    });
  });

  describe("AUTH_AUTOCONFIRM", () => {
    let server: AuthTestServer;
    beforeAll(async () => {
      server = await startAuthServer(engine, { env: { AUTH_AUTOCONFIRM: "true", AUTH_INVITE_ONLY: "false" } });
    });
    afterAll(async () => {
      await server?.close();
    });

    it("user_already_exists for a second sign-up of a confirmed address", async () => {
      const email = uniqueEmail();
      await server.invite(email);
      expect((await server.app.inject(post("/signup", { email, password }))).statusCode).toBe(200);
      await expectAuthError(server, post("/signup", { email, password: "some other password" }), {
        status: 422,
        code: "user_already_exists",
      });
    });
  });

  describe("rate limits on, AUTH_RATE_LIMIT_TOKEN=3", () => {
    let server: AuthTestServer;
    beforeAll(async () => {
      server = await startAuthServer(engine, { env: { AUTH_RATE_LIMITS: "true", AUTH_RATE_LIMIT_TOKEN: "3" } });
    });
    afterAll(async () => {
      await server?.close();
    });

    it("over_request_rate_limit (429 with Retry-After) for the fourth /token request", async () => {
      for (let i = 0; i < 3; i += 1) {
        const response = await server.app.inject(
          post("/token?grant_type=refresh_token", { refresh_token: `not-issued-${i}` }, apiVersion),
        );
        expect(response.statusCode).toBe(400);
      }
      const limited = await expectAuthError(server, post("/token?grant_type=password", { email: "a@example.org", password }), {
        status: 429,
        code: "over_request_rate_limit",
      });
      expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
      const { error } = await server.client().auth.signInWithPassword({ email: "a@example.org", password });
      expect(error).toMatchObject({ status: 429, code: "over_request_rate_limit" });
      // Other endpoints have their own budgets.
      expect((await server.app.inject(post("/recover", { email: "a@example.org" }))).statusCode).toBe(200);
    });
  });
});
