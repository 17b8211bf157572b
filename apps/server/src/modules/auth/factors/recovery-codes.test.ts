import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AuthTestServer,
  confirmedMember,
  enrolTotp,
  password,
  startAuthServer,
  stringMatching,
  totpCode,
} from "../../../../test/auth-fixtures";
import { testEngines } from "../../../../test/test-database";

// Recovery codes (ADR 0042): ten codes made at aal2 once a second factor is on, each working once
// in place of the second step, even while the authenticator app is locked by wrong codes. Tried as
// someone with the password but without the phone: wrong codes are limited per account, a used,
// replaced or another member's code opens nothing, an aal1 session cannot make new ones, and the
// database never holds a code.

const headers = (accessToken: string) => ({ authorization: `Bearer ${accessToken}`, "x-supabase-api-version": "2024-01-01" });
const claimsOf = (accessToken: string) =>
  JSON.parse(Buffer.from(accessToken.split(".")[1]!, "base64url").toString()) as { aal: string; amr: { method: string }[] };

describe.each(testEngines())("Recovery codes on %s", (engine) => {
  let server: AuthTestServer;

  beforeAll(async () => {
    server = await startAuthServer(engine);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** The second step not proven yet: a session from the password alone. */
  async function passwordSession(email: string) {
    const response = await server.app.inject({
      method: "POST",
      url: "/auth/v1/token?grant_type=password",
      headers: { "x-supabase-api-version": "2024-01-01" },
      payload: { email, password },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ access_token: string; refresh_token: string }>().access_token;
  }

  const generate = (accessToken: string) =>
    server.app.inject({ method: "POST", url: "/auth/v1/factors/recovery-codes", headers: headers(accessToken) });
  const useCode = (accessToken: string, code: string) =>
    server.app.inject({
      method: "POST",
      url: "/auth/v1/factors/recovery-codes/verify",
      headers: headers(accessToken),
      payload: { code },
    });
  const status = async (accessToken: string) =>
    (await server.app.inject({ method: "GET", url: "/auth/v1/factors/recovery-codes", headers: headers(accessToken) })).json<{
      remaining: number;
      created_at: string | null;
    }>();

  /** A member whose authenticator app was just set up, with the recovery codes shown then. */
  async function memberWithCodes() {
    const member = await confirmedMember(server);
    const factor = await enrolTotp(server.app, member.session.access_token, { now: server.clock.now });
    const generated = await generate(factor.session.access_token);
    expect(generated.statusCode, generated.body).toBe(200);
    const { codes } = generated.json<{ codes: string[] }>();
    // Codes of the app are accepted once per 30 s step: a later right code comes from the next one.
    server.clock.advance(30);
    return { ...member, ...factor, aal2: factor.session.access_token, codes };
  }

  it("makes ten codes at set-up, shown once, and each code works once in place of the second step", async () => {
    const member = await memberWithCodes();
    expect(member.codes).toHaveLength(10);
    expect(new Set(member.codes).size).toBe(10);
    for (const code of member.codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect(await status(member.aal2)).toMatchObject({ remaining: 10, created_at: stringMatching(/^\d{4}-/) });
    // Shown once: nothing answers the codes again.
    expect(JSON.stringify(await status(member.aal2))).not.toContain(member.codes[0]);

    const session = await passwordSession(member.email);
    const refused = await server.app.inject({ method: "GET", url: "/api/v1/memories", headers: headers(session) });
    expect(refused.json()).toMatchObject({ code: "insufficient_aal" });
    // Typed as people type: upper case, without the dash.
    const used = await useCode(session, member.codes[0]!.toUpperCase().replace("-", " "));
    expect(used.statusCode, used.body).toBe(200);
    const raised = used.json<{ access_token: string; refresh_token: string; user: { id: string } }>();
    expect(raised.user.id).toBe(member.userId);
    expect(claimsOf(raised.access_token)).toMatchObject({
      aal: "aal2",
      amr: [{ method: "recovery_code" }, { method: "password" }],
    });
    const memories = await server.app.inject({ method: "GET", url: "/api/v1/memories", headers: headers(raised.access_token) });
    expect(memories.statusCode, memories.body).toBe(200);

    const notice = await server.smtp.waitForMail(member.email, { subject: /A recovery code was used/ });
    expect(notice.text).toContain("You have 9 recovery codes left.");
    expect(notice.text).not.toContain(member.codes[0]);
    expect((await status(raised.access_token)).remaining).toBe(9);

    // The same code again, from another password-only session: refused, the session stays aal1.
    const again = await passwordSession(member.email);
    const reused = await useCode(again, member.codes[0]!);
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toMatchObject({ code: "mfa_verification_failed", message: stringMatching(/already used/) });
    const stillRefused = await server.app.inject({ method: "GET", url: "/api/v1/memories", headers: headers(again) });
    expect(stillRefused.json()).toMatchObject({ code: "insufficient_aal" });
    // Another code of the set still works.
    expect((await useCode(again, member.codes[1]!)).statusCode).toBe(200);
  });

  it("never stores a code: the rows hold keyed hashes only", async () => {
    const member = await memberWithCodes();
    const rows = await server.db.selectFrom("mfa_recovery_codes").selectAll().where("user_id", "=", member.userId).execute();
    expect(rows).toHaveLength(10);
    const stored = JSON.stringify(rows).toLowerCase();
    for (const code of member.codes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace("-", ""));
    }
    for (const row of rows) expect(row.code_hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("replaces every code when new ones are made, and makes new ones only from a session that proved the second step", async () => {
    const member = await memberWithCodes();
    const session = await passwordSession(member.email);
    const refused = await generate(session);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: "insufficient_aal" });
    // The refused attempt changed nothing: the codes shown at set-up still work.
    expect((await status(member.aal2)).remaining).toBe(10);

    const renewed = await generate(member.aal2);
    expect(renewed.statusCode, renewed.body).toBe(200);
    const { codes } = renewed.json<{ codes: string[] }>();
    expect(codes.filter((code) => member.codes.includes(code))).toEqual([]);
    const old = await useCode(session, member.codes[2]!);
    expect(old.statusCode).toBe(422);
    expect(old.json()).toMatchObject({ code: "mfa_verification_failed" });
    expect((await useCode(session, codes[0]!)).statusCode).toBe(200);
  });

  it("lets the member through with a recovery code while their authenticator app is locked by wrong codes", async () => {
    const member = await memberWithCodes();
    const session = await passwordSession(member.email);
    const wrong = totpCode(member.secret, server.clock.now()) === "000000" ? "111111" : "000000";
    for (let attempt = 0; attempt < 5; attempt++) {
      const challenge = await server.app.inject({
        method: "POST",
        url: `/auth/v1/factors/${member.factorId}/challenge`,
        headers: headers(session),
      });
      await server.app.inject({
        method: "POST",
        url: `/auth/v1/factors/${member.factorId}/verify`,
        headers: headers(session),
        payload: { challenge_id: challenge.json<{ id: string }>().id, code: wrong },
      });
    }
    const challenge = await server.app.inject({
      method: "POST",
      url: `/auth/v1/factors/${member.factorId}/challenge`,
      headers: headers(session),
    });
    const locked = await server.app.inject({
      method: "POST",
      url: `/auth/v1/factors/${member.factorId}/verify`,
      headers: headers(session),
      payload: { challenge_id: challenge.json<{ id: string }>().id, code: totpCode(member.secret, server.clock.now()) },
    });
    expect(locked.json()).toMatchObject({ code: "mfa_factor_locked" });

    const used = await useCode(session, member.codes[0]!);
    expect(used.statusCode, used.body).toBe(200);
    const raised = used.json<{ access_token: string }>().access_token;
    expect(claimsOf(raised).aal).toBe("aal2");
    // The member who lost the phone removes it with the session the recovery code raised.
    const removed = await server.app.inject({
      method: "DELETE",
      url: `/auth/v1/factors/${member.factorId}`,
      headers: headers(raised),
    });
    expect(removed.statusCode, removed.body).toBe(200);
    // With no second step left, the codes went with it.
    expect(await status(raised)).toEqual({ remaining: 0, created_at: null });
    const afterwards = await useCode(await passwordSession(member.email), member.codes[1]!);
    expect(afterwards.statusCode).toBe(422);
    expect(afterwards.json()).toMatchObject({ code: "mfa_factor_not_found" });
  });

  it("limits wrong recovery codes per account: 5 in 15 minutes refuse the right one too, and the member is told once", async () => {
    const member = await memberWithCodes();
    for (let attempt = 0; attempt < 5; attempt++) {
      // A new session for each guess: the count is the account's, not the session's.
      const guess = await useCode(await passwordSession(member.email), `aaaaa-aaaa${"abcde"[attempt]}`);
      expect(guess.json()).toMatchObject({ code: "mfa_verification_failed" });
    }
    const session = await passwordSession(member.email);
    const right = await useCode(session, member.codes[0]!);
    expect(right.statusCode, right.body).toBe(429);
    expect(right.json()).toMatchObject({ code: "mfa_recovery_codes_locked", message: stringMatching(/15 minutes/) });
    expect(claimsOf(session).aal).toBe("aal1");
    const notice = await server.smtp.waitForMail(member.email, { subject: /Wrong recovery codes were typed/ });
    expect(notice.text).toContain("Recovery codes are refused for 15 minutes.");
    await useCode(session, "bbbbb-bbbbb");
    expect(
      server.smtp.messages.filter((mail) => mail.to.includes(member.email) && /Wrong recovery codes/.test(mail.subject)),
    ).toHaveLength(1);

    // The window passes: the right code works, and it was not used up while refused.
    server.clock.advance(15 * 60);
    const later = await useCode(session, member.codes[0]!);
    expect(later.statusCode, later.body).toBe(200);
  });

  it("refuses another member's code, and anyone signed out", async () => {
    const me = await memberWithCodes();
    const other = await memberWithCodes();
    const mine = await passwordSession(me.email);
    const theirs = await useCode(mine, other.codes[0]!);
    expect(theirs.statusCode).toBe(422);
    expect(theirs.json()).toMatchObject({ code: "mfa_verification_failed" });
    expect(claimsOf(mine).aal).toBe("aal1");
    // Not used up by the attempt: it still works for its own member.
    expect((await useCode(await passwordSession(other.email), other.codes[0]!)).statusCode).toBe(200);

    for (const [method, url, payload] of [
      ["GET", "/auth/v1/factors/recovery-codes", undefined],
      ["POST", "/auth/v1/factors/recovery-codes", undefined],
      ["POST", "/auth/v1/factors/recovery-codes/verify", { code: me.codes[0] }],
    ] as const) {
      const signedOut = await server.app.inject({ method, url, payload, headers: { "x-supabase-api-version": "2024-01-01" } });
      expect(signedOut.statusCode, `${method} ${url}`).toBe(401);
      const forged = await server.app.inject({ method, url, payload, headers: headers("not-a-token") });
      expect(forged.statusCode, `${method} ${url}`).toBeGreaterThanOrEqual(401);
      expect(forged.statusCode, `${method} ${url}`).toBeLessThan(404);
    }
    // A member without a second step has nothing to recover, and no codes to make.
    const plain = await confirmedMember(server);
    expect((await generate(plain.session.access_token)).json()).toMatchObject({ code: "mfa_factor_not_found" });
    expect((await useCode(plain.session.access_token, me.codes[0]!)).json()).toMatchObject({ code: "mfa_factor_not_found" });
  });
});
