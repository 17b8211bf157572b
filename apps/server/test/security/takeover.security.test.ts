import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AuthTestServer,
  authHeaders,
  codeIn,
  confirmedMember,
  enrolTotp,
  getUser,
  linkIn,
  openLink,
  password,
  sessionFrom,
  signedInClient,
  startAuthServer,
  uniqueEmail,
} from "../auth-fixtures";
import { testEngines } from "../test-database";
import { loadConfig } from "../../src/config";

// Security suite, takeover family: someone who knows a member's address, or has their password
// but not their phone, never gets the account.
//
// Issue #11 item 1, pre-registration takeover (ADR 0014): a stranger signs up first with an invited
// member's address and a password of their own. Whatever the member does next — confirm the
// stranger's link, sign up themselves, use a magic link or recovery — the stranger never gets in,
// and the member ends up with the password they chose, or sets one. Issue #29 item 12 (ADR 0046):
// the same orders with the stranger in an app without cookies, proving itself by PKCE. Issue #29
// item 1: once a second factor is on, the password alone changes nothing of how the account is
// reached (the whole rule: factors/second-step-guards.test.ts).

const strangersPassword = "the stranger's own passphrase";
const confirmation = /Confirm your Memory Box account/;

describe.each(testEngines())("#11.1 pre-registration takeover, every order, on %s", (engine) => {
  let server: AuthTestServer;

  beforeAll(async () => {
    server = await startAuthServer(engine, { env: { AUTH_EMAIL_MIN_INTERVAL: "0" } });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** An invited address a stranger signed up for first, from their own browser; the mail went to the member. */
  async function strangerSignsUpFirst() {
    const email = uniqueEmail("dave");
    await server.invite(email);
    const stranger = server.client();
    const { error } = await stranger.auth.signUp({
      email,
      password: strangersPassword,
      options: { data: { full_name: "Mallory" } },
    });
    expect(error).toBeNull();
    const strangersMail = await server.smtp.waitForMail(email, { subject: confirmation });
    return { email, stranger, strangersMail };
  }

  /** The stranger's password opens nothing, and their link (if still unused) is dead. */
  async function expectStrangerLockedOut(email: string, strangersLink?: string) {
    const signIn = await server.client().auth.signInWithPassword({ email, password: strangersPassword });
    expect(signIn.error).toMatchObject({ code: "invalid_credentials" });
    expect(signIn.data.session).toBeNull();
    if (strangersLink) expect((await openLink(strangersLink)).fragment.get("error_code")).toBe("otp_expired");
  }

  it("the stranger's password never opens a session before anyone confirms", async () => {
    const { email } = await strangerSignsUpFirst();
    const signIn = await server.client().auth.signInWithPassword({ email, password: strangersPassword });
    expect(signIn.error).toMatchObject({ code: "email_not_confirmed" });
    expect(signIn.data.session).toBeNull();
  });

  it("stranger first, then the member confirms the link they received: the stranger's password and name are dropped", async () => {
    const { email, strangersMail } = await strangerSignsUpFirst();
    const member = server.client();
    const session = sessionFrom(await member.openLink(linkIn(strangersMail)));
    await expectStrangerLockedOut(email);
    const user = (await getUser(server, session.access_token)).json<{ user_metadata: Record<string, unknown> }>();
    expect(user.user_metadata).not.toMatchObject({ full_name: "Mallory" });

    // The member, who proved the mailbox, sets a password and signs in with it from then on.
    await member.auth.setSession(session);
    const chosen = "the member's own passphrase";
    expect((await member.auth.updateUser({ password: chosen })).error).toBeNull();
    await signedInClient(server, email, chosen);
    await expectStrangerLockedOut(email);
  });

  it("stranger first, then the member signs up and confirms in their browser: the member's password stands", async () => {
    const { email, strangersMail } = await strangerSignsUpFirst();
    const member = server.client();
    const signUp = await member.auth.signUp({ email, password, options: { data: { full_name: "Dave" } } });
    expect(signUp.error).toBeNull();
    const membersMail = await server.smtp.waitForMail(email, { subject: confirmation });
    const session = sessionFrom(await member.openLink(linkIn(membersMail)));
    expect((await getUser(server, session.access_token)).json()).toMatchObject({ user_metadata: { full_name: "Dave" } });
    await signedInClient(server, email, password);
    await expectStrangerLockedOut(email, linkIn(strangersMail));
  });

  it("stranger first, then the member signs up but opens the stranger's link: neither password stands", async () => {
    const { email, strangersMail } = await strangerSignsUpFirst();
    const member = server.client();
    expect((await member.auth.signUp({ email, password })).error).toBeNull();
    const membersMail = await server.smtp.waitForMail(email, { subject: confirmation });
    sessionFrom(await member.openLink(linkIn(strangersMail)));
    await expectStrangerLockedOut(email, linkIn(membersMail));
    expect((await server.client().auth.signInWithPassword({ email, password })).error).toMatchObject({
      code: "invalid_credentials",
    });
  });

  it("stranger first, then the member signs in with a magic link: the stranger's password is dropped", async () => {
    const { email, strangersMail } = await strangerSignsUpFirst();
    const member = server.client();
    expect((await member.auth.signInWithOtp({ email })).error).toBeNull();
    const mail = await server.smtp.waitForMail(email);
    // The code of the mail, typed in the member's browser.
    const verified = await member.auth.verifyOtp({ email, token: codeIn(mail), type: "email" });
    expect(verified.error).toBeNull();
    expect(verified.data.session).not.toBeNull();
    await expectStrangerLockedOut(email, linkIn(strangersMail));
  });

  it("stranger first, then the member recovers the account: the stranger's password is dropped", async () => {
    const { email, strangersMail } = await strangerSignsUpFirst();
    const member = server.client();
    expect((await member.auth.resetPasswordForEmail(email)).error).toBeNull();
    const session = sessionFrom(await member.openLink(linkIn(await server.smtp.waitForMail(email, { subject: /Reset your/ }))));
    await member.auth.setSession(session);
    const chosen = "a recovered passphrase";
    expect((await member.auth.updateUser({ password: chosen })).error).toBeNull();
    await signedInClient(server, email, chosen);
    await expectStrangerLockedOut(email, linkIn(strangersMail));
  });

  describe("#29.12 a stranger signing up from an app without cookies, with a PKCE challenge of their own (ADR 0046)", () => {
    /** auth-js in a Node process: PKCE, and Node's fetch, which keeps no cookies. */
    const appWithoutCookies = () => server.client("pkce", { fetch: (input, init) => fetch(input, init) });

    async function strangerSignsUpFirstWithPkce() {
      const email = uniqueEmail("dave");
      await server.invite(email);
      const stranger = appWithoutCookies();
      const { error } = await stranger.auth.signUp({
        email,
        password: strangersPassword,
        options: { data: { full_name: "Mallory" } },
      });
      expect(error).toBeNull();
      const strangersMail = await server.smtp.waitForMail(email, { subject: confirmation });
      return { email, stranger, strangersMail };
    }

    /** The code the link carries to whoever opens it. */
    async function codeOf(link: string, opener: (link: string) => ReturnType<typeof openLink> = openLink) {
      const opened = await opener(link);
      const code = opened.query.get("code");
      if (!code) throw new Error(`No code in the redirect: ${opened.fragment.toString()}`);
      return code;
    }

    it("the member opens the link they received: the code reaches only the member, the stranger's password stays dead", async () => {
      const { email, stranger, strangersMail } = await strangerSignsUpFirstWithPkce();
      // The member's browser (the web app, without the stranger's verifier) receives the code.
      await codeOf(linkIn(strangersMail));
      // The stranger has the verifier but no code; a guessed one matches no flow.
      expect((await stranger.auth.exchangeCodeForSession(crypto.randomUUID())).error).toMatchObject({
        code: "flow_state_not_found",
      });
      await expectStrangerLockedOut(email);
      // The member, who proved the mailbox, gets in by recovery and sets a password.
      const member = server.client();
      expect((await member.auth.resetPasswordForEmail(email)).error).toBeNull();
      const session = sessionFrom(await member.openLink(linkIn(await server.smtp.waitForMail(email, { subject: /Reset your/ }))));
      await member.auth.setSession(session);
      expect((await member.auth.updateUser({ password: "the member's own passphrase" })).error).toBeNull();
      await signedInClient(server, email, "the member's own passphrase");
      await expectStrangerLockedOut(email);
    });

    it("the member signs up from their own app and exchanges their own link's code: the member's password stands", async () => {
      const { email, strangersMail } = await strangerSignsUpFirstWithPkce();
      const member = appWithoutCookies();
      expect((await member.auth.signUp({ email, password, options: { data: { full_name: "Dave" } } })).error).toBeNull();
      const membersMail = await server.smtp.waitForMail(email, { subject: confirmation });
      const { data, error } = await member.auth.exchangeCodeForSession(await codeOf(linkIn(membersMail)));
      expect(error).toBeNull();
      expect(data.session?.user.user_metadata).toMatchObject({ full_name: "Dave" });
      await signedInClient(server, email, password);
      await expectStrangerLockedOut(email, linkIn(strangersMail));
    });

    it("the member signs up from their own app but opens the stranger's link: neither password stands", async () => {
      const { email, strangersMail } = await strangerSignsUpFirstWithPkce();
      const member = appWithoutCookies();
      expect((await member.auth.signUp({ email, password })).error).toBeNull();
      const membersMail = await server.smtp.waitForMail(email, { subject: confirmation });
      const code = await codeOf(linkIn(strangersMail));
      // The member's app holds its own verifier, not the stranger's.
      expect((await member.auth.exchangeCodeForSession(code)).error).toMatchObject({ code: "bad_code_verifier" });
      await expectStrangerLockedOut(email, linkIn(membersMail));
      expect((await appWithoutCookies().auth.signInWithPassword({ email, password })).error).toMatchObject({
        code: "invalid_credentials",
      });
    });

    it("the member asks for the confirmation mail again from a PKCE app and exchanges its code: the stranger's password does not stand", async () => {
      // The resent link carries the stranger's sign-up on, but under the member's challenge: what
      // the stranger chose is never kept for a verifier other than the one they signed up with.
      const { email } = await strangerSignsUpFirstWithPkce();
      const member = appWithoutCookies();
      expect((await member.auth.resend({ type: "signup", email })).error).toBeNull();
      const resent = await server.smtp.waitForMail(email, { subject: confirmation });
      const { data, error } = await member.auth.exchangeCodeForSession(await codeOf(linkIn(resent)));
      expect(error).toBeNull();
      expect(data.session?.user.email).toBe(email);
      expect(data.session?.user.user_metadata).not.toMatchObject({ full_name: "Mallory" });
      await expectStrangerLockedOut(email);
    });

    it("the member asks for a magic link from a PKCE app and exchanges its code: the stranger's password does not stand", async () => {
      const { email, strangersMail } = await strangerSignsUpFirstWithPkce();
      const member = appWithoutCookies();
      expect((await member.auth.signInWithOtp({ email })).error).toBeNull();
      const mail = await server.smtp.waitForMail(email, { subject: confirmation });
      expect((await member.auth.exchangeCodeForSession(await codeOf(linkIn(mail)))).error).toBeNull();
      await expectStrangerLockedOut(email, linkIn(strangersMail));
    });

    it("the member types the code of the stranger's mail: the stranger's password does not stand", async () => {
      const { email, strangersMail } = await strangerSignsUpFirstWithPkce();
      const verified = await appWithoutCookies().auth.verifyOtp({ email, token: codeIn(strangersMail), type: "signup" });
      expect(verified.error).toBeNull();
      await expectStrangerLockedOut(email);
    });

    it("the member recovers the account: the stranger's password is dropped", async () => {
      const { email, strangersMail } = await strangerSignsUpFirstWithPkce();
      const member = appWithoutCookies();
      expect((await member.auth.resetPasswordForEmail(email)).error).toBeNull();
      const mail = await server.smtp.waitForMail(email, { subject: /Reset your/ });
      expect((await member.auth.exchangeCodeForSession(await codeOf(linkIn(mail)))).error).toBeNull();
      await expectStrangerLockedOut(email, linkIn(strangersMail));
    });

    it("the member confirms by a sign-up in their own browser: the stranger's password does not stand", async () => {
      const { email, strangersMail } = await strangerSignsUpFirstWithPkce();
      const member = server.client();
      expect((await member.auth.signUp({ email, password })).error).toBeNull();
      sessionFrom(await member.openLink(linkIn(await server.smtp.waitForMail(email, { subject: confirmation }))));
      await signedInClient(server, email, password);
      await expectStrangerLockedOut(email, linkIn(strangersMail));
    });
  });

  it("the stranger's link, opened in the stranger's own browser, is refused: it went only to the mailbox", async () => {
    // The stranger never has the link; this checks that a cookie alone proves nothing without it.
    const { email, stranger } = await strangerSignsUpFirst();
    const guessed = `${server.authUrl}/verify?type=signup&token=not-the-token`;
    expect((await stranger.openLink(guessed)).fragment.get("error_code")).toBe("otp_expired");
    expect((await stranger.auth.signInWithPassword({ email, password: strangersPassword })).data.session).toBeNull();
  });
});

describe("#11.1 autoconfirm and invitations", () => {
  it("refuse to run together: a stranger who knows an invited address would be in at once", () => {
    expect(() => loadConfig({ AUTH_AUTOCONFIRM: "true" })).toThrow(
      /AUTH_AUTOCONFIRM: cannot be true while AUTH_INVITE_ONLY is true/,
    );
    expect(() => loadConfig({ AUTH_AUTOCONFIRM: "true", AUTH_INVITE_ONLY: "false" })).not.toThrow();
  });
});

describe.each(testEngines())("#29.1 a password alone takes over an account with a second factor, on %s", (engine) => {
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthServer(engine);
  });
  afterAll(async () => {
    await server?.close();
  });

  it("refuses a password-only session the new password, the new address and signing the other devices out", async () => {
    const member = await confirmedMember(server);
    const { session: withCode } = await enrolTotp(server.app, member.session.access_token, { now: server.clock.now });
    const { session: passwordOnly } = await signedInClient(server, member.email);
    const headers = authHeaders(passwordOnly.access_token);
    const thief = uniqueEmail("thief");
    await server.invite(thief);
    for (const [method, url, payload] of [
      ["PUT", "/auth/v1/user", { password: "the thief's own passphrase" }],
      ["PUT", "/auth/v1/user", { email: thief }],
      ["POST", "/auth/v1/logout?scope=others", undefined],
    ] as const) {
      const response = await server.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
      expect({ url, status: response.statusCode, code: response.json<{ code?: string }>().code }).toEqual({
        url,
        status: 403,
        code: "insufficient_aal",
      });
    }
    expect((await getUser(server, withCode.access_token)).json()).toMatchObject({ email: member.email });
    await signedInClient(server, member.email, password);
  });
});
