import type { GoTrueClient } from "@supabase/auth-js";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  anyString,
  type AuthTestServer,
  confirmedMember,
  getUser,
  signedInClient,
  startAuthServer,
} from "../../../../test/auth-fixtures";
import { serviceRoleToken } from "../../../../test/service-token";
import { SoftwareAuthenticator } from "../../../../test/software-authenticator";
import { testEngines } from "../../../../test/test-database";

// Passkeys and security keys (ADR 0025) through the official client: register a passkey, sign in
// with it, manage it; a security key as a second factor; and every way in that must stay shut.
// A software authenticator signs as a real one would, so the server's WebAuthn checks run for real.

const appOrigin = "http://localhost:5173";
const env = { AUTH_WEBAUTHN_RP_ID: "localhost", AUTH_WEBAUTHN_ORIGINS: appOrigin };
/** Error bodies in the shape auth-js asks for: `{ code, message }`. */
const apiVersion = { "x-supabase-api-version": "2024-01-01" };

/** Registers a passkey for the client's member with `authenticator`; returns its id. */
async function registerPasskey(auth: GoTrueClient, authenticator: SoftwareAuthenticator): Promise<string> {
  const started = await auth.passkey.startRegistration();
  expect(started.error).toBeNull();
  const verified = await auth.passkey.verifyRegistration({
    challengeId: started.data!.challenge_id,
    credential: authenticator.create(started.data!.options) as never,
  });
  expect(verified.error).toBeNull();
  return verified.data!.id;
}

/** Signs in with whichever passkey `authenticator` holds for the site, through a new client. */
async function signInWithPasskey(server: AuthTestServer, authenticator: SoftwareAuthenticator) {
  const { auth } = server.client();
  const started = await auth.passkey.startAuthentication();
  expect(started.error).toBeNull();
  const result = await auth.passkey.verifyAuthentication({
    challengeId: started.data!.challenge_id,
    credential: authenticator.get(started.data!.options) as never,
  });
  return { auth, ...result };
}

function claimsOf(accessToken: string): { aal: string; amr: { method: string }[]; sub: string } {
  return JSON.parse(Buffer.from(accessToken.split(".")[1]!, "base64url").toString()) as never;
}

