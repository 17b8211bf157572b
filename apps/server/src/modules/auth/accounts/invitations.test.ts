import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AuthTestServer,
  confirmedMember,
  getUser,
  linkIn,
  openLink,
  password,
  refreshWith,
  signedInClient,
  startAuthServer,
  uniqueEmail,
} from "../../../../test/auth-fixtures";
import { testEngines } from "../../../../test/test-database";

// Invite-only: every way in checks the invitation list on the server. Paths that send mail
// answer as if all were well and send nothing, so they cannot be used to probe the list.

describe.each(testEngines())("addresses not (or no longer) invited on %s", (engine) => {
  let server: AuthTestServer;

  beforeAll(async () => {
    server = await startAuthServer(engine);
  });
  afterAll(async () => {
    await server?.close();
  });

  /**
   * Asserts that no mail went to `email` since message number `since`: a mail to a control
   * address, sent after the requests, must arrive first, so anything they sent is already there.
   */
  async function expectNoMailTo(email: string, since: number) {
    const control = await confirmedMember(server);
    await server.client().auth.resetPasswordForEmail(control.email);
    await server.smtp.waitForMail(control.email, { subject: /Reset your/ });
    expect(server.smtp.messages.slice(since).filter((mail) => mail.to.includes(email))).toEqual([]);
  }

  it("refuses sign-up with email_not_invited and sends nothing", async () => {
    const email = uniqueEmail("stranger");
    const before = server.smtp.messages.length;
    const { data, error } = await server.client().auth.signUp({ email, password });
    expect(error).toMatchObject({ status: 403, code: "email_not_invited" });
    expect(data.user).toBeNull();
    expect(await server.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst()).toBeUndefined();
    await expectNoMailTo(email, before);
  });

  it("answers magic-link and recovery requests for a stranger with {} and sends nothing", async () => {
    const email = uniqueEmail("stranger");
    const before = server.smtp.messages.length;
    const otp = await server.app.inject({ method: "POST", url: "/auth/v1/otp", payload: { email, create_user: true } });
    expect(otp.statusCode).toBe(200);
    expect(otp.json()).toEqual({});
    const recover = await server.app.inject({ method: "POST", url: "/auth/v1/recover", payload: { email } });
    expect(recover.statusCode).toBe(200);
    expect(recover.json()).toEqual({});
    expect((await server.client().auth.signInWithOtp({ email })).error).toBeNull();
    expect(await server.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst()).toBeUndefined();
    await expectNoMailTo(email, before);
  });

  describe("a member whose invitation is revoked", () => {
    let member: { email: string; userId: string; session: { access_token: string; refresh_token: string } };
    let sessions: { access_token: string; refresh_token: string }[];
    let pendingLink: string;

    beforeAll(async () => {
      member = await confirmedMember(server);
      sessions = [member.session, (await signedInClient(server, member.email)).session];
      // A magic link mailed before the revocation, opened after it.
      await server.client().auth.signInWithOtp({ email: member.email });
      pendingLink = linkIn(await server.smtp.waitForMail(member.email, { subject: /sign-in link/ }));
      const { sessionsEnded } = await server.invitations.revoke(member.email, "test");
      expect(sessionsEnded).toBe(2);
    });

    it("loses every session at once", async () => {
      for (const session of sessions) {
        const user = await getUser(server, session.access_token);
        expect(user.statusCode).toBe(403);
        expect(user.json()).toMatchObject({ code: "session_not_found" });
        const refreshed = await refreshWith(server, session.refresh_token);
        expect(refreshed.statusCode).toBe(400);
        expect(refreshed.json<{ code: string }>().code).toMatch(/^(refresh_token_not_found|session_not_found)$/);
      }
      const { auth } = server.client();
      await auth.setSession(sessions[0]!);
      expect((await auth.getUser()).error?.name).toBe("AuthSessionMissingError");
    });

    it("cannot sign in with the right password: email_not_invited", async () => {
      const { error } = await server.client().auth.signInWithPassword({ email: member.email, password });
      expect(error).toMatchObject({ status: 403, code: "email_not_invited" });
      // A wrong password still says only that the credentials are wrong.
      const wrong = await server.client().auth.signInWithPassword({ email: member.email, password: "wrong password!" });
      expect(wrong.error).toMatchObject({ status: 400, code: "invalid_credentials" });
    });

    it("cannot sign up again: email_not_invited", async () => {
      const { error } = await server.client().auth.signUp({ email: member.email, password });
      expect(error).toMatchObject({ status: 403, code: "email_not_invited" });
    });

    it("gets {} and no mail for magic-link, recovery and resend requests", async () => {
      const before = server.smtp.messages.length;
      const client = server.client().auth;
      expect(await client.signInWithOtp({ email: member.email })).toMatchObject({ error: null });
      expect(await client.resetPasswordForEmail(member.email)).toMatchObject({ error: null });
      expect(await client.resend({ type: "signup", email: member.email })).toMatchObject({ error: null });
      await expectNoMailTo(member.email, before);
    });

    it("cannot use a link mailed before the revocation", async () => {
      const opened = await openLink(pendingLink);
      expect(opened.status).toBe(303);
      expect(opened.fragment.get("access_token")).toBeNull();
      expect(opened.fragment.get("error_code")).toBe("email_not_invited");
    });

    it("gets back in once invited again", async () => {
      await server.invite(member.email);
      await signedInClient(server, member.email);
    });
  });
});

describe.each(testEngines())("AUTH_INVITE_ONLY=false on %s", (engine) => {
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthServer(engine, { env: { AUTH_INVITE_ONLY: "false" } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("lets anyone sign up, confirm and sign in", async () => {
    const email = uniqueEmail("open");
    const browser = server.client();
    const { data, error } = await browser.auth.signUp({ email, password });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    const opened = await browser.openLink(linkIn(await server.smtp.waitForMail(email, { subject: /Confirm your/ })));
    expect(opened.fragment.get("type")).toBe("signup");
    await signedInClient(server, email);
  });
});
