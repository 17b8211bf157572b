import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  anyString,
  type AuthTestServer,
  confirmedMember,
  password,
  startAuthServer,
  uniqueEmail,
} from "../../../../test/auth-fixtures";
import { testEngines } from "../../../../test/test-database";

// Account enumeration (security checklist §6 check 4): the endpoints that mail someone answer
// byte for byte the same whether the address is unknown, a member, throttled, or no longer
// invited; a sign-up for a taken address looks like a new one.

/** What a client can observe of an answer: status, body and which headers it carries. */
function observable(response: LightMyRequestResponse) {
  const headerNames = Object.keys(response.headers)
    .filter((name) => !["date", "content-length"].includes(name))
    .sort();
  return { status: response.statusCode, body: response.body, headerNames, contentType: response.headers["content-type"] };
}

describe.each(testEngines())("no account enumeration on %s", (engine) => {
  let server: AuthTestServer;
  let addresses: { unknown: string; member: string; invitedWithoutAccount: string; unconfirmed: string; revoked: string };

  beforeAll(async () => {
    server = await startAuthServer(engine);
    addresses = {
      unknown: uniqueEmail("unknown"),
      member: (await confirmedMember(server)).email,
      invitedWithoutAccount: uniqueEmail("invited"),
      unconfirmed: uniqueEmail("unconfirmed"),
      revoked: (await confirmedMember(server)).email,
    };
    await server.invite(addresses.invitedWithoutAccount, addresses.unconfirmed);
    expect(
      (await server.app.inject({ method: "POST", url: "/auth/v1/signup", payload: { email: addresses.unconfirmed, password } }))
        .statusCode,
    ).toBe(200);
    await server.invitations.revoke(addresses.revoked, "test");
  });
  afterAll(async () => {
    await server?.close();
  });

  const cases: [string, string, (email: string) => Record<string, unknown>][] = [
    ["POST /recover", "/auth/v1/recover", (email) => ({ email, gotrue_meta_security: {} })],
    ["POST /otp", "/auth/v1/otp", (email) => ({ email, create_user: true, data: {}, gotrue_meta_security: {} })],
    ["POST /resend (signup)", "/auth/v1/resend", (email) => ({ email, type: "signup", gotrue_meta_security: {} })],
    ["POST /resend (email_change)", "/auth/v1/resend", (email) => ({ email, type: "email_change", gotrue_meta_security: {} })],
  ];

  it.each(cases)(
    "%s answers alike for unknown, member, unconfirmed, invited-only and revoked addresses, also when repeated",
    async (_label, url, body) => {
      const answers: Record<string, ReturnType<typeof observable>> = {};
      for (const [kind, email] of Object.entries(addresses)) {
        for (const attempt of ["first", "repeated"]) {
          for (const version of [{ "x-supabase-api-version": "2024-01-01" }, {}]) {
            const response = await server.app.inject({ method: "POST", url, payload: body(email), headers: version });
            answers[`${kind} ${attempt} ${Object.keys(version).length > 0 ? "current" : "legacy"}`] = observable(response);
          }
        }
      }
      const reference = answers["unknown first current"]!;
      expect(reference).toMatchObject({ status: 200, body: "{}" });
      for (const [label, answer] of Object.entries(answers)) expect({ label, ...answer }).toEqual({ label, ...reference });
    },
  );

  it("answers alike while the mail server refuses mail, and lets the member ask again after the interval", async () => {
    const recovering = (await confirmedMember(server)).email;
    const magic = (await confirmedMember(server)).email;
    const newcomer = uniqueEmail("newcomer");
    await server.invite(newcomer);
    const pending = uniqueEmail("pending");
    await server.invite(pending);
    expect(
      (await server.app.inject({ method: "POST", url: "/auth/v1/signup", payload: { email: pending, password } })).statusCode,
    ).toBe(200);
    // The sign-up's own mail is sent in the background: received before the refusals are set, so
    // that it cannot take one of them on a busy machine.
    await server.smtp.waitForMail(pending);
    server.clock.advance(61);

    const requests: [string, Record<string, unknown>][] = [
      ["/auth/v1/recover", { email: recovering }],
      ["/auth/v1/otp", { email: magic }],
      ["/auth/v1/otp", { email: newcomer }],
      ["/auth/v1/resend", { email: pending, type: "signup" }],
    ];
    // Exactly one delivery per request, each refused.
    server.smtp.rejectNext(requests.length);
    for (const [url, payload] of requests) {
      const unknown = await server.app.inject({ method: "POST", url, payload: { ...payload, email: uniqueEmail("unknown") } });
      const known = await server.app.inject({ method: "POST", url, payload });
      expect({ url, ...observable(known) }).toEqual({ url, ...observable(unknown) });
    }

    // Every mail was queued (ADR 0077), then refused by the mail server and not tried again.
    await vi.waitFor(
      async () => {
        const refused = await server.db.selectFrom("mail_outbox").select("state").where("state", "=", "rejected").execute();
        expect(refused).toHaveLength(requests.length);
      },
      { timeout: 5000, interval: 20 },
    );
    // The answer did not wait for the mail server, so the minimum interval holds: after it, a new mail.
    server.clock.advance(61);
    await server.client().auth.resetPasswordForEmail(recovering);
    await server.smtp.waitForMail(recovering, { subject: /Reset your/ });
  });

  it("answers a sign-up for a confirmed address like a new sign-up, with identities: [] and no mail", async () => {
    const fresh = uniqueEmail("fresh");
    await server.invite(fresh);
    const before = server.smtp.messages.length;
    const newcomer = await server.app.inject({
      method: "POST",
      url: "/auth/v1/signup",
      payload: { email: fresh, password, data: { full_name: "New" } },
    });
    const existing = await server.app.inject({
      method: "POST",
      url: "/auth/v1/signup",
      payload: { email: addresses.member, password: "any other password", data: { full_name: "New" } },
    });

    expect(existing.statusCode).toBe(newcomer.statusCode);
    const taken = existing.json<Record<string, unknown>>();
    const created = newcomer.json<Record<string, unknown>>();
    expect(Object.keys(taken).sort()).toEqual(Object.keys(created).sort());
    expect(taken).toMatchObject({
      email: addresses.member,
      identities: [],
      user_metadata: { full_name: "New" },
      confirmation_sent_at: anyString,
    });
    expect(created.identities).toHaveLength(1);

    const real = await server.db.selectFrom("users").select("id").where("email", "=", addresses.member).executeTakeFirstOrThrow();
    expect(taken.id).not.toBe(real.id);
    // Through auth-js: a user and no session, as for a new sign-up; apps check identities.length.
    const viaClient = await server.client().auth.signUp({ email: addresses.member, password });
    expect(viaClient.error).toBeNull();
    expect(viaClient.data.session).toBeNull();
    expect(viaClient.data.user?.identities).toEqual([]);
    expect(viaClient.data.user?.id).not.toBe(taken.id);

    await server.smtp.waitForMail(fresh);
    expect(server.smtp.messages.slice(before).map((mail) => mail.to)).toEqual([[fresh]]);
  });
});