describe.each(testEngines())("passkeys on %s", (engine) => {
  let server: AuthTestServer;

  beforeAll(async () => {
    server = await startAuthServer(engine, { env });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("refuses every passkey route that needs a session without one, with 401", async () => {
    for (const [method, url] of [
      ["POST", "/auth/v1/passkeys/registration/options"],
      ["POST", "/auth/v1/passkeys/registration/verify"],
      ["GET", "/auth/v1/passkeys"],
      ["PATCH", "/auth/v1/passkeys/6f1b2c3d-0000-4000-8000-000000000000"],
      ["DELETE", "/auth/v1/passkeys/6f1b2c3d-0000-4000-8000-000000000000"],
    ] as const) {
      const response = await server.app.inject({
        method,
        url,
        headers: apiVersion,
        payload: method === "GET" || method === "DELETE" ? undefined : { challenge_id: "x", credential: {}, friendly_name: "x" },
      });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(response.json()).toMatchObject({ code: "no_authorization" });
    }
  });

  it("registers a passkey, tells the member, and signs in with it without an address or password", async () => {
    const { email, userId } = await confirmedMember(server);
    const { auth } = await signedInClient(server, email);
    const authenticator = new SoftwareAuthenticator(appOrigin);

    const started = await auth.passkey.startRegistration();
    expect(started.data!.options).toMatchObject({
      rp: { id: "localhost", name: "Memory Box" },
      user: { name: email },
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
    });
    const passkeyId = await registerPasskey(auth, authenticator);
    await server.smtp.waitForMail(email, { subject: /A passkey was added/ });

    const signIn = await signInWithPasskey(server, authenticator);
    expect(signIn.error).toBeNull();
    expect(signIn.data!.user!.id).toBe(userId);
    const claims = claimsOf(signIn.data!.session!.access_token);
    expect(claims).toMatchObject({ sub: userId, aal: "aal1" });
    expect(claims.amr[0]).toMatchObject({ method: "passkey" });
    expect((await getUser(server, signIn.data!.session!.access_token)).statusCode).toBe(200);

    const listed = await auth.passkey.list();
    expect(listed.data).toEqual([expect.objectContaining({ id: passkeyId, friendly_name: anyString, last_used_at: anyString })]);
    expect(JSON.stringify(listed.data)).not.toMatch(/public_key|credential_id|sign_count/);
  });

  it("answers a challenge once, and refuses an expired one, another site's answer and an unknown authenticator", async () => {
    const { email } = await confirmedMember(server);
    const { auth } = await signedInClient(server, email);
    const authenticator = new SoftwareAuthenticator(appOrigin);
    await registerPasskey(auth, authenticator);

    // Replayed: the same assertion sent again for the same challenge.
    const { auth: browser } = server.client();
    const started = await browser.passkey.startAuthentication();
    const assertion = authenticator.get(started.data!.options) as never;
    const first = await browser.passkey.verifyAuthentication({ challengeId: started.data!.challenge_id, credential: assertion });
    expect(first.error).toBeNull();
    const replay = await browser.passkey.verifyAuthentication({ challengeId: started.data!.challenge_id, credential: assertion });
    expect(replay.error).toMatchObject({ code: "webauthn_challenge_not_found" });

    // Expired: answered after the five minutes.
    const late = await browser.passkey.startAuthentication();
    server.clock.advance(301);
    const expired = await browser.passkey.verifyAuthentication({
      challengeId: late.data!.challenge_id,
      credential: authenticator.get(late.data!.options) as never,
    });
    expect(expired.error).toMatchObject({ code: "webauthn_challenge_expired" });

    // Phished: the member's own authenticator, but on a page of another site.
    const phished = await signInWithPasskey(server, authenticator.onPage("https://memory-box.example.net"));
    expect(phished.error).toMatchObject({ code: "webauthn_verification_failed" });

    // An authenticator never registered, claiming the member's user handle.
    const stranger = new SoftwareAuthenticator(appOrigin);
    stranger.create((await auth.passkey.startRegistration()).data!.options);
    const unknown = await signInWithPasskey(server, stranger);
    expect(unknown.error).toMatchObject({ code: "webauthn_verification_failed" });
    expect(unknown.data).toBeNull();

    // A registration answered with a challenge of someone else's ceremony.
    const other = await signedInClient(server, (await confirmedMember(server)).email);
    const theirs = await other.auth.passkey.startRegistration();
    const mixed = await auth.passkey.verifyRegistration({
      challengeId: theirs.data!.challenge_id,
      credential: new SoftwareAuthenticator(appOrigin).create(theirs.data!.options) as never,
    });
    expect(mixed.error).toMatchObject({ code: "webauthn_challenge_not_found" });
  });

  it("signs in no member whose invitation was revoked", async () => {
    const { email } = await confirmedMember(server);
    const { auth } = await signedInClient(server, email);
    const authenticator = new SoftwareAuthenticator(appOrigin);
    await registerPasskey(auth, authenticator);
    await server.invitations.revoke(email, "test");

    const signIn = await signInWithPasskey(server, authenticator);
    expect(signIn.error).toMatchObject({ code: "email_not_invited" });
    expect(signIn.data).toBeNull();
  });

  it("renames and removes only the member's own passkeys; a removed one signs in no more", async () => {
    const { email } = await confirmedMember(server);
    const { auth } = await signedInClient(server, email);
    const authenticator = new SoftwareAuthenticator(appOrigin);
    const passkeyId = await registerPasskey(auth, authenticator);
    const intruder = await signedInClient(server, (await confirmedMember(server)).email);

    expect((await intruder.auth.passkey.update({ passkeyId, friendlyName: "mine" })).error).toMatchObject({ status: 404 });
    expect((await intruder.auth.passkey.delete({ passkeyId })).error).toMatchObject({ status: 404 });
    expect((await auth.passkey.update({ passkeyId, friendlyName: "  " })).error).toMatchObject({ code: "validation_failed" });

    const renamed = await auth.passkey.update({ passkeyId, friendlyName: "Anna's phone" });
    expect(renamed.data).toMatchObject({ id: passkeyId, friendly_name: "Anna's phone" });
    expect((await auth.passkey.delete({ passkeyId })).error).toBeNull();
    await server.smtp.waitForMail(email, { subject: /A passkey was removed/ });
    expect((await auth.passkey.list()).data).toEqual([]);
    expect((await signInWithPasskey(server, authenticator)).error).toMatchObject({ code: "webauthn_verification_failed" });
  });

  it("refuses a rename with a name too long, of the wrong type or for an unknown passkey, and keeps the name", async () => {
    const { email } = await confirmedMember(server);
    const { auth, session } = await signedInClient(server, email);
    const passkeyId = await registerPasskey(auth, new SoftwareAuthenticator(appOrigin));
    const [made] = (await auth.passkey.list()).data!;
    const rename = (id: string, payload: unknown) =>
      server.app.inject({
        method: "PATCH",
        url: `/auth/v1/passkeys/${id}`,
        headers: { ...apiVersion, authorization: `Bearer ${session.access_token}` },
        payload: payload as Record<string, unknown>,
      });

    expect((await rename(passkeyId, { friendly_name: "x".repeat(121) })).json()).toMatchObject({ code: "validation_failed" });
    expect((await rename(passkeyId, { friendly_name: "x".repeat(5000) })).statusCode).toBe(400);
    expect((await rename(passkeyId, { friendly_name: 42 })).statusCode).toBe(400);
    expect((await rename(passkeyId, {})).statusCode).toBe(400);
    expect((await rename("6f1b2c3d-0000-4000-8000-000000000000", { friendly_name: "Mine" })).statusCode).toBe(404);
    expect((await rename("not-an-id", { friendly_name: "Mine" })).statusCode).toBe(404);
    expect((await auth.passkey.list()).data).toEqual([
      expect.objectContaining({ id: passkeyId, friendly_name: made!.friendly_name }),
    ]);

    const kept = await rename(passkeyId, { friendly_name: `  ${"é".repeat(120)}  ` });
    expect(kept.json()).toMatchObject({ friendly_name: "é".repeat(120) });
  });

  it("lets no stolen password add a passkey to an account with a second factor; a proven one signs in at aal2", async () => {
    const { email } = await confirmedMember(server);
    const { auth } = await signedInClient(server, email);
    const enrolled = await auth.mfa.enroll({ factorType: "totp", friendlyName: "Phone" });
    const { id: factorId, totp } = enrolled.data as { id: string; totp: { secret: string } };
    const code = new TOTP({ secret: Secret.fromBase32(totp.secret) }).generate({ timestamp: server.clock.now().getTime() });
    expect((await auth.mfa.challengeAndVerify({ factorId, code })).error).toBeNull();

    const thief = await signedInClient(server, email);
    const refused = await thief.auth.passkey.startRegistration();
    expect(refused.error).toMatchObject({ code: "insufficient_aal" });

    const authenticator = new SoftwareAuthenticator(appOrigin);
    await registerPasskey(auth, authenticator);
    const signIn = await signInWithPasskey(server, authenticator);
    expect(claimsOf(signIn.data!.session!.access_token).aal).toBe("aal2");
    const memories = await server.app.inject({
      method: "GET",
      url: "/api/v1/memories",
      headers: { authorization: `Bearer ${signIn.data!.session!.access_token}` },
    });
    expect(memories.statusCode).toBe(200);
    // Removing a passkey, like adding one, needs the second factor proven — and proven lately.
    const [passkey] = (await auth.passkey.list()).data!;
    expect((await thief.auth.passkey.delete({ passkeyId: passkey!.id })).error).toMatchObject({ code: "insufficient_aal" });
    server.clock.advance(11 * 60);
    const stale = await auth.passkey.delete({ passkeyId: passkey!.id });
    expect(stale.error).toMatchObject({ code: "insufficient_aal", message: expect.stringMatching(/again/) as unknown });
    const fresh = new TOTP({ secret: Secret.fromBase32(totp.secret) }).generate({ timestamp: server.clock.now().getTime() });
    expect((await auth.mfa.challengeAndVerify({ factorId, code: fresh })).error).toBeNull();
    expect((await auth.passkey.delete({ passkeyId: passkey!.id })).error).toBeNull();
  });

  it("shows and removes a member's passkeys to the operator only", async () => {
    const { email, userId } = await confirmedMember(server);
    const { auth } = await signedInClient(server, email);
    const passkeyId = await registerPasskey(auth, new SoftwareAuthenticator(appOrigin));
    const headers = { authorization: `Bearer ${await serviceRoleToken(server.testApp)}` };
    const url = `/auth/v1/admin/users/${userId}/passkeys`;

    const member = { authorization: `Bearer ${(await signedInClient(server, email)).session.access_token}` };
    expect((await server.app.inject({ method: "GET", url, headers: member })).statusCode).toBe(403);
    expect((await server.app.inject({ method: "GET", url })).statusCode).toBe(401);

    const listed = await server.app.inject({ method: "GET", url, headers });
    expect(listed.json()).toEqual([expect.objectContaining({ id: passkeyId })]);
    expect((await server.app.inject({ method: "DELETE", url: `${url}/${passkeyId}`, headers })).statusCode).toBe(204);
    expect((await server.app.inject({ method: "DELETE", url: `${url}/${passkeyId}`, headers })).statusCode).toBe(404);
    expect((await server.app.inject({ method: "GET", url, headers })).json()).toEqual([]);
  });
});

describe.each(testEngines())("security keys as second factors on %s", (engine) => {
  let server: AuthTestServer;

  beforeAll(async () => {
    server = await startAuthServer(engine, { env });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Challenges the factor and answers with `answer` (the key's registration or assertion). */
  async function challengeAndAnswer(
    auth: GoTrueClient,
    factorId: string,
    key: SoftwareAuthenticator,
    type: "create" | "request",
  ) {
    const { data: session } = await auth.getSession();
    const headers = { authorization: `Bearer ${session.session!.access_token}` };
    const challenge = await server.app.inject({
      method: "POST",
      url: `/auth/v1/factors/${factorId}/challenge`,
      headers,
      payload: { webauthn: { rpId: "localhost", rpOrigins: [appOrigin] } },
    });
    expect(challenge.statusCode).toBe(200);
    const { id, webauthn } = challenge.json<{
      id: string;
      webauthn: { type: string; credential_options: { publicKey: never } };
    }>();
    expect(webauthn.type).toBe(type);
    const options = webauthn.credential_options.publicKey;
    const credential = type === "create" ? key.create(options) : key.get(options);
    return server.app.inject({
      method: "POST",
      url: `/auth/v1/factors/${factorId}/verify`,
      headers,
      payload: {
        challenge_id: id,
        webauthn: { type, rpId: "localhost", rpOrigins: [appOrigin], credential_response: credential },
      },
    });
  }

  it("registers a security key by its first challenge, then asks for it at the next sign-in", async () => {
    const { email } = await confirmedMember(server);
    const { auth } = await signedInClient(server, email);
    const key = new SoftwareAuthenticator(appOrigin, false);

    const enrolled = await auth.mfa.webauthn.enroll({ friendlyName: "Blue key" });
    expect(enrolled.data).toMatchObject({ type: "webauthn", friendly_name: "Blue key" });
    const factorId = enrolled.data!.id;
    const registered = await challengeAndAnswer(auth, factorId, key, "create");
    expect(registered.statusCode).toBe(200);
    expect(claimsOf(registered.json<{ access_token: string }>().access_token).aal).toBe("aal2");
    await server.smtp.waitForMail(email, { subject: /Two-step verification was turned on/ });

    const later = await signedInClient(server, email);
    expect((await later.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
      currentLevel: "aal1",
      nextLevel: "aal2",
    });
    const proven = await challengeAndAnswer(later.auth, factorId, key, "request");
    expect(proven.statusCode).toBe(200);
    const claims = claimsOf(proven.json<{ access_token: string }>().access_token);
    expect(claims.aal).toBe("aal2");
    expect(claims.amr[0]).toMatchObject({ method: "webauthn" });

    // Another key, never registered for this factor, proves nothing.
    const other = await signedInClient(server, email);
    const stranger = new SoftwareAuthenticator(appOrigin, false);
    stranger.create({ challenge: "AAAA", rp: { id: "localhost" }, user: { id: "AAAA" } });
    const { data: otherSession } = await other.auth.getSession();
    const headers = { authorization: `Bearer ${otherSession.session!.access_token}`, ...apiVersion };
    const challenge = await server.app.inject({
      method: "POST",
      url: `/auth/v1/factors/${factorId}/challenge`,
      headers,
      payload: {},
    });
    const { id, webauthn } = challenge.json<{
      id: string;
      webauthn: { credential_options: { publicKey: { challenge: string } } };
    }>();
    const forged = await server.app.inject({
      method: "POST",
      url: `/auth/v1/factors/${factorId}/verify`,
      headers,
      payload: {
        challenge_id: id,
        webauthn: {
          type: "request",
          credential_response: stranger.get({ challenge: webauthn.credential_options.publicKey.challenge, rpId: "localhost" }),
        },
      },
    });
    expect(forged.statusCode).toBe(422);
    expect(forged.json()).toMatchObject({ code: "mfa_verification_failed" });

    const wrongSite = await server.app.inject({
      method: "POST",
      url: `/auth/v1/factors/${factorId}/challenge`,
      headers,
      payload: { webauthn: { rpId: "memory-box.example.net" } },
    });
    expect(wrongSite.statusCode).toBe(400);
  });
});
