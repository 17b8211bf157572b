import { FRAME_CLIENT_ID } from "@memory-box/contract";
import { type AuthError, GoTrueAdminApi } from "@supabase/auth-js";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuthTestServer, password, signedInClient, startAuthServer, uniqueEmail } from "../../../../test/auth-fixtures";
import { testEngines } from "../../../../test/test-database";
import { serviceRoleToken } from "../../../../test/service-token";
import { OauthClientsRepository } from "./oauth-clients.repository";
import { OauthClientsService } from "./oauth-clients.service";

// The OAuth 2.1 server's client registry (issue #36, ADR 0071) through the unmodified auth-js
// `GoTrueAdminApi.oauth`, against the real server, with a service-role token from the operator CLI.

describe.each(testEngines())("OAuth clients through the admin API on %s", (engine) => {
  let server: AuthTestServer;
  let admin: GoTrueAdminApi;

  const adminWith = (authorization?: string) =>
    new GoTrueAdminApi({ url: server.authUrl, headers: authorization ? { Authorization: authorization } : {} });
  const expectError = (error: AuthError | null, status: number, code: string) => expect(error).toMatchObject({ status, code });
  // Registered clients: the frames' built-in one (ADR 0076) is not among them.
  const clientCount = async () =>
    Number(
      (
        await server.db
          .selectFrom("oauth_clients")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("id", "!=", FRAME_CLIENT_ID)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const register = async (params: Parameters<GoTrueAdminApi["oauth"]["createClient"]>[0]) => {
    const { data, error } = await admin.oauth.createClient(params);
    expect(error).toBeNull();
    return data!;
  };
  /** The registry over the server's database, to check secrets as the token endpoint will. */
  const secrets = () => new OauthClientsService(new OauthClientsRepository(server.db));
  const frame = { client_name: "Living room frame", redirect_uris: ["https://frame.example/callback"] };

  beforeAll(async () => {
    server = await startAuthServer(engine);
    admin = adminWith(`Bearer ${await serviceRoleToken(server.testApp)}`);
  });
  afterAll(async () => {
    await server?.close();
  });

  describe("refuses anyone but the operator, and writes nothing", () => {
    it("signed out, with a forged token, or with a member's token", async () => {
      const before = await clientCount();
      expectError((await adminWith().oauth.createClient(frame)).error, 401, "no_authorization");
      const forged = await new SignJWT({ role: "service_role" })
        .setProtectedHeader({ alg: "HS256" })
        .sign(new TextEncoder().encode("a-different-secret-of-32-characters-x"));
      expectError((await adminWith(`Bearer ${forged}`).oauth.createClient(frame)).error, 403, "bad_jwt");
      const email = uniqueEmail();
      expect((await admin.createUser({ email, password, email_confirm: true })).error).toBeNull();
      const { session } = await signedInClient(server, email);
      const member = adminWith(`Bearer ${session.access_token}`);
      expectError((await member.oauth.createClient(frame)).error, 403, "not_admin");
      expectError((await member.oauth.listClients()).error, 403, "not_admin");
      const existing = await register(frame);
      expectError((await member.oauth.regenerateClientSecret(existing.client_id)).error, 403, "not_admin");
      expectError((await member.oauth.deleteClient(existing.client_id)).error, 403, "not_admin");
      expect(await clientCount()).toBe(before + 1);
    });
  });

  it("registers a confidential client with a secret shown once, lists, gets, updates in part and deletes it", async () => {
    const created = await register({ ...frame, grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] });
    expect(created).toMatchObject({
      client_name: "Living room frame",
      client_type: "confidential",
      token_endpoint_auth_method: "client_secret_basic",
      registration_type: "manual",
      redirect_uris: frame.redirect_uris,
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    });
    expect(created.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only its hash is kept.
    const row = await server.db
      .selectFrom("oauth_clients")
      .selectAll()
      .where("id", "=", created.client_id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(created.client_secret!);
    expect(await secrets().verifySecret(created.client_id, created.client_secret!)).toBe(true);

    const got = await admin.oauth.getClient(created.client_id);
    expect(got.error).toBeNull();
    expect(got.data).toMatchObject({ client_id: created.client_id, client_name: "Living room frame" });
    expect(got.data).not.toHaveProperty("client_secret");

    const updated = await admin.oauth.updateClient(created.client_id, { logo_uri: "https://frame.example/logo.png" });
    expect(updated.error).toBeNull();
    expect(updated.data).toMatchObject({ client_name: "Living room frame", logo_uri: "https://frame.example/logo.png" });
    expect(updated.data).not.toHaveProperty("client_secret");

    const listed = await admin.oauth.listClients();
    expect(listed.error).toBeNull();
    expect(listed.data.clients.map((client) => client.client_id)).toContain(created.client_id);

    expect((await admin.oauth.deleteClient(created.client_id)).error).toBeNull();
    expectError((await admin.oauth.getClient(created.client_id)).error, 404, "oauth_client_not_found");
    expectError((await admin.oauth.deleteClient(created.client_id)).error, 404, "oauth_client_not_found");
    expect(await secrets().verifySecret(created.client_id, created.client_secret!)).toBe(false);
  });

  it("regenerates a confidential client's secret, which ends the old one; a public client has none to regenerate", async () => {
    const created = await register(frame);
    const { data, error } = await admin.oauth.regenerateClientSecret(created.client_id);
    expect(error).toBeNull();
    expect(data!.client_secret).toBeDefined();
    expect(data!.client_secret).not.toBe(created.client_secret);
    expect(await secrets().verifySecret(created.client_id, created.client_secret!)).toBe(false);
    expect(await secrets().verifySecret(created.client_id, data!.client_secret!)).toBe(true);

    const app = await register({ ...frame, token_endpoint_auth_method: "none" });
    expect(app).toMatchObject({ client_type: "public", token_endpoint_auth_method: "none" });
    expect(app).not.toHaveProperty("client_secret");
    expectError((await admin.oauth.regenerateClientSecret(app.client_id)).error, 400, "validation_failed");
    expect(await secrets().verifySecret(app.client_id, "")).toBe(false);
  });

  it("pages the list newest first, with the total and links auth-js reads", async () => {
    // A second apart on the server's clock, so that "newest" is one order.
    for (let index = 0; index < 3; index++) {
      server.clock.advance(1);
      await register({ ...frame, client_name: `Paged ${index}` });
    }
    const total = await clientCount();
    const { data, error } = await admin.oauth.listClients({ page: 1, perPage: 2 });
    expect(error).toBeNull();
    expect(data.clients.map((client) => client.client_name)).toEqual(["Paged 2", "Paged 1"]);
    expect(data).toMatchObject({ total, nextPage: 2, lastPage: Math.ceil(total / 2) });
  });

  describe("refuses what Supabase Auth refuses, with its messages, and writes nothing", () => {
    it.each([
      [{ client_name: "x", redirect_uris: [] }, /redirect_uris is required/],
      [{ client_name: "x", redirect_uris: ["http://frame.example/cb"] }, /HTTP scheme only allowed for localhost/],
      [{ client_name: "x", redirect_uris: ["javascript:alert(1)"] }, /not allowed for security reasons/],
      [{ client_name: "x", redirect_uris: ["https://frame.example/cb#token"] }, /fragment not allowed/],
      [{ client_name: "x", redirect_uris: ["/relative"] }, /invalid URL format/],
      [{ client_name: "x", redirect_uris: Array.from({ length: 11 }, (_, i) => `https://a.example/${i}`) }, /cannot exceed 10/],
      [{ client_name: "x", redirect_uris: ["https://a.example/cb"], grant_types: ["password"] }, /grant_types must only contain/],
      [{ client_name: "x".repeat(1025), redirect_uris: ["https://a.example/cb"] }, /client_name cannot exceed/],
      [{ client_name: "x", redirect_uris: ["https://a.example/cb"], logo_uri: "not a url" }, /logo_uri must be a valid URL/],
      [
        {
          client_name: "x",
          redirect_uris: ["https://a.example/cb"],
          client_type: "public",
          token_endpoint_auth_method: "client_secret_post",
        },
        /not valid for client_type/,
      ],
    ] as const)("%j", async (params, message) => {
      const before = await clientCount();
      const { data, error } = await admin.oauth.createClient(params as never);
      expect(data).toBeNull();
      expectError(error, 400, "validation_failed");
      expect(error!.message).toMatch(message);
      expect(await clientCount()).toBe(before);
    });

    it("an update with nothing in it or a bad field, an unknown client, a malformed id", async () => {
      const created = await register(frame);
      expectError((await admin.oauth.updateClient(created.client_id, {})).error, 400, "validation_failed");
      expectError((await admin.oauth.updateClient(created.client_id, { redirect_uris: [] })).error, 400, "validation_failed");
      expectError(
        (await admin.oauth.updateClient(created.client_id, { token_endpoint_auth_method: "none" })).error,
        400,
        "validation_failed",
      );
      expect((await admin.oauth.getClient(created.client_id)).data).toMatchObject({ redirect_uris: frame.redirect_uris });
      expectError((await admin.oauth.getClient("00000000-0000-0000-0000-000000000000")).error, 404, "oauth_client_not_found");
      expectError((await admin.oauth.getClient("not-an-id")).error, 400, "validation_failed");
    });
  });
});
