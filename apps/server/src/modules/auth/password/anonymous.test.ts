import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuthTestServer, startAuthServer } from "../../../../test/auth-fixtures";
import { testEngines } from "../../../../test/test-database";
import { ConfigError, loadConfig } from "../../../config";

// Supabase Auth's anonymous sign-ins (issue #36, ADR 0072): off unless the operator turns them on,
// which only an open installation may; an anonymous account never opens the collection.

describe("AUTH_ANONYMOUS_SIGN_INS", () => {
  it("is refused at start-up together with invite-only, which is the default", () => {
    expect(() => loadConfig({ AUTH_ANONYMOUS_SIGN_INS: "true" })).toThrow(ConfigError);
    expect(() => loadConfig({ AUTH_ANONYMOUS_SIGN_INS: "true" })).toThrow(/AUTH_ANONYMOUS_SIGN_INS.*AUTH_INVITE_ONLY/s);
    expect(loadConfig({ AUTH_ANONYMOUS_SIGN_INS: "true", AUTH_INVITE_ONLY: "false" }).auth.anonymousSignIns).toBe(true);
    expect(loadConfig({}).auth.anonymousSignIns).toBe(false);
  });
});

describe.each(testEngines())("anonymous sign-ins on %s", (engine) => {
  describe("when off (the default)", () => {
    let server: AuthTestServer;
    beforeAll(async () => {
      server = await startAuthServer(engine);
    });
    afterAll(async () => {
      await server?.close();
    });

    it("are refused as Supabase Auth refuses them, and make no account", async () => {
      const before = await server.db.selectFrom("users").select("id").execute();
      const { data, error } = await server.client().auth.signInAnonymously();
      expect(error).toMatchObject({ status: 422, code: "anonymous_provider_disabled" });
      expect(data.session).toBeNull();
      expect(await server.db.selectFrom("users").select("id").execute()).toEqual(before);
      const settings: unknown = await (await fetch(`${server.authUrl}/settings`)).json();
      expect(settings).toMatchObject({ external: { anonymous_users: false } });
    });
  });

  describe("when on (an open installation)", () => {
    let server: AuthTestServer;
    beforeAll(async () => {
      server = await startAuthServer(engine, { env: { AUTH_INVITE_ONLY: "false", AUTH_ANONYMOUS_SIGN_INS: "true" } });
    });
    afterAll(async () => {
      await server?.close();
    });

    it("give a session to an account without an address, password or identity, said anonymous everywhere", async () => {
      const { auth } = server.client();
      const { data, error } = await auth.signInAnonymously({ options: { data: { colour: "green" } } });
      expect(error).toBeNull();
      expect(data.user).toMatchObject({ is_anonymous: true, email: "", identities: [], user_metadata: { colour: "green" } });
      const claims = decodeJwt(data.session!.access_token);
      expect(claims).toMatchObject({ is_anonymous: true, email: "", aal: "aal1", amr: [{ method: "anonymous" }] });
      expect((await auth.getUser()).data.user).toMatchObject({ id: data.user!.id, is_anonymous: true });
      const settings: unknown = await (await fetch(`${server.authUrl}/settings`)).json();
      expect(settings).toMatchObject({ external: { anonymous_users: true } });

      // Another sign-in is another account.
      const other = await server.client().auth.signInAnonymously();
      expect(other.data.user!.id).not.toBe(data.user!.id);
    });

    it("never open the collection: memories, the live stream and the account refuse the session", async () => {
      const { data } = await server.client().auth.signInAnonymously();
      const headers = { authorization: `Bearer ${data.session!.access_token}` };
      for (const url of ["/api/v1/memories", "/api/v1/events", "/api/v1/account/usage", "/api/v1/members"]) {
        const response = await fetch(`${server.origin}${url}`, { headers });
        expect(response.status, url).toBe(403);
        expect(await response.json()).toMatchObject({ code: "anonymous_not_member" });
      }
      const posted = await fetch(`${server.origin}/api/v1/memories`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ title: "Let me in" }),
      });
      expect(posted.status).toBe(403);
      expect(await server.db.selectFrom("memories").select("id").execute()).toEqual([]);
    });

    it("cannot reauthenticate, having no address to send the code to", async () => {
      const { auth } = server.client();
      await auth.signInAnonymously();
      const { error } = await auth.reauthenticate();
      expect(error?.message).toBe("Reauthentication requires the user to have an email or a phone number");
      expect(server.smtp.messages.filter((mail) => mail.to.some((to) => to.endsWith(".invalid")))).toEqual([]);
    });

    it("cannot be signed into by the placeholder its row keeps", async () => {
      const { data } = await server.client().auth.signInAnonymously();
      const placeholder = `${data.user!.id}@anonymous.invalid`;
      const { error } = await server.client().auth.signInWithPassword({ email: placeholder, password: "anything at all 1" });
      expect(error).toMatchObject({ status: 400, code: "invalid_credentials" });
    });
  });
});
