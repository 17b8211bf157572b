import { createHash, generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AuthTestServer,
  confirmedMember,
  getUser,
  signedInClient,
  startAuthServer,
  uniqueEmail,
} from "../../../../test/auth-fixtures";
import { journeyThroughProvider, startOidcProvider, type TestOidcProvider } from "../../../../test/oidc-test-provider";
import type { CapturedMail } from "../../../../test/smtp-test-server";
import { testEngines } from "../../../../test/test-database";

// Signing in with an OpenID Connect provider, through the unmodified auth-js client, against a
// real provider (oidc-provider) on loopback: the authorize/callback journey in both flows, ID
// tokens brought by the client, linking and unlinking identities, and every refusal.

const providerId = "test-idp";

/** A notice carries no link and no code (ADR 0015). */
function expectNoticeOnly(mail: CapturedMail) {
  expect(mail.text).not.toMatch(/https?:\/\//);
  expect(mail.html).not.toMatch(/<a\s|https?:\/\//);
  expect(mail.text).not.toMatch(/\b\d{6}\b/);
}

describe.each(testEngines())("OpenID Connect sign-in on %s", (engine) => {
  let server: AuthTestServer;
  let idp: TestOidcProvider;
  let callbackUrl: string;

  beforeAll(async () => {
    idp = await startOidcProvider();
    server = await startAuthServer(engine, {
      env: {
        AUTH_OIDC_PROVIDERS: JSON.stringify([idp.setting(providerId, "Test Provider")]),
        AUTH_REDIRECT_URLS: "https://app.example.org/**",
      },
    });
    callbackUrl = `${server.authUrl}/callback`;
    idp.register(callbackUrl);
  });
  afterAll(async () => {
    await server?.close();
    await idp?.close();
  });

  /** A person at the provider with an invited, verified address. */
  async function invitedPerson(label: string, options: { verified?: boolean; invited?: boolean } = {}) {
    const email = uniqueEmail(label);
    const login = `${label}-${email.slice(label.length + 1, label.length + 9)}`;
    idp.addPerson(login, { email, email_verified: options.verified ?? true, name: `${label} at the provider` });
    if (options.invited ?? true) await server.invite(email);
    return { email, login };
  }

  async function oauthUrl(flowType: "implicit" | "pkce", redirectTo = `${server.origin}/`) {
    const client = server.client(flowType);
    const { data, error } = await client.auth.signInWithOAuth({
      provider: providerId as "keycloak",
      options: { redirectTo, skipBrowserRedirect: true },
    });
    expect(error).toBeNull();
    return { client, url: data.url! };
  }

  /** The member's audit entries whose action starts with `prefix`, oldest first. */
  async function auditOf(userId: string, prefix: string) {
    const rows = await server.db
      .selectFrom("audit_log")
      .select(["action", "actor_email", "detail"])
      .where("actor_id", "=", userId)
      .where("action", "like", `${prefix}%`)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    return rows.map((row) => ({ ...row, detail: JSON.parse(row.detail ?? "null") as unknown }));
  }

  /** The subjects of the connected/disconnected notices sent to `email`. */
  const noticesTo = (email: string) =>
    server.smtp.messages
      .filter((mail) => mail.to.includes(email) && /was (dis)?connected/.test(mail.subject))
      .map((mail) => mail.subject);

  const usersWithEmail = (email: string) => server.db.selectFrom("users").select("id").where("email", "=", email).execute();

  describe("GET /authorize → the provider → GET /callback", () => {
    it("signs an invited, verified address in with a session in the fragment (implicit), creating the member", async () => {
      const { email, login } = await invitedPerson("ann");
      const { client, url } = await oauthUrl("implicit");
      expect(url.startsWith(`${server.authUrl}/authorize?provider=${providerId}`)).toBe(true);

      const journey = await journeyThroughProvider(url, login, callbackUrl);
      expect(journey.status).toBe(302);
      const landed = new URL(journey.location);
      expect(`${landed.origin}${landed.pathname}`).toBe(`${server.origin}/`);
      const fragment = new URLSearchParams(landed.hash.slice(1));
      expect(fragment.get("token_type")).toBe("bearer");
      expect(Number(fragment.get("expires_in"))).toBe(3600);

      const restored = await client.auth.setSession({
        access_token: fragment.get("access_token")!,
        refresh_token: fragment.get("refresh_token")!,
      });
      expect(restored.error).toBeNull();
      const user = restored.data.user!;
      expect(user).toMatchObject({ email, app_metadata: { provider: providerId, providers: [providerId] } });
      expect(user.email_confirmed_at).toBeDefined();
      expect(user.identities).toEqual([
        expect.objectContaining({
          provider: providerId,
          id: login,
          user_id: user.id,
          email,
          identity_data: expect.objectContaining({
            sub: login,
            email,
            email_verified: true,
            name: "ann at the provider",
          }) as unknown,
        }),
      ]);
      const claims = await client.auth.getClaims();
      expect(claims.data?.claims.amr).toEqual([expect.objectContaining({ method: "oauth" })]);
      const invitation = await server.db.selectFrom("invitations").selectAll().where("email", "=", email).executeTakeFirst();
      expect(invitation?.used_by).toBe(user.id);
    });

    it("gives a PKCE client ?code= that exchangeCodeForSession trades for the session", async () => {
      const { email, login } = await invitedPerson("pia");
      const { client, url } = await oauthUrl("pkce", "https://app.example.org/after");
      expect(new URL(url).searchParams.get("code_challenge_method")).toBe("s256");
      const journey = await journeyThroughProvider(url, login, callbackUrl);
      const landed = new URL(journey.location);
      expect(`${landed.origin}${landed.pathname}`).toBe("https://app.example.org/after");
      expect(landed.hash).toBe("");
      const code = landed.searchParams.get("code")!;
      const { data, error } = await client.auth.exchangeCodeForSession(code);
      expect(error).toBeNull();
      expect(data.user?.email).toBe(email);
      // The code works once.
      const again = await server.client("pkce").auth.exchangeCodeForSession(code);
      expect(again.error).not.toBeNull();
    });

    it("signs a member with a password in by the invited address, linking the provider to them", async () => {
      const member = await confirmedMember(server, uniqueEmail("mia"));
      const login = `mia-${member.userId.slice(0, 8)}`;
      idp.addPerson(login, { email: member.email, email_verified: true });
      const { client, url } = await oauthUrl("implicit");
      const journey = await journeyThroughProvider(url, login, callbackUrl);
      const fragment = new URLSearchParams(new URL(journey.location).hash.slice(1));
      const { data } = await client.auth.setSession({
        access_token: fragment.get("access_token")!,
        refresh_token: fragment.get("refresh_token")!,
      });
      expect(data.user?.id).toBe(member.userId);
      expect(data.user?.identities?.map((identity) => identity.provider)).toEqual(["email", providerId]);
      expect(data.user?.app_metadata.providers).toEqual(["email", providerId]);
    });

    it("refuses an address that is not invited, creating nothing", async () => {
      const { email, login } = await invitedPerson("ula", { invited: false });
      const { url } = await oauthUrl("implicit");
      const journey = await journeyThroughProvider(url, login, callbackUrl);
      expect(journey.status).toBe(302);
      const landed = new URL(journey.location);
      expect(`${landed.origin}${landed.pathname}`).toBe(`${server.origin}/`);
      expect(landed.searchParams.get("error_code")).toBe("email_not_invited");
      const fragment = new URLSearchParams(landed.hash.slice(1));
      expect(fragment.get("error")).toBe("access_denied");
      expect(fragment.get("error_code")).toBe("email_not_invited");
      expect(fragment.get("error_description")).toMatch(/not invited/);
      expect(fragment.get("access_token")).toBeNull();
      expect(await usersWithEmail(email)).toEqual([]);
    });

    it("refuses an address the provider has not verified, even an invited one, creating nothing", async () => {
      const { email, login } = await invitedPerson("uva", { verified: false });
      const { url } = await oauthUrl("implicit");
      const journey = await journeyThroughProvider(url, login, callbackUrl);
      const fragment = new URLSearchParams(new URL(journey.location).hash.slice(1));
      expect(fragment.get("error")).toBe("access_denied");
      expect(fragment.get("error_code")).toBe("provider_email_needs_verification");
      expect(await usersWithEmail(email)).toEqual([]);
    });

    it("passes the provider's own refusal on to the app", async () => {
      const { url } = await oauthUrl("implicit");
      const started = await fetch(url, { redirect: "manual" });
      const state = new URL(started.headers.get("location")!).searchParams.get("state")!;
      const cancelled = await fetch(`${callbackUrl}?state=${state}&error=access_denied&error_description=The+user+cancelled`, {
        redirect: "manual",
      });
      const fragment = new URLSearchParams(new URL(cancelled.headers.get("location")!).hash.slice(1));
      expect(fragment.get("error")).toBe("access_denied");
      expect(fragment.get("error_description")).toBe("The user cancelled");
    });

    it("refuses an unknown provider, and sends a redirect_to off the allow-list to the site", async () => {
      const unknown = await fetch(`${server.authUrl}/authorize?provider=nowhere`, {
        redirect: "manual",
        headers: { "x-supabase-api-version": "2024-01-01" },
      });
      expect(unknown.status).toBe(400);
      expect(await unknown.json()).toMatchObject({ code: "provider_disabled" });

      const { login } = await invitedPerson("ned");
      const { url } = await oauthUrl("implicit", "https://evil.example.net/steal");
      const journey = await journeyThroughProvider(url, login, callbackUrl);
      expect(new URL(journey.location).origin).toBe(server.origin);
    });

    it("lists the providers in GET /settings", async () => {
      const response = await fetch(`${server.authUrl}/settings`);
      expect(await response.json()).toMatchObject({
        external: { email: true, [providerId]: true },
        external_providers: [{ id: providerId, name: "Test Provider" }],
      });
    });
  });

  describe("POST /token?grant_type=id_token", () => {
    const nonce = "a-nonce-the-app-chose";
    const hashed = createHash("sha256").update(nonce).digest("hex");

    it("signs in with an ID token signed by the provider, with its nonce, once", async () => {
      const { email, login } = await invitedPerson("ida");
      const token = await idp.idToken(login, { nonce: hashed });
      const { auth } = server.client();
      const { data, error } = await auth.signInWithIdToken({ provider: providerId, token, nonce });
      expect(error).toBeNull();
      expect(data.user).toMatchObject({ email, identities: [expect.objectContaining({ provider: providerId, id: login })] });

      const replay = await server.client().auth.signInWithIdToken({ provider: providerId, token, nonce });
      expect(replay.error).toMatchObject({ code: "bad_id_token", status: 400 });
    });

    it("refuses a wrong audience, a wrong issuer, an expired token and a bad signature", async () => {
      const { login } = await invitedPerson("ivy");
      const { privateKey: strangerKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
      const cases: [string, Promise<string>, RegExp][] = [
        ["audience", idp.idToken(login, { aud: "another-client" }), /audience/],
        ["issuer", idp.idToken(login, { iss: "https://accounts.example.com" }), /not issued by this provider/],
        ["expiry", idp.idToken(login, {}, { expiresIn: "-5m" }), /expired/],
        ["signature", idp.idToken(login, {}, { key: strangerKey as never }), /not signed by this provider/],
      ];
      for (const [, tokenPromise, message] of cases) {
        const { error } = await server.client().auth.signInWithIdToken({ provider: providerId, token: await tokenPromise });
        expect(error).toMatchObject({ code: "bad_id_token", status: 400 });
        expect(error?.message).toMatch(message);
      }
      const garbage = await server.client().auth.signInWithIdToken({ provider: providerId, token: "not.a.jwt" });
      expect(garbage.error).toMatchObject({ code: "bad_id_token" });
    });

    it("refuses a stale or wrong nonce, and a nonce on one side only", async () => {
      const { login } = await invitedPerson("noa");
      const wrong = await server
        .client()
        .auth.signInWithIdToken({ provider: providerId, token: await idp.idToken(login, { nonce: hashed }), nonce: "another" });
      expect(wrong.error).toMatchObject({ code: "bad_id_token", message: "Nonces mismatch" });
      const raw = await server
        .client()
        .auth.signInWithIdToken({ provider: providerId, token: await idp.idToken(login, { nonce }), nonce });
      expect(raw.error).toMatchObject({ code: "bad_id_token", message: "Nonces mismatch" });
      const tokenOnly = await server
        .client()
        .auth.signInWithIdToken({ provider: providerId, token: await idp.idToken(login, { nonce: hashed }) });
      expect(tokenOnly.error?.message).toMatch(/should either both exist or not/);
      const requestOnly = await server
        .client()
        .auth.signInWithIdToken({ provider: providerId, token: await idp.idToken(login), nonce });
      expect(requestOnly.error?.message).toMatch(/should either both exist or not/);
    });

    it("refuses uninvited and unverified addresses and unknown providers, creating nothing", async () => {
      const uninvited = await invitedPerson("uma", { invited: false });
      const outsider = await server
        .client()
        .auth.signInWithIdToken({ provider: providerId, token: await idp.idToken(uninvited.login) });
      expect(outsider.error).toMatchObject({ code: "email_not_invited", status: 403 });
      expect(await usersWithEmail(uninvited.email)).toEqual([]);

      const unverified = await invitedPerson("una", { verified: false });
      const unproven = await server
        .client()
        .auth.signInWithIdToken({ provider: providerId, token: await idp.idToken(unverified.login) });
      expect(unproven.error).toMatchObject({ code: "provider_email_needs_verification", status: 422 });
      expect(await usersWithEmail(unverified.email)).toEqual([]);

      const unknown = await server
        .client()
        .auth.signInWithIdToken({ provider: "google", token: await idp.idToken(uninvited.login) });
      expect(unknown.error).toMatchObject({ code: "provider_disabled", status: 400 });
    });

    it("refuses a linked member whose invitation was revoked", async () => {
      const { email, login } = await invitedPerson("rae");
      expect(
        (await server.client().auth.signInWithIdToken({ provider: providerId, token: await idp.idToken(login) })).error,
      ).toBeNull();
      await server.invitations.revoke(email, "test");
      const { error } = await server.client().auth.signInWithIdToken({ provider: providerId, token: await idp.idToken(login) });
      expect(error).toMatchObject({ code: "email_not_invited" });
    });
  });

  describe("linking and unlinking identities", () => {
    it("links a provider account to the signed-in member; it then signs in as them, whatever its address", async () => {
      const member = await confirmedMember(server, uniqueEmail("lou"));
      const { auth } = await signedInClient(server, member.email);
      const other = await invitedPerson("lou-elsewhere", { invited: false });

      const { data, error } = await auth.linkIdentity({
        provider: providerId as "keycloak",
        options: { skipBrowserRedirect: true },
      });
      expect(error).toBeNull();
      expect(data.url).toMatch(new RegExp(`^${idp.issuer}/`));
      const journey = await journeyThroughProvider(data.url!, other.login, callbackUrl);
      expect(new URLSearchParams(new URL(journey.location).hash.slice(1)).get("access_token")).toBeTruthy();

      const identities = await auth.getUserIdentities();
      expect(
        identities.data?.identities.map((identity): unknown[] => [identity.provider, identity.identity_data?.email]),
      ).toEqual([
        ["email", member.email],
        [providerId, other.email],
      ]);
      // The provider account's own address is not invited, but it is this member's identity now.
      const signIn = await server
        .client()
        .auth.signInWithIdToken({ provider: providerId, token: await idp.idToken(other.login) });
      expect(signIn.error).toBeNull();
      expect(signIn.data.user?.id).toBe(member.userId);

      // Linked already: to this member, or to anyone else.
      const again = await auth.linkIdentity({ provider: providerId as "keycloak", options: { skipBrowserRedirect: true } });
      const repeat = await journeyThroughProvider(again.data.url!, other.login, callbackUrl);
      expect(new URL(repeat.location).searchParams.get("error_code")).toBe("identity_already_exists");
      const stranger = await confirmedMember(server, uniqueEmail("sam"));
      const strangerAuth = (await signedInClient(server, stranger.email)).auth;
      const theirs = await strangerAuth.linkIdentity({
        provider: providerId as "keycloak",
        options: { skipBrowserRedirect: true },
      });
      const taken = await journeyThroughProvider(theirs.data.url!, other.login, callbackUrl);
      expect(new URL(taken.location).searchParams.get("error_description")).toBe("Identity is already linked to another user");

      // Unlinking: the provider's identity goes; the e-mail identity, the membership itself, stays.
      const linked = identities.data!.identities.find((identity) => identity.provider === providerId)!;
      const emailIdentity = identities.data!.identities.find((identity) => identity.provider === "email")!;
      expect((await auth.unlinkIdentity(emailIdentity)).error).toMatchObject({ code: "email_identity_not_deletable" });
      expect((await strangerAuth.unlinkIdentity(linked)).error).toMatchObject({ code: "identity_not_found", status: 422 });
      expect((await auth.unlinkIdentity(linked)).error).toBeNull();
      expect((await auth.getUserIdentities()).data?.identities.map((identity) => identity.provider)).toEqual(["email"]);
      const afterUnlink = await server
        .client()
        .auth.signInWithIdToken({ provider: providerId, token: await idp.idToken(other.login) });
      expect(afterUnlink.error).toMatchObject({ code: "email_not_invited" });
    });

    it("links with an ID token (link_identity) for the signed-in member", async () => {
      const member = await confirmedMember(server, uniqueEmail("kim"));
      const { auth } = await signedInClient(server, member.email);
      const other = await invitedPerson("kim-elsewhere", { invited: false });
      const { data, error } = await auth.linkIdentity({ provider: providerId, token: await idp.idToken(other.login) });
      expect(error).toBeNull();
      expect(data.user?.identities?.map((identity) => identity.provider)).toEqual(["email", providerId]);
    });

    it("refuses linking and unlinking when signed out", async () => {
      const linking = await fetch(`${server.authUrl}/user/identities/authorize?provider=${providerId}&skip_http_redirect=true`, {
        headers: { "x-supabase-api-version": "2024-01-01" },
      });
      expect(linking.status).toBe(401);
      expect(await linking.json()).toMatchObject({ code: "no_authorization" });
      const unlinking = await fetch(`${server.authUrl}/user/identities/6d4c1f0e-0000-4000-8000-000000000000`, {
        method: "DELETE",
        headers: { "x-supabase-api-version": "2024-01-01" },
      });
      expect(unlinking.status).toBe(401);
      const idTokenLink = await fetch(`${server.authUrl}/token?grant_type=id_token`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-supabase-api-version": "2024-01-01" },
        body: JSON.stringify({ provider: providerId, id_token: "x.y.z", link_identity: true }),
      });
      expect(idTokenLink.status).toBe(401);
    });

    it("tells the member of each link and unlink by e-mail, and records both in the audit log", async () => {
      const member = await confirmedMember(server, uniqueEmail("nia"));
      const { auth } = await signedInClient(server, member.email);
      const other = await invitedPerson("nia-elsewhere", { invited: false });
      const link = async () => {
        const { data } = await auth.linkIdentity({ provider: providerId as "keycloak", options: { skipBrowserRedirect: true } });
        return journeyThroughProvider(data.url!, other.login, callbackUrl);
      };
      await link();

      const connected = await server.smtp.waitForMail(member.email, { subject: /was connected/ });
      expect(connected.subject).toBe("Test Provider was connected to your Memory Box account");
      expect(connected.text).toContain(
        `The Test Provider account ${other.email} was connected to the Memory Box account for ${member.email} on `,
      );
      expectNoticeOnly(connected);
      const identity = (await auth.getUserIdentities()).data!.identities.find((each) => each.provider === providerId)!;
      expect(await auditOf(member.userId, "identity.")).toEqual([
        {
          action: "identity.linked",
          actor_email: member.email,
          detail: { provider: providerId, identity_id: identity.identity_id },
        },
      ]);

      // A refused second link tells nobody and records nothing: the next mail is the unlink's.
      expect(new URL((await link()).location).searchParams.get("error_code")).toBe("identity_already_exists");
      expect((await auth.unlinkIdentity(identity)).error).toBeNull();
      const disconnected = await server.smtp.waitForMail(member.email, { subject: /was disconnected/ });
      expect(disconnected.subject).toBe("Test Provider was disconnected from your Memory Box account");
      expect(disconnected.text).toContain(
        `The Test Provider account ${other.email} was disconnected from the Memory Box account for ${member.email} on `,
      );
      expectNoticeOnly(disconnected);
      expect(noticesTo(member.email)).toEqual([connected.subject, disconnected.subject]);
      expect(await auditOf(member.userId, "identity.")).toEqual([
        {
          action: "identity.linked",
          actor_email: member.email,
          detail: { provider: providerId, identity_id: identity.identity_id },
        },
        {
          action: "identity.unlinked",
          actor_email: member.email,
          detail: { provider: providerId, identity_id: identity.identity_id },
        },
      ]);
    });

    it("tells a member whose invited address a provider signed in with that it is now connected, and records it", async () => {
      const member = await confirmedMember(server, uniqueEmail("ivo"));
      const login = `ivo-${member.userId.slice(0, 8)}`;
      idp.addPerson(login, { email: member.email, email_verified: true });
      const signIn = await server.client().auth.signInWithIdToken({ provider: providerId, token: await idp.idToken(login) });
      expect(signIn.data.user?.id).toBe(member.userId);

      const notice = await server.smtp.waitForMail(member.email, { subject: /was connected/ });
      expect(notice.text).toContain(`The Test Provider account ${member.email} was connected to the Memory Box account for `);
      expectNoticeOnly(notice);
      const identity = signIn.data.user!.identities!.find((each) => each.provider === providerId)!;
      expect(await auditOf(member.userId, "identity.")).toEqual([
        {
          action: "identity.linked",
          actor_email: member.email,
          detail: { provider: providerId, identity_id: identity.identity_id, by: "verified_email" },
        },
      ]);

      // Its next sign-in is the identity's, linked already: no second notice, no second entry.
      const signIns = (await auditOf(member.userId, "user.signed_in")).length;
      const again = await server.client().auth.signInWithIdToken({ provider: providerId, token: await idp.idToken(login) });
      expect(again.error).toBeNull();
      expect(await auditOf(member.userId, "user.signed_in")).toHaveLength(signIns + 1);
      expect(await auditOf(member.userId, "identity.")).toHaveLength(1);
      // A notice would have been sent by now: the next mail to this address is the recovery mail.
      await server.client().auth.resetPasswordForEmail(member.email);
      await server.smtp.waitForMail(member.email, { subject: /Reset/ });
      expect(noticesTo(member.email)).toEqual([notice.subject]);
    });

    it("never unlinks the last way in: a member without a password and only that identity is refused", async () => {
      const { login } = await invitedPerson("ola");
      const { auth } = server.client();
      const { data } = await auth.signInWithIdToken({ provider: providerId, token: await idp.idToken(login) });
      expect(data.user?.identities).toHaveLength(1);
      const { error } = await auth.unlinkIdentity(data.user!.identities![0]!);
      expect(error).toMatchObject({ code: "single_identity_not_deletable", status: 422 });
      const response = await getUser(server, data.session!.access_token);
      expect(response.json<{ identities: unknown[] }>().identities).toHaveLength(1);
    });
  });
});
