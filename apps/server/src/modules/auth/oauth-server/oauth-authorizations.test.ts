import { createHash, randomBytes, randomUUID } from "node:crypto";
import { GoTrueAdminApi, type GoTrueClient } from "@supabase/auth-js";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AuthTestServer,
  confirmedMember,
  getUser,
  refreshWith,
  signedInClient,
  startAuthServer,
  stringMatching,
} from "../../../../test/auth-fixtures";
import { serviceRoleToken } from "../../../../test/service-token";
import { testEngines } from "../../../../test/test-database";

// The OAuth 2.1 server's authorization code flow (issue #36, ADR 0075): a client sends the member
// to /oauth/authorize, the member consents through the unmodified auth-js (`auth.oauth.*`, as the
// web app's consent page will), the client exchanges the code at /oauth/token. Then every way an
// attacker would try it, and what a client's session may not do.

interface Registered {
  client_id: string;
  client_secret?: string;
}

const callback = "https://app.example/callback";

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

describe.each(testEngines())("the OAuth 2.1 authorization code flow on %s", (engine) => {
  let server: AuthTestServer;
  let admin: GoTrueAdminApi;
  let publicApp: Registered;
  let confidentialApp: Registered;
  let postApp: Registered;
  let alice: { email: string; userId: string; auth: GoTrueClient; accessToken: string; refreshToken: string };
  let bob: { auth: GoTrueClient; accessToken: string };

  const register = async (params: Parameters<GoTrueAdminApi["oauth"]["createClient"]>[0]): Promise<Registered> => {
    const { data, error } = await admin.oauth.createClient(params);
    expect(error).toBeNull();
    return data!;
  };
  const count = async (table: "oauth_authorizations" | "sessions" | "oauth_consents") =>
    Number(
      (
        await server.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** GET /oauth/authorize as the client's page sends the browser there. */
  const authorize = (params: Record<string, string | undefined>) => {
    const query = new URLSearchParams(
      Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    return server.app.inject({ method: "GET", url: `/auth/v1/oauth/authorize?${query}` });
  };
  /** A pending authorization of `client`: its id from the consent page's address, and the PKCE verifier. */
  const startAuthorization = async (client: Registered, extra: Record<string, string> = {}) => {
    const { verifier, challenge } = pkce();
    const state = randomBytes(8).toString("hex");
    const response = await authorize({
      client_id: client.client_id,
      redirect_uri: callback,
      response_type: "code",
      state,
      code_challenge: challenge,
      code_challenge_method: "S256",
      ...extra,
    });
    expect(response.statusCode).toBe(302);
    const location = new URL(response.headers.location as string);
    expect(`${location.origin}${location.pathname}`).toBe(`${server.origin}/oauth/consent`);
    return { id: location.searchParams.get("authorization_id")!, verifier, state };
  };
  /** An approved authorization's code, approved by `member` through auth-js. */
  const approvedCode = async (client: Registered, member: GoTrueClient = alice.auth) => {
    const started = await startAuthorization(client);
    const details = await member.oauth.getAuthorizationDetails(started.id);
    expect(details.error).toBeNull();
    const redirect =
      "redirect_url" in details.data! ? details.data.redirect_url : (await approve(member, started.id)).redirect_url;
    const url = new URL(redirect);
    expect(url.searchParams.get("state")).toBe(started.state);
    return { ...started, code: url.searchParams.get("code")! };
  };
  const approve = async (member: GoTrueClient, id: string) => {
    const { data, error } = await member.oauth.approveAuthorization(id, { skipBrowserRedirect: true });
    expect(error).toBeNull();
    return data!;
  };
  /** POST /oauth/token as a form, with `basic` credentials when given. */
  const token = (fields: Record<string, string>, basic?: { id: string; secret: string }) =>
    server.app.inject({
      method: "POST",
      url: "/auth/v1/oauth/token",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        ...(basic ? { authorization: `Basic ${Buffer.from(`${basic.id}:${basic.secret}`).toString("base64")}` } : {}),
      },
      payload: new URLSearchParams(fields).toString(),
    });
  const exchange = (client: Registered, code: { code: string; verifier: string }, overrides: Record<string, string> = {}) =>
    token({
      grant_type: "authorization_code",
      code: code.code,
      redirect_uri: callback,
      code_verifier: code.verifier,
      client_id: client.client_id,
      ...overrides,
    });
  const expectOauthError = (response: { statusCode: number; json(): unknown }, status: number, error: string) => {
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ error });
  };
  const api = (method: "GET" | "POST" | "PUT", url: string, accessToken: string, payload?: object) =>
    server.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${accessToken}` },
      ...(payload ? { payload } : {}),
    });

  beforeAll(async () => {
    server = await startAuthServer(engine);
    admin = new GoTrueAdminApi({
      url: server.authUrl,
      headers: { Authorization: `Bearer ${await serviceRoleToken(server.testApp)}` },
    });
    publicApp = await register({ client_name: "Photo printer", redirect_uris: [callback], token_endpoint_auth_method: "none" });
    confidentialApp = await register({ client_name: "Family site", redirect_uris: [callback] });
    postApp = await register({
      client_name: "Posting site",
      redirect_uris: [callback],
      token_endpoint_auth_method: "client_secret_post",
    });
    const a = await confirmedMember(server);
    const signedIn = await signedInClient(server, a.email);
    alice = {
      email: a.email,
      userId: a.userId,
      auth: signedIn.auth,
      accessToken: signedIn.session.access_token,
      refreshToken: signedIn.session.refresh_token,
    };
    const b = await confirmedMember(server);
    const bobIn = await signedInClient(server, b.email);
    bob = { auth: bobIn.auth, accessToken: bobIn.session.access_token };
  });
  afterAll(async () => {
    await server?.close();
  });

  it("a public client: consent through auth-js, a code for a session of the client's own, refreshed at /oauth/token", async () => {
    const started = await startAuthorization(publicApp);
    const details = await alice.auth.oauth.getAuthorizationDetails(started.id);
    expect(details.error).toBeNull();
    expect(details.data).toMatchObject({
      authorization_id: started.id,
      redirect_uri: callback,
      client: { id: publicApp.client_id, name: "Photo printer" },
      user: { id: alice.userId, email: alice.email },
      scope: "email",
    });
    const { redirect_url } = await approve(alice.auth, started.id);
    const back = new URL(redirect_url);
    expect(`${back.origin}${back.pathname}`).toBe(callback);
    expect(back.searchParams.get("state")).toBe(started.state);
    const code = back.searchParams.get("code")!;
    // Only the code's hash is kept.
    const row = await server.db
      .selectFrom("oauth_authorizations")
      .selectAll()
      .where("authorization_id", "=", started.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "approved", user_id: alice.userId });
    expect(JSON.stringify(row)).not.toContain(code);

    const response = await exchange(publicApp, { code, verifier: started.verifier });
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    const session = response.json<{
      access_token: string;
      refresh_token: string;
      token_type: string;
      expires_in: number;
      scope: string;
    }>();
    expect(session).toMatchObject({ token_type: "bearer", scope: "email" });
    expect(session.expires_in).toBeGreaterThan(0);
    expect(decodeJwt(session.access_token)).toMatchObject({ sub: alice.userId, client_id: publicApp.client_id, scope: "email" });
    const user = await getUser(server, session.access_token);
    expect(user.statusCode).toBe(200);
    expect(user.json()).toMatchObject({ id: alice.userId });

    // Refreshed by its client only: not at /token, not by another client.
    expectOauthError(
      await token({ grant_type: "refresh_token", refresh_token: session.refresh_token, client_id: postApp.client_id }),
      401,
      "invalid_client",
    );
    expectOauthError(
      await token(
        { grant_type: "refresh_token", refresh_token: session.refresh_token },
        { id: confidentialApp.client_id, secret: confidentialApp.client_secret! },
      ),
      400,
      "invalid_grant",
    );
    expect((await refreshWith(server, session.refresh_token)).json()).toMatchObject({ code: "refresh_token_not_found" });
    const refreshed = await token({
      grant_type: "refresh_token",
      refresh_token: session.refresh_token,
      client_id: publicApp.client_id,
    });
    expect(refreshed.statusCode).toBe(200);
    expect(decodeJwt(refreshed.json<{ access_token: string }>().access_token)).toMatchObject({
      client_id: publicApp.client_id,
      scope: "email",
    });

    // The grant is listed; the next request of the same scopes is approved without asking.
    const grants = await alice.auth.oauth.listGrants();
    expect(grants.error).toBeNull();
    expect(grants.data!.map((grant) => [grant.client.id, grant.scopes])).toContainEqual([publicApp.client_id, ["email"]]);
    const again = await startAuthorization(publicApp);
    const auto = await alice.auth.oauth.getAuthorizationDetails(again.id);
    expect(auto.data).toMatchObject({ redirect_url: stringMatching(/[?&]code=/) });

    // Revoking the grant ends the client's sessions of the member, and only those.
    expect((await alice.auth.oauth.revokeGrant({ clientId: publicApp.client_id })).error).toBeNull();
    expect((await getUser(server, refreshed.json<{ access_token: string }>().access_token)).statusCode).toBe(403);
    expect((await getUser(server, alice.accessToken)).statusCode).toBe(200);
    expect((await alice.auth.oauth.revokeGrant({ clientId: publicApp.client_id })).error).toMatchObject({
      status: 404,
      code: "oauth_consent_not_found",
    });
  });

  it("a confidential client proves its secret by its registered method only", async () => {
    const secret = confidentialApp.client_secret!;
    const code = await approvedCode(confidentialApp);
    const fields = { grant_type: "authorization_code", code: code.code, redirect_uri: callback, code_verifier: code.verifier };
    const sessionsBefore = await count("sessions");
    expectOauthError(await token({ ...fields, client_id: confidentialApp.client_id }), 401, "invalid_client");
    expectOauthError(await token(fields, { id: confidentialApp.client_id, secret: "wrong" }), 401, "invalid_client");
    expectOauthError(
      await token({ ...fields, client_id: confidentialApp.client_id, client_secret: secret }),
      401,
      "invalid_client",
    );
    expect(await count("sessions")).toBe(sessionsBefore);
    const response = await token(fields, { id: confidentialApp.client_id, secret });
    expect(response.statusCode).toBe(200);
    expect(decodeJwt(response.json<{ access_token: string }>().access_token)).toMatchObject({
      client_id: confidentialApp.client_id,
    });

    const posted = await approvedCode(postApp);
    const postFields = {
      grant_type: "authorization_code",
      code: posted.code,
      redirect_uri: callback,
      code_verifier: posted.verifier,
    };
    expectOauthError(await token(postFields, { id: postApp.client_id, secret: postApp.client_secret! }), 401, "invalid_client");
    // Taken as JSON too.
    const asJson = await server.app.inject({
      method: "POST",
      url: "/auth/v1/oauth/token",
      payload: { ...postFields, client_id: postApp.client_id, client_secret: postApp.client_secret! },
    });
    expect(asJson.statusCode).toBe(200);
    expect(asJson.json()).toMatchObject({ token_type: "bearer", scope: "email" });
  });

  it("a deleted client's sessions end with it", async () => {
    const app = await register({ client_name: "Short-lived", redirect_uris: [callback], token_endpoint_auth_method: "none" });
    const code = await approvedCode(app);
    const { access_token } = (await exchange(app, code)).json<{ access_token: string }>();
    expect((await getUser(server, access_token)).statusCode).toBe(200);
    expect((await admin.oauth.deleteClient(app.client_id)).error).toBeNull();
    expect((await getUser(server, access_token)).statusCode).toBe(403);
  });

  describe("refuses an attacker, and writes nothing", () => {
    it("no PKCE, a `plain` challenge, a short one: back to the client with invalid_request", async () => {
      const before = await count("oauth_authorizations");
      const { challenge } = pkce();
      for (const params of [
        {},
        { code_challenge: challenge },
        { code_challenge: challenge, code_challenge_method: "plain" },
        { code_challenge: "short", code_challenge_method: "S256" },
        { code_challenge: challenge, code_challenge_method: "S256", scope: "email admin" },
        { code_challenge: challenge, code_challenge_method: "S256", response_type: "token" },
      ]) {
        const response = await authorize({ client_id: publicApp.client_id, redirect_uri: callback, state: "s1", ...params });
        expect(response.statusCode, JSON.stringify(params)).toBe(302);
        const back = new URL(response.headers.location as string);
        expect(`${back.origin}${back.pathname}`).toBe(callback);
        expect(back.searchParams.get("error")).toBe("invalid_request");
        expect(back.searchParams.get("state")).toBe("s1");
      }
      expect(await count("oauth_authorizations")).toBe(before);
    });

    it("a redirect address not registered, an unknown client: JSON 400, never a redirect", async () => {
      const before = await count("oauth_authorizations");
      const { challenge } = pkce();
      const pkceParams = { code_challenge: challenge, code_challenge_method: "S256" };
      for (const params of [
        { client_id: publicApp.client_id, redirect_uri: "https://evil.example/callback" },
        { client_id: publicApp.client_id, redirect_uri: `${callback}/more` },
        { client_id: publicApp.client_id },
        { client_id: randomUUID(), redirect_uri: callback },
        { client_id: "not-a-client", redirect_uri: callback },
      ]) {
        const response = await authorize({ ...params, ...pkceParams });
        expect(response.statusCode, JSON.stringify(params)).toBe(400);
        expect(response.headers.location).toBeUndefined();
      }
      expect(await count("oauth_authorizations")).toBe(before);
    });

    it("a wrong or missing verifier, another client, another redirect address: the code stays unused", async () => {
      const code = await approvedCode(publicApp);
      const sessionsBefore = await count("sessions");
      expectOauthError(await exchange(publicApp, { code: code.code, verifier: pkce().verifier }), 400, "invalid_grant");
      expectOauthError(await exchange(publicApp, code, { code_verifier: "" }), 400, "invalid_grant");
      expectOauthError(
        await token(
          { grant_type: "authorization_code", code: code.code, redirect_uri: callback, code_verifier: code.verifier },
          { id: confidentialApp.client_id, secret: confidentialApp.client_secret! },
        ),
        400,
        "invalid_grant",
      );
      expectOauthError(await exchange(publicApp, code, { redirect_uri: "https://app.example/other" }), 400, "invalid_grant");
      expect(await count("sessions")).toBe(sessionsBefore);
      expect((await exchange(publicApp, code)).statusCode).toBe(200);
    });

    it("a code replayed: refused, and the session it gave ends", async () => {
      const code = await approvedCode(publicApp);
      const first = await exchange(publicApp, code);
      expect(first.statusCode).toBe(200);
      const { access_token, refresh_token } = first.json<{ access_token: string; refresh_token: string }>();
      expect((await getUser(server, access_token)).statusCode).toBe(200);
      expectOauthError(await exchange(publicApp, code), 400, "invalid_grant");
      expect((await getUser(server, access_token)).statusCode).toBe(403);
      expectOauthError(
        await token({ grant_type: "refresh_token", refresh_token, client_id: publicApp.client_id }),
        400,
        "invalid_grant",
      );
    });

    it("the same code exchanged twice at once: one wins, and its session ends with the replay", async () => {
      const code = await approvedCode(publicApp);
      const answers = await Promise.all([exchange(publicApp, code), exchange(publicApp, code)]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
      const won = answers.find((answer) => answer.statusCode === 200)!;
      expect((await getUser(server, won.json<{ access_token: string }>().access_token)).statusCode).toBe(403);
    });

    it("the same authorization approved twice at once: one code only", async () => {
      const started = await startAuthorization(confidentialApp, { scope: "email phone" });
      expect((await alice.auth.oauth.getAuthorizationDetails(started.id)).error).toBeNull();
      const answers = await Promise.all([
        alice.auth.oauth.approveAuthorization(started.id, { skipBrowserRedirect: true }),
        alice.auth.oauth.approveAuthorization(started.id, { skipBrowserRedirect: true }),
      ]);
      expect(answers.filter((answer) => answer.error === null)).toHaveLength(1);
      expect(answers.find((answer) => answer.error !== null)!.error).toMatchObject({ status: 400 });
    });

    it("an authorization read after its ten minutes is gone", async () => {
      const started = await startAuthorization(publicApp, { scope: "openid" });
      server.clock.advance(601);
      expect((await alice.auth.oauth.getAuthorizationDetails(started.id)).error).toMatchObject({
        status: 404,
        code: "oauth_authorization_not_found",
      });
      const row = await server.db
        .selectFrom("oauth_authorizations")
        .select("status")
        .where("authorization_id", "=", started.id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe("expired");
    });

    it("a code exchanged after its ten minutes", async () => {
      const code = await approvedCode(publicApp);
      server.clock.advance(601);
      const sessionsBefore = await count("sessions");
      const response = await exchange(publicApp, code);
      expectOauthError(response, 400, "invalid_grant");
      expect(response.json()).toMatchObject({ error_description: "Authorization code has expired" });
      expect(await count("sessions")).toBe(sessionsBefore);
    });

    it("an authorization read or approved by another member, or signed out", async () => {
      // A scope not consented to yet, so that reading does not approve it.
      const started = await startAuthorization(publicApp, { scope: "phone" });
      expect((await alice.auth.oauth.getAuthorizationDetails(started.id)).error).toBeNull();
      expect((await bob.auth.oauth.getAuthorizationDetails(started.id)).error).toMatchObject({
        status: 404,
        code: "oauth_authorization_not_found",
      });
      expect((await bob.auth.oauth.approveAuthorization(started.id, { skipBrowserRedirect: true })).error).toMatchObject({
        status: 404,
        code: "oauth_authorization_not_found",
      });
      const signedOut = await server.app.inject({
        method: "POST",
        url: `/auth/v1/oauth/authorizations/${started.id}/consent`,
        payload: { action: "approve" },
      });
      expect(signedOut.statusCode).toBe(401);
      // Unbound, another member's first read takes it; the first member then finds nothing.
      const other = await startAuthorization(publicApp, { scope: "phone" });
      expect((await bob.auth.oauth.getAuthorizationDetails(other.id)).error).toBeNull();
      expect((await alice.auth.oauth.approveAuthorization(other.id, { skipBrowserRedirect: true })).error).toMatchObject({
        status: 404,
      });
      const rows = await server.db
        .selectFrom("oauth_authorizations")
        .select(["status", "authorization_code_hash"])
        .where("authorization_id", "in", [started.id, other.id])
        .execute();
      expect(rows).toEqual([
        { status: "pending", authorization_code_hash: null },
        { status: "pending", authorization_code_hash: null },
      ]);
    });

    it("denied: back to the client with access_denied, and no code ever", async () => {
      const started = await startAuthorization(confidentialApp, { scope: "openid profile" });
      expect((await alice.auth.oauth.getAuthorizationDetails(started.id)).data).toMatchObject({ scope: "openid profile" });
      const { data, error } = await alice.auth.oauth.denyAuthorization(started.id, { skipBrowserRedirect: true });
      expect(error).toBeNull();
      const back = new URL(data!.redirect_url);
      expect(back.searchParams.get("error")).toBe("access_denied");
      expect(back.searchParams.get("state")).toBe(started.state);
      expect(back.searchParams.has("code")).toBe(false);
      expect((await alice.auth.oauth.approveAuthorization(started.id, { skipBrowserRedirect: true })).error).toMatchObject({
        status: 400,
      });
    });

    it("a member's own refresh token at /oauth/token", async () => {
      const sessionsBefore = await count("sessions");
      expectOauthError(
        await token({ grant_type: "refresh_token", refresh_token: alice.refreshToken, client_id: publicApp.client_id }),
        400,
        "invalid_grant",
      );
      expect(await count("sessions")).toBe(sessionsBefore);
    });

    it("a client's session on the collection, photos, the account and the grants", async () => {
      const code = await approvedCode(publicApp);
      const { access_token } = (await exchange(publicApp, code)).json<{ access_token: string }>();
      const refused = [
        await api("GET", "/api/v1/memories", access_token),
        await api("POST", "/api/v1/memories", access_token, { title: "From an app", date: "2026-11-28" }),
        await api("GET", `/api/v1/photos/${randomUUID()}`, access_token),
        await api("GET", "/api/v1/members", access_token),
        await api("GET", "/api/v1/events", access_token),
        await api("GET", `/storage/v1/object/authenticated/memory-photos/${randomUUID()}.jpg`, access_token),
      ];
      for (const response of refused) {
        expect(response.statusCode).toBe(403);
        expect(response.json()).toMatchObject({ code: "oauth_client_session_not_allowed" });
      }
      for (const response of [
        await api("PUT", "/auth/v1/user", access_token, { data: { name: "Mallory" } }),
        await api("GET", "/auth/v1/factors/recovery-codes", access_token),
        await api("GET", "/auth/v1/user/oauth/grants", access_token),
        await api("POST", "/auth/v1/logout?scope=global", access_token),
      ]) {
        expect(response.statusCode).toBe(403);
        expect(response.json()).toMatchObject({ error_code: "oauth_client_session_not_allowed" });
      }
      expect((await getUser(server, alice.accessToken)).json()).not.toMatchObject({ user_metadata: { name: "Mallory" } });
      expect(await count("oauth_consents")).toBeGreaterThan(0);
      expect((await getUser(server, access_token)).statusCode).toBe(200);
    });
  });
});
