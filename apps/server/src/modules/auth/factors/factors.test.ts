import type { GoTrueClient } from "@supabase/auth-js";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuthTestServer, confirmedMember, getUser, signedInClient, startAuthServer } from "../../../../test/auth-fixtures";
import { serviceRoleToken } from "../../../../test/service-token";
import { testEngines } from "../../../../test/test-database";

// TOTP second factors through the official client (protocol §7): enrol, challenge, verify to aal2,
// unenrol, and the operator's view. Codes are computed here from the enrolment's secret.

const codeFor = (secret: string, offsetSeconds = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offsetSeconds * 1000 });

/** Enrols a TOTP factor and verifies it with a right code: the client's session is then aal2. */
async function enrolVerified(auth: GoTrueClient, friendlyName: string): Promise<{ id: string; secret: string; code: string }> {
  const enrolled = await auth.mfa.enroll({ factorType: "totp", friendlyName });
  expect(enrolled.error).toBeNull();
  const { id, totp } = enrolled.data as { id: string; totp: { secret: string } };
  const code = codeFor(totp.secret);
  const verified = await auth.mfa.challengeAndVerify({ factorId: id, code });
  expect(verified.error).toBeNull();
  return { id, secret: totp.secret, code };
}

describe.each(testEngines())("TOTP factors on %s", (engine) => {
  let server: AuthTestServer;

  beforeAll(async () => {
    server = await startAuthServer(engine, { env: { AUTH_SITE_URL: "https://box.example" } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("answers every /factors route without a session with 401 and the auth error body", async () => {
    for (const [method, url] of [
      ["POST", "/auth/v1/factors"],
      ["POST", "/auth/v1/factors/6f1b2c3d-0000-4000-8000-000000000000/challenge"],
      ["POST", "/auth/v1/factors/6f1b2c3d-0000-4000-8000-000000000000/verify"],
      ["DELETE", "/auth/v1/factors/6f1b2c3d-0000-4000-8000-000000000000"],
    ] as const) {
      const response = await server.app.inject({
        method,
        url,
        headers: { "x-supabase-api-version": "2024-01-01" },
        payload: method === "POST" ? { factor_type: "totp", challenge_id: "x", code: "123456" } : undefined,
      });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(response.json()).toMatchObject({ code: "no_authorization" });
    }
  });

  it("enrols an authenticator app, verifies it to aal2, and ends the account's other aal1 sessions", async () => {
    const { email } = await confirmedMember(server);
    const { auth } = await signedInClient(server, email);
    const elsewhere = await signedInClient(server, email);

    const enrolled = await auth.mfa.enroll({ factorType: "totp", friendlyName: "Phone" });
    expect(enrolled.error).toBeNull();
    const factor = enrolled.data as {
      id: string;
      type: string;
      friendly_name: string;
      totp: { qr_code: string; secret: string; uri: string };
    };
    expect(factor).toMatchObject({ type: "totp", friendly_name: "Phone" });
    expect(factor.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg/);
    // Nothing in it ends or escapes the data URL it is used as.
    expect(factor.totp.qr_code).not.toMatch(/[#%]/);
    expect(factor.totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(factor.totp.uri).toBe(
      `otpauth://totp/box.example:${encodeURIComponent(email)}?issuer=box.example&secret=${factor.totp.secret}&algorithm=SHA1&digits=6&period=30`,
    );
    const unverified = (await auth.getUser()).data.user?.factors;
    expect(unverified).toEqual([expect.objectContaining({ id: factor.id, factor_type: "totp", status: "unverified" })]);
    expect((await auth.mfa.listFactors()).data?.totp).toEqual([]);

    const challenge = await auth.mfa.challenge({ factorId: factor.id });
    expect(challenge.error).toBeNull();
    expect(challenge.data?.expires_at).toBeGreaterThan(Date.now() / 1000 + 200);

    const wrong = await auth.mfa.verify({ factorId: factor.id, challengeId: challenge.data!.id, code: "000000" });
    expect(wrong.error).toMatchObject({ status: 422, code: "mfa_verification_failed", message: "Invalid TOTP code entered" });

    const right = await auth.mfa.verify({
      factorId: factor.id,
      challengeId: challenge.data!.id,
      code: codeFor(factor.totp.secret),
    });
    expect(right.error).toBeNull();
    const assurance = (await auth.mfa.getAuthenticatorAssuranceLevel()).data!;
    expect(assurance.currentLevel).toBe("aal2");
    expect(assurance.nextLevel).toBe("aal2");
    expect(assurance.currentAuthenticationMethods.map((entry) => (typeof entry === "string" ? entry : entry.method))).toEqual([
      "totp",
      "password",
    ]);
    expect((await auth.mfa.listFactors()).data?.totp).toEqual([expect.objectContaining({ id: factor.id, status: "verified" })]);

    // A challenge answers once.
    const replay = await auth.mfa.verify({
      factorId: factor.id,
      challengeId: challenge.data!.id,
      code: codeFor(factor.totp.secret),
    });
    expect(replay.error).toMatchObject({ code: "mfa_ip_address_mismatch" });

    // The device that never proved the factor is signed out; a refresh keeps aal2.
    const elsewhereNow = await getUser(server, elsewhere.session.access_token);
    expect(elsewhereNow.statusCode).toBe(403);
    expect(elsewhereNow.json()).toMatchObject({ code: "session_not_found" });
    const refreshed = await auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect((await auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe("aal2");
  });

  it("asks a new sign-in for the second factor: aal1 with aal2 next, refused enrolment and removal until verified", async () => {
    const { email } = await confirmedMember(server);
    const first = await signedInClient(server, email);
    const { id, secret, code } = await enrolVerified(first.auth, "Phone");

    const { auth } = await signedInClient(server, email);
    const assurance = (await auth.mfa.getAuthenticatorAssuranceLevel()).data!;
    expect(assurance).toMatchObject({ currentLevel: "aal1", nextLevel: "aal2" });
    expect((await auth.mfa.enroll({ factorType: "totp", friendlyName: "Tablet" })).error).toMatchObject({
      status: 403,
      code: "insufficient_aal",
    });
    expect((await auth.mfa.unenroll({ factorId: id })).error).toMatchObject({ status: 422, code: "insufficient_aal" });

    // A code counts once: the one that verified the factor opens nothing again.
    expect((await auth.mfa.challengeAndVerify({ factorId: id, code })).error).toMatchObject({
      status: 422,
      code: "mfa_verification_failed",
      message: "This code was already used; wait for the next one.",
    });
    // The next period's code already counts (one step of clock skew either way).
    expect((await auth.mfa.challengeAndVerify({ factorId: id, code: codeFor(secret, 30) })).error).toBeNull();
    expect((await auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe("aal2");

    const removed = await auth.mfa.unenroll({ factorId: id });
    expect(removed.error).toBeNull();
    expect(removed.data).toEqual({ id });
    expect((await auth.getUser()).data.user?.factors).toBeUndefined();
    await auth.refreshSession();
    expect((await auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: "aal1", nextLevel: "aal1" });
  });

  it("keeps memories, the live stream and photo access from a session that has not proven the second factor", async () => {
    const { email } = await confirmedMember(server);
    const first = await signedInClient(server, email);
    const { id, secret } = await enrolVerified(first.auth, "Phone");
    const api = async (auth: GoTrueClient, method: "GET" | "POST", url: string) => {
      const token = (await auth.getSession()).data.session!.access_token;
      return server.app.inject({ method, url, headers: { authorization: `Bearer ${token}` } });
    };
    const routes = [
      ["GET", "/api/v1/memories"],
      ["GET", "/api/v1/members"],
      ["GET", "/api/v1/events"],
      ["POST", "/api/v1/photo-access"],
    ] as const;

    const { auth } = await signedInClient(server, email);
    for (const [method, url] of routes) {
      const refused = await api(auth, method, url);
      expect(refused.statusCode, `${method} ${url}`).toBe(403);
      expect(refused.json()).toMatchObject({ code: "insufficient_aal" });
    }
    // The auth service still serves it, so the client can ask for the code.
    expect((await auth.getUser()).error).toBeNull();

    expect((await auth.mfa.challengeAndVerify({ factorId: id, code: codeFor(secret, 30) })).error).toBeNull();
    for (const [method, url] of routes.filter(([, url]) => url !== "/api/v1/events")) {
      expect((await api(auth, method, url)).statusCode, `${method} ${url}`).toBeLessThan(300);
    }
  });

  it("tells the member by e-mail, and lets an owner turn a member's two-step verification off from Members", async () => {
    const owner = await confirmedMember(server);
    await server.invitations.setRole(owner.email, "owner", "test");
    const ownerClient = await signedInClient(server, owner.email);
    const member = await confirmedMember(server);
    const memberClient = await signedInClient(server, member.email);
    await enrolVerified(memberClient.auth, "Phone");
    expect((await server.smtp.waitForMail(member.email, { subject: /turned on/ })).text).toContain("authenticator app was added");

    const tokenOf = async (auth: GoTrueClient) => ({
      authorization: `Bearer ${(await auth.getSession()).data.session!.access_token}`,
    });
    const directory = async () =>
      (await server.app.inject({ method: "GET", url: "/api/v1/members", headers: await tokenOf(ownerClient.auth) })).json<{
        members: { id: string; two_step_verification?: boolean }[];
      }>();
    expect((await directory()).members.find((entry) => entry.id === member.userId)?.two_step_verification).toBe(true);

    const byMember = await server.app.inject({
      method: "DELETE",
      url: `/api/v1/members/${owner.userId}/factors`,
      headers: await tokenOf(memberClient.auth),
    });
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json()).toMatchObject({ code: "owner_only" });

    const reset = await server.app.inject({
      method: "DELETE",
      url: `/api/v1/members/${member.userId}/factors`,
      headers: await tokenOf(ownerClient.auth),
    });
    expect(reset.statusCode, reset.body).toBe(204);
    expect((await server.smtp.waitForMail(member.email, { subject: /turned off/ })).text).toContain("was removed");
    expect((await directory()).members.find((entry) => entry.id === member.userId)?.two_step_verification).toBe(false);

    const { auth } = await signedInClient(server, member.email);
    expect((await auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: "aal1", nextLevel: "aal1" });
    const memories = await server.app.inject({ method: "GET", url: "/api/v1/memories", headers: await tokenOf(auth) });
    expect(memories.statusCode).toBe(200);
  });

  it("kills a challenge at its fifth wrong code, and refuses a duplicate name, a foreign factor and other types", async () => {
    const { email } = await confirmedMember(server);
    const { auth } = await signedInClient(server, email);
    const enrolled = await auth.mfa.enroll({ factorType: "totp", friendlyName: "Phone" });
    const { id, totp } = enrolled.data as { id: string; totp: { secret: string } };
    const challenge = (await auth.mfa.challenge({ factorId: id })).data!;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const wrong = await auth.mfa.verify({ factorId: id, challengeId: challenge.id, code: "000000" });
      expect(wrong.error).toMatchObject({ code: "mfa_verification_failed" });
    }
    const late = await auth.mfa.verify({ factorId: id, challengeId: challenge.id, code: codeFor(totp.secret) });
    expect(late.error).toMatchObject({ status: 422, code: "mfa_challenge_expired" });

    expect((await auth.mfa.enroll({ factorType: "totp", friendlyName: "Phone" })).error).toMatchObject({
      status: 422,
      code: "mfa_factor_name_conflict",
    });
    expect((await auth.mfa.enroll({ factorType: "phone", phone: "+15555550100" })).error).toMatchObject({
      code: "mfa_phone_enroll_not_enabled",
    });

    const stranger = await signedInClient(server, (await confirmedMember(server)).email);
    expect((await stranger.auth.mfa.challenge({ factorId: id })).error).toMatchObject({
      status: 404,
      code: "mfa_factor_not_found",
    });
    expect((await stranger.auth.mfa.unenroll({ factorId: id })).error).toMatchObject({
      status: 404,
      code: "mfa_factor_not_found",
    });
  });

  it("lets the operator list an account's factors without secrets and remove one", async () => {
    const { email, userId } = await confirmedMember(server);
    const { auth } = await signedInClient(server, email);
    const { id } = await enrolVerified(auth, "Phone");
    const headers = { authorization: `Bearer ${await serviceRoleToken(server.testApp)}` };

    const listed = await server.app.inject({ method: "GET", url: `/auth/v1/admin/users/${userId}/factors`, headers });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([
      expect.objectContaining({ id, friendly_name: "Phone", factor_type: "totp", status: "verified" }),
    ]);
    expect(listed.body).not.toMatch(/secret/);

    const removed = await server.app.inject({ method: "DELETE", url: `/auth/v1/admin/users/${userId}/factors/${id}`, headers });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ id });
    const again = await server.app.inject({ method: "DELETE", url: `/auth/v1/admin/users/${userId}/factors/${id}`, headers });
    expect(again.statusCode).toBe(404);

    const anonymous = await server.app.inject({ method: "GET", url: `/auth/v1/admin/users/${userId}/factors` });
    expect(anonymous.statusCode).toBe(401);
  });

  // Last in this file: it moves the server's clock, and the codes of later tests would not match.
  it("asks for the second step again before removing a factor proven more than ten minutes ago", async () => {
    const { email } = await confirmedMember(server);
    const { auth } = await signedInClient(server, email);
    const { id, secret } = await enrolVerified(auth, "Phone");

    server.clock.advance(11 * 60);
    const stale = await auth.mfa.unenroll({ factorId: id });
    expect(stale.error).toMatchObject({ status: 403, code: "insufficient_aal" });
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: server.clock.now().getTime() });
    expect((await auth.mfa.challengeAndVerify({ factorId: id, code })).error).toBeNull();
    expect((await auth.mfa.unenroll({ factorId: id })).error).toBeNull();
  });
});
