import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  anyString,
  type AuthTestServer,
  codeIn,
  confirmedMember,
  getUser,
  linkIn,
  openLink,
  password,
  refreshWith,
  sessionFrom,
  signedInClient,
  startAuthServer,
  uniqueEmail,
} from "../../../../test/auth-fixtures";
import { testEngines } from "../../../../test/test-database";

// The unmodified @supabase/auth-js client against the real server: every way in and every
// change to one's own account, with mail going through a local SMTP server.

const subjects = {
  confirmation: /Confirm your Memory Box account/,
  magicLink: /sign-in link/,
  recovery: /Reset your/,
  emailChange: /Confirm your new email address/,
  reauthentication: /confirmation code/,
};

describe.each(testEngines())("auth flows through auth-js on %s", (engine) => {
  let server: AuthTestServer;

  beforeAll(async () => {
    server = await startAuthServer(engine, { env: { AUTH_REDIRECT_URLS: "https://app.example.org/**" } });
  });
  afterAll(async () => {
    await server?.close();
  });

  describe("sign-up with e-mail confirmation", () => {
    it("returns the user without a session, mails a link that signs in at redirect_to, and uses the invitation", async () => {
      const email = uniqueEmail("ann");
      await server.invite(email);
      const browser = server.client();
      const { auth } = browser;

      const { data, error } = await auth.signUp({
        email,
        password,
        options: { emailRedirectTo: `${server.origin}/welcome`, data: { full_name: "Ann Example" } },
      });
      expect(error).toBeNull();
      expect(data.session).toBeNull();
      expect(data.user).toMatchObject({
        email,
        role: "authenticated",
        user_metadata: { full_name: "Ann Example" },
        identities: [expect.objectContaining({ provider: "email" })],
      });
      expect(data.user?.email_confirmed_at).toBeUndefined();
      expect(data.user?.confirmation_sent_at).toBeDefined();

      const mail = await server.smtp.waitForMail(email, { subject: subjects.confirmation });
      const link = linkIn(mail);
      expect(link.startsWith(`${server.authUrl}/verify?`)).toBe(true);
      const opened = await browser.openLink(link);
      expect(opened.status).toBe(303);
      expect(opened.target).toBe(`${server.origin}/welcome`);
      const session = sessionFrom(opened);
      expect(session).toMatchObject({ type: "signup", expires_in: 3600 });
      expect(opened.fragment.get("token_type")).toBe("bearer");

      const other = server.client();
      const restored = await other.auth.setSession(session);
      expect(restored.error).toBeNull();
      expect(restored.data.user).toMatchObject({ id: data.user!.id, email });
      expect(restored.data.user?.email_confirmed_at).toBeDefined();
      const fetched = await other.auth.getUser();
      expect(fetched.data.user?.id).toBe(data.user!.id);

      const invitation = await server.db
        .selectFrom("invitations")
        .selectAll()
        .where("email", "=", email)
        .executeTakeFirstOrThrow();
      expect(invitation.used_by).toBe(data.user!.id);
      expect(invitation.used_at).not.toBeNull();
      const profile = await server.db
        .selectFrom("profiles")
        .selectAll()
        .where("user_id", "=", data.user!.id)
        .executeTakeFirstOrThrow();
      expect(profile.display_name).toBe("Ann Example");
    });

    it("honours an allow-listed redirect_to and replaces a foreign one with the site URL", async () => {
      const allowed = uniqueEmail("allowed");
      const foreign = uniqueEmail("foreign");
      await server.invite(allowed, foreign);
      const { auth } = server.client();

      await auth.signUp({ email: allowed, password, options: { emailRedirectTo: "https://app.example.org/after/sign-up" } });
      const toAllowed = await openLink(linkIn(await server.smtp.waitForMail(allowed, { subject: subjects.confirmation })));
      expect(toAllowed.target).toBe("https://app.example.org/after/sign-up");
      expect(sessionFrom(toAllowed).type).toBe("signup");

      await auth.signUp({ email: foreign, password, options: { emailRedirectTo: "https://evil.example.com/steal" } });
      const toSite = await openLink(linkIn(await server.smtp.waitForMail(foreign, { subject: subjects.confirmation })));
      expect(toSite.target).toBe(`${server.origin}/`);
      expect(sessionFrom(toSite).type).toBe("signup");
    });

    it("checks redirect_to again when the link is opened, so an edited link cannot send the session elsewhere", async () => {
      const member = await confirmedMember(server);
      for (const [index, redirectTo] of [
        "https://evil.example.com/steal",
        "https://app.example.org@evil.example.com/",
        `${server.origin}/x\r\nSet-Cookie: a=b`,
      ].entries()) {
        if (index > 0) server.clock.advance(61);
        await server.client().auth.signInWithOtp({ email: member.email });
        const link = new URL(linkIn(await server.smtp.waitForMail(member.email, { subject: subjects.magicLink })));
        link.searchParams.set("redirect_to", redirectTo);
        const opened = await openLink(link.toString());
        expect(opened.status, redirectTo).toBe(303);
        expect(opened.target, redirectTo).toBe(`${server.origin}/`);
        expect(sessionFrom(opened).type).toBe("magiclink");
      }
    });

    it("confirms with the six-digit code through verifyOtp, after which the link is spent", async () => {
      const email = uniqueEmail("code");
      await server.invite(email);
      const { auth } = server.client();
      await auth.signUp({ email, password });
      const mail = await server.smtp.waitForMail(email, { subject: subjects.confirmation });

      const { data, error } = await auth.verifyOtp({ email, token: codeIn(mail), type: "signup" });
      expect(error).toBeNull();
      expect(data.session?.access_token).toBeTruthy();
      expect(data.user?.email_confirmed_at).toBeDefined();
      expect((await auth.getUser()).data.user?.email).toBe(email);

      const spent = await openLink(linkIn(mail));
      expect(spent.status).toBe(303);
      expect(spent.fragment.get("error_code")).toBe("otp_expired");
      expect(spent.fragment.get("access_token")).toBeNull();
    });

    it("survives two sign-ups of one address at once (a double submit): one account, one mail, no 500", async () => {
      const email = uniqueEmail("double");
      await server.invite(email);
      const before = server.smtp.messages.length;
      const answers = await Promise.all(
        [1, 2, 3].map(() =>
          server.app.inject({
            method: "POST",
            url: "/auth/v1/signup",
            payload: { email, password },
            headers: { "x-supabase-api-version": "2024-01-01" },
          }),
        ),
      );
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses[0]).toBe(200);
      for (const answer of answers) expect([200, 429], answer.body).toContain(answer.statusCode);
      expect(await server.db.selectFrom("users").select("id").where("email", "=", email).execute()).toHaveLength(1);
      await server.smtp.waitForMail(email, { subject: subjects.confirmation });
      expect(server.smtp.messages.slice(before).filter((mail) => mail.to.includes(email))).toHaveLength(1);
    });

    it("answers a sign-up at once while the mail server refuses its mail, and lets the person ask again after the interval", async () => {
      const email = uniqueEmail("bounced");
      await server.invite(email);
      const { auth } = server.client();
      server.smtp.rejectNext();
      // The mail is queued (ADR 0077): the answer no longer tells how the mail server fared (was 502).
      expect((await auth.signUp({ email, password })).error).toBeNull();
      await vi.waitFor(
        async () => {
          const [latest] = await server.db
            .selectFrom("mail_outbox")
            .select("state")
            .where("kind", "=", "confirmation")
            .orderBy("created_at", "desc")
            .limit(1)
            .execute();
          expect(latest?.state).toBe("rejected");
        },
        { timeout: 5000, interval: 20 },
      );

      server.clock.advance(61);
      expect((await auth.resend({ type: "signup", email })).error).toBeNull();
      const session = sessionFrom(
        await openLink(linkIn(await server.smtp.waitForMail(email, { subject: subjects.confirmation }))),
      );
      expect(session.type).toBe("signup");
    });

    it("lets a repeated sign-up of an unconfirmed address mail a link of its own, never changing what the owner chose", async () => {
      // Otherwise anyone knowing the address could set the password the owner's link then confirms.
      const email = uniqueEmail("pending");
      await server.invite(email);
      const ownersBrowser = server.client();
      const owner = await ownersBrowser.auth.signUp({ email, password, options: { data: { full_name: "Owner" } } });
      expect(owner.error).toBeNull();
      const ownersMail = await server.smtp.waitForMail(email, { subject: subjects.confirmation });

      const attacker = server.client().auth;
      const hasty = await attacker.signUp({
        email,
        password: "attacker's passphrase",
        options: { data: { full_name: "Mallory" } },
      });
      expect(hasty.error).toMatchObject({ status: 429, code: "over_email_send_rate_limit" });
      server.clock.advance(61);
      const later = await attacker.signUp({
        email,
        password: "attacker's passphrase",
        options: { data: { full_name: "Mallory" } },
      });
      expect(later.error).toBeNull();
      expect(later.data.user?.id).toBe(owner.data.user!.id);
      const attackersLink = linkIn(await server.smtp.waitForMail(email, { subject: subjects.confirmation }));

      // The owner confirms with their own link, in their own browser: their choices stand.
      const session = sessionFrom(await ownersBrowser.openLink(linkIn(ownersMail)));
      expect((await getUser(server, session.access_token)).json()).toMatchObject({ user_metadata: { full_name: "Owner" } });
      expect((await server.client().auth.signInWithPassword({ email, password: "attacker's passphrase" })).error).toMatchObject({
        code: "invalid_credentials",
      });
      await signedInClient(server, email);
      // The attacker's link died with the owner's confirmation.
      expect((await openLink(attackersLink)).fragment.get("error_code")).toBe("otp_expired");
    });
  });

  describe("password sign-in", () => {
    let member: { email: string; userId: string };
    beforeAll(async () => {
      member = await confirmedMember(server);
    });

    it("signs in with the right password", async () => {
      const { auth } = server.client();
      const { data, error } = await auth.signInWithPassword({ email: member.email, password });
      expect(error).toBeNull();
      expect(data.session).toMatchObject({ token_type: "bearer", expires_in: 3600, user: { id: member.userId } });
      expect(data.session?.refresh_token).toBeTruthy();
      expect((await auth.getUser()).data.user?.id).toBe(member.userId);
    });

    it("refuses a wrong password with invalid_credentials", async () => {
      const { auth } = server.client();
      const { data, error } = await auth.signInWithPassword({ email: member.email, password: "not the password" });
      expect(data.session).toBeNull();
      expect(error).toMatchObject({ status: 400, code: "invalid_credentials" });
    });

    it("refuses an unconfirmed account with email_not_confirmed", async () => {
      const email = uniqueEmail("unconfirmed");
      await server.invite(email);
      const { auth } = server.client();
      await auth.signUp({ email, password });
      const { error } = await auth.signInWithPassword({ email, password });
      expect(error).toMatchObject({ status: 400, code: "email_not_confirmed" });
    });
  });

  describe("sign-out scopes", () => {
    async function sessionsOf(count: number) {
      const member = await confirmedMember(server);
      const clients = [];
      for (let i = 0; i < count; i += 1) clients.push(await signedInClient(server, member.email));
      return clients;
    }

    async function expectEnded(session: { access_token: string; refresh_token: string }) {
      const user = await getUser(server, session.access_token);
      expect(user.statusCode).toBe(403);
      expect(user.json()).toMatchObject({ code: "session_not_found" });
      const refreshed = await refreshWith(server, session.refresh_token);
      expect(refreshed.statusCode).toBe(400);
      expect(refreshed.json<{ code: string }>().code).toMatch(/^(refresh_token_not_found|session_not_found)$/);
    }

    async function expectLive(session: { access_token: string; refresh_token: string }) {
      expect((await getUser(server, session.access_token)).statusCode).toBe(200);
      expect((await refreshWith(server, session.refresh_token)).statusCode).toBe(200);
    }

    it("global ends every session of the user", async () => {
      const [a, b] = await sessionsOf(2);
      expect((await a!.auth.signOut({ scope: "global" })).error).toBeNull();
      expect((await a!.auth.getSession()).data.session).toBeNull();
      await expectEnded(a!.session);
      await expectEnded(b!.session);
    });

    it("local ends only the current session", async () => {
      const [a, b] = await sessionsOf(2);
      expect((await a!.auth.signOut({ scope: "local" })).error).toBeNull();
      expect((await a!.auth.getSession()).data.session).toBeNull();
      await expectEnded(a!.session);
      await expectLive(b!.session);
    });

    it("others ends every session but the current one", async () => {
      const [a, b, c] = await sessionsOf(3);
      expect((await a!.auth.signOut({ scope: "others" })).error).toBeNull();
      expect((await a!.auth.getSession()).data.session?.access_token).toBe(a!.session.access_token);
      await expectEnded(b!.session);
      await expectEnded(c!.session);
      await expectLive(a!.session);
    });
  });

  describe("changes to one's own account", () => {
    it("updates metadata and the profile's display name", async () => {
      const member = await confirmedMember(server, uniqueEmail("meta"), { data: { full_name: "Before", colour: "red" } });
      const { auth } = server.client();
      await auth.setSession(member.session);

      const { data, error } = await auth.updateUser({ data: { full_name: "After Name", colour: null, city: "Lyon" } });
      expect(error).toBeNull();
      expect(data.user?.user_metadata).toMatchObject({ full_name: "After Name", city: "Lyon" });
      expect(data.user?.user_metadata).not.toHaveProperty("colour");
      expect((await auth.getUser()).data.user?.user_metadata).toMatchObject({ full_name: "After Name", city: "Lyon" });
      const profile = await server.db
        .selectFrom("profiles")
        .selectAll()
        .where("user_id", "=", member.userId)
        .executeTakeFirstOrThrow();
      expect(profile.display_name).toBe("After Name");
    });

    it.each([
      ["only spaces", "   "],
      ["over 80 characters", "A".repeat(81)],
      ["not text", 42],
    ])("refuses a display name of %s and changes nothing", async (_case, fullName) => {
      const member = await confirmedMember(server, uniqueEmail("name"), { data: { full_name: "Kept" } });
      const { auth } = server.client();
      await auth.setSession(member.session);

      const { error } = await auth.updateUser({ data: { full_name: fullName, city: "Lyon" } });
      expect(error).toMatchObject({ status: 400, code: "validation_failed" });
      expect(error?.message).toContain("1 to 80 characters");
      expect((await auth.getUser()).data.user?.user_metadata).toEqual({ full_name: "Kept" });
    });

    it("changes the password in a fresh session without a nonce and ends the other sessions", async () => {
      const member = await confirmedMember(server);
      const current = await signedInClient(server, member.email);
      const other = await signedInClient(server, member.email);

      const { error } = await current.auth.updateUser({ password: "a brand new passphrase" });
      expect(error).toBeNull();
      expect((await getUser(server, other.session.access_token)).json()).toMatchObject({ code: "session_not_found" });
      expect((await getUser(server, current.session.access_token)).statusCode).toBe(200);
      expect((await server.client().auth.signInWithPassword({ email: member.email, password })).error).toMatchObject({
        code: "invalid_credentials",
      });
      await signedInClient(server, member.email, "a brand new passphrase");
    });

    it("refuses the same password with same_password", async () => {
      const member = await confirmedMember(server);
      const { auth } = server.client();
      await auth.setSession(member.session);
      const { error } = await auth.updateUser({ password });
      expect(error).toMatchObject({ status: 422, code: "same_password" });
    });

    it("needs the reauthentication code to change the password in a session older than a day", async () => {
      const member = await confirmedMember(server);
      const current = await signedInClient(server, member.email);
      const other = await signedInClient(server, member.email);
      server.clock.advance(25 * 3600);
      // The access tokens expired with the day; a refresh keeps the session (and its age).
      expect((await current.auth.refreshSession()).error).toBeNull();
      expect((await other.auth.refreshSession()).error).toBeNull();

      const without = await current.auth.updateUser({ password: "another long passphrase" });
      expect(without.error).toMatchObject({ status: 400, code: "reauthentication_needed" });
      // Not even whether a guess is the current password (same_password) without the nonce.
      const guess = await current.auth.updateUser({ password });
      expect(guess.error).toMatchObject({ status: 400, code: "reauthentication_needed" });
      const wrong = await current.auth.updateUser({ password: "another long passphrase", nonce: "000000" });
      expect(wrong.error).toMatchObject({ status: 422, code: "reauthentication_not_valid" });

      expect((await current.auth.reauthenticate()).error).toBeNull();
      const nonce = codeIn(await server.smtp.waitForMail(member.email, { subject: subjects.reauthentication }));
      const { error } = await current.auth.updateUser({ password: "another long passphrase", nonce });
      expect(error).toBeNull();

      const otherSession = (await other.auth.getSession()).data.session!;
      expect((await getUser(server, otherSession.access_token)).json()).toMatchObject({ code: "session_not_found" });
      expect((await current.auth.getUser()).error).toBeNull();
      await signedInClient(server, member.email, "another long passphrase");
    });

    it("switches the e-mail address once the invited new address confirms it", async () => {
      const member = await confirmedMember(server);
      const newEmail = uniqueEmail("moved");
      const { auth } = server.client();
      await auth.setSession(member.session);

      const uninvited = await auth.updateUser({ email: newEmail });
      expect(uninvited.error).toMatchObject({ status: 403, code: "email_not_invited" });

      await server.invite(newEmail);
      const { data, error } = await auth.updateUser({ email: newEmail }, { emailRedirectTo: `${server.origin}/settings` });
      expect(error).toBeNull();
      expect(data.user).toMatchObject({ email: member.email, new_email: newEmail });

      const opened = await openLink(linkIn(await server.smtp.waitForMail(newEmail, { subject: subjects.emailChange })));
      expect(opened.target).toBe(`${server.origin}/settings`);
      const session = sessionFrom(opened);
      expect(session.type).toBe("email_change");
      const user = (await getUser(server, session.access_token)).json<{ email: string; new_email?: string }>();
      expect(user.email).toBe(newEmail);
      expect(user.new_email).toBeUndefined();
      await signedInClient(server, newEmail);
      expect((await server.client().auth.signInWithPassword({ email: member.email, password })).error).toMatchObject({
        code: "invalid_credentials",
      });
      // The invitation moved with the address: the old one cannot sign up a new account.
      const oldStillInvited = await server.app.inject({
        method: "POST",
        url: "/rest/v1/rpc/is_email_invited",
        payload: { check_email: member.email },
      });
      expect(oldStillInvited.json()).toBe(false);
      expect(
        (await server.client().auth.signUp({ email: member.email, password: "a fresh long passphrase" })).error,
      ).toMatchObject({
        code: "email_not_invited",
      });
    });

    it("switches the e-mail address with the code sent to the new address", async () => {
      const member = await confirmedMember(server);
      const newEmail = uniqueEmail("moved-by-code");
      await server.invite(newEmail);
      const { auth } = server.client();
      await auth.setSession(member.session);
      expect((await auth.updateUser({ email: newEmail })).error).toBeNull();
      const code = codeIn(await server.smtp.waitForMail(newEmail, { subject: subjects.emailChange }));

      const { data, error } = await auth.verifyOtp({ email: newEmail, token: code, type: "email_change" });
      expect(error).toBeNull();
      expect(data.user?.email).toBe(newEmail);
      expect((await auth.getUser()).data.user?.email).toBe(newEmail);
    });
  });

  describe("e-mailed ways in", () => {
    it("recovers the account: the link signs in for a password change", async () => {
      const member = await confirmedMember(server);
      const { auth } = server.client();
      expect((await auth.resetPasswordForEmail(member.email, { redirectTo: `${server.origin}/reset` })).error).toBeNull();

      const opened = await openLink(linkIn(await server.smtp.waitForMail(member.email, { subject: subjects.recovery })));
      expect(opened.target).toBe(`${server.origin}/reset`);
      const session = sessionFrom(opened);
      expect(session.type).toBe("recovery");
      await auth.setSession(session);
      expect((await auth.updateUser({ password: "recovered passphrase" })).error).toBeNull();
      await signedInClient(server, member.email, "recovered passphrase");
    });

    it("sends one mail for a burst of recovery requests, however they race", async () => {
      const member = await confirmedMember(server);
      const before = server.smtp.messages.length;
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          server.app.inject({ method: "POST", url: "/auth/v1/recover", payload: { email: member.email } }),
        ),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
      await server.smtp.waitForMail(member.email, { subject: subjects.recovery });
      // A control member's confirmation mail, sent afterwards, arrives after any stragglers would have.
      await confirmedMember(server);
      expect(server.smtp.messages.slice(before).filter((mail) => mail.to.includes(member.email))).toHaveLength(1);
    });

    it("lets only the newest recovery link work, once", async () => {
      const member = await confirmedMember(server);
      const { auth } = server.client();
      await auth.resetPasswordForEmail(member.email);
      const first = linkIn(await server.smtp.waitForMail(member.email, { subject: subjects.recovery }));
      server.clock.advance(61);
      await auth.resetPasswordForEmail(member.email);
      const second = linkIn(await server.smtp.waitForMail(member.email, { subject: subjects.recovery }));

      expect((await openLink(first)).fragment.get("error_code")).toBe("otp_expired");
      expect(sessionFrom(await openLink(second)).type).toBe("recovery");
      expect((await openLink(second)).fragment.get("error_code")).toBe("otp_expired");
    });

    it("voids a pending recovery link when the password changes (GHSA-mr34-8733-grr2)", async () => {
      const member = await confirmedMember(server);
      await server.client().auth.resetPasswordForEmail(member.email);
      const pending = linkIn(await server.smtp.waitForMail(member.email, { subject: subjects.recovery }));

      const { auth } = await signedInClient(server, member.email);
      expect((await auth.updateUser({ password: "changed in the meantime" })).error).toBeNull();
      const opened = await openLink(pending);
      expect(opened.fragment.get("access_token")).toBeNull();
      expect(opened.fragment.get("error_code")).toBe("otp_expired");
    });

    it("signs a member in with a magic link", async () => {
      const member = await confirmedMember(server);
      const { auth } = server.client();
      const { data, error } = await auth.signInWithOtp({
        email: member.email,
        options: { emailRedirectTo: "https://app.example.org/in" },
      });
      expect(error).toBeNull();
      expect(data).toMatchObject({ user: null, session: null });

      const opened = await openLink(linkIn(await server.smtp.waitForMail(member.email, { subject: subjects.magicLink })));
      expect(opened.target).toBe("https://app.example.org/in");
      const session = sessionFrom(opened);
      expect(session.type).toBe("magiclink");
      expect((await getUser(server, session.access_token)).json()).toMatchObject({ id: member.userId });
    });

    it("accepts a magic link's code with type email, and its token as token_hash", async () => {
      const member = await confirmedMember(server);
      const { auth } = server.client();
      await auth.signInWithOtp({ email: member.email });
      const byCode = await auth.verifyOtp({
        email: member.email,
        token: codeIn(await server.smtp.waitForMail(member.email, { subject: subjects.magicLink })),
        type: "email",
      });
      expect(byCode.error).toBeNull();
      expect(byCode.data.session?.user.id).toBe(member.userId);

      server.clock.advance(61);
      await auth.signInWithOtp({ email: member.email });
      const token = new URL(
        linkIn(await server.smtp.waitForMail(member.email, { subject: subjects.magicLink })),
      ).searchParams.get("token")!;
      const byHash = await server.client().auth.verifyOtp({ token_hash: token, type: "magiclink" });
      expect(byHash.error).toBeNull();
      expect(byHash.data.session?.user.id).toBe(member.userId);
    });

    it("creates the account of an invited newcomer asking for a magic link, with a confirmation mail", async () => {
      const email = uniqueEmail("newcomer");
      await server.invite(email);
      const { auth } = server.client();
      expect((await auth.signInWithOtp({ email })).error).toBeNull();
      const session = sessionFrom(
        await openLink(linkIn(await server.smtp.waitForMail(email, { subject: subjects.confirmation }))),
      );
      expect(session.type).toBe("signup");
      expect((await getUser(server, session.access_token)).json()).toMatchObject({ email, email_confirmed_at: anyString });
    });
  });

  describe("PKCE", () => {
    const verifierKey = (storage: { items: Map<string, string> }) =>
      [...storage.items.keys()].find((key) => key.endsWith("-code-verifier"))!;

    it("redirects with ?code= that exchangeCodeForSession trades for a session, once", async () => {
      const email = uniqueEmail("pkce");
      await server.invite(email);
      const { auth, storage } = server.client("pkce");
      const signedUp = await auth.signUp({
        email,
        password,
        options: { emailRedirectTo: `${server.origin}/callback?from=mail` },
      });
      expect(signedUp.error).toBeNull();
      expect(signedUp.data.session).toBeNull();
      const key = verifierKey(storage);
      const verifier = storage.getItem(key)!;
      expect(verifier).toBeTruthy();

      const opened = await openLink(linkIn(await server.smtp.waitForMail(email, { subject: subjects.confirmation })));
      expect(opened.status).toBe(303);
      expect(opened.target).toBe(`${server.origin}/callback`);
      expect(opened.query.get("from")).toBe("mail");
      expect(opened.fragment.get("access_token")).toBeNull();
      const code = opened.query.get("code")!;
      expect(code).toBeTruthy();

      const { data, error } = await auth.exchangeCodeForSession(code);
      expect(error).toBeNull();
      expect(data.session?.user.email).toBe(email);
      expect((await auth.getUser()).data.user?.email_confirmed_at).toBeDefined();

      // The verifier is gone from storage after an exchange; put it back to try the code again.
      storage.setItem(key, verifier);
      const reused = await auth.exchangeCodeForSession(code);
      expect(reused.error).toMatchObject({ status: 404, code: "flow_state_not_found" });
    });

    it("refuses a code with the wrong verifier with bad_code_verifier", async () => {
      const email = uniqueEmail("pkce-wrong");
      await server.invite(email);
      const { auth, storage } = server.client("pkce");
      await auth.signUp({ email, password });
      const key = verifierKey(storage);
      const verifier = storage.getItem(key)!;
      const code = (await openLink(linkIn(await server.smtp.waitForMail(email, { subject: subjects.confirmation })))).query.get(
        "code",
      )!;

      storage.setItem(key, JSON.stringify("a".repeat(112)));
      const wrong = await auth.exchangeCodeForSession(code);
      expect(wrong.error).toMatchObject({ status: 400, code: "bad_code_verifier" });
      // A wrong guess does not burn the code for its rightful owner.
      storage.setItem(key, verifier);
      expect((await auth.exchangeCodeForSession(code)).error).toBeNull();
    });

    it.each([
      ["plain", (verifier: string) => verifier],
      ["S256", (verifier: string) => createHash("sha256").update(verifier).digest("base64url")],
    ])("accepts the %s challenge method, in any letter case", async (method, challengeOf) => {
      const member = await confirmedMember(server);
      const verifier = randomBytes(48).toString("base64url");
      const asked = await server.app.inject({
        method: "POST",
        url: "/auth/v1/otp",
        payload: { email: member.email, code_challenge: challengeOf(verifier), code_challenge_method: method },
      });
      expect(asked.statusCode).toBe(200);
      const code = (
        await openLink(linkIn(await server.smtp.waitForMail(member.email, { subject: subjects.magicLink })))
      ).query.get("code")!;
      const exchanged = await server.app.inject({
        method: "POST",
        url: "/auth/v1/token?grant_type=pkce",
        payload: { auth_code: code, code_verifier: verifier },
      });
      expect(exchanged.statusCode, exchanged.body).toBe(200);
      expect(exchanged.json()).toMatchObject({ token_type: "bearer", user: { id: member.userId } });
    });

    it("refuses an auth code older than five minutes with flow_state_expired", async () => {
      const member = await confirmedMember(server);
      const { auth } = server.client("pkce");
      await auth.signInWithOtp({ email: member.email });
      const code = (
        await openLink(linkIn(await server.smtp.waitForMail(member.email, { subject: subjects.magicLink })))
      ).query.get("code")!;
      server.clock.advance(301);
      const { error } = await auth.exchangeCodeForSession(code);
      expect(error).toMatchObject({ status: 422, code: "flow_state_expired" });
    });

    it("marks a recovery exchange as such, for the PASSWORD_RECOVERY event", async () => {
      const member = await confirmedMember(server);
      const { auth } = server.client("pkce");
      const events: string[] = [];
      auth.onAuthStateChange((event) => {
        events.push(event);
      });
      expect((await auth.resetPasswordForEmail(member.email)).error).toBeNull();
      const code = (
        await openLink(linkIn(await server.smtp.waitForMail(member.email, { subject: subjects.recovery })))
      ).query.get("code")!;
      const { data, error } = await auth.exchangeCodeForSession(code);
      expect(error).toBeNull();
      expect(data.session?.user.email).toBe(member.email);
      expect(events).toContain("PASSWORD_RECOVERY");
      expect((await auth.updateUser({ password: "pkce recovered passphrase" })).error).toBeNull();
    });
  });

  it("getClaims() verifies the ES256 access token locally with the published JWKS", async () => {
    const member = await confirmedMember(server);
    const requests: string[] = [];
    const countingFetch: typeof fetch = (input, init) => {
      requests.push(`${init?.method ?? "GET"} ${new URL(input instanceof Request ? input.url : input.toString()).pathname}`);
      return fetch(input, init);
    };
    const { auth } = server.client("implicit", { fetch: countingFetch });
    await auth.signInWithPassword({ email: member.email, password });
    requests.length = 0;

    const { data, error } = await auth.getClaims();
    expect(error).toBeNull();
    expect(data?.header).toMatchObject({ alg: "ES256", typ: "JWT", kid: anyString });
    expect(data?.claims).toMatchObject({
      sub: member.userId,
      email: member.email,
      role: "authenticated",
      aal: "aal1",
      is_anonymous: false,
      session_id: anyString,
    });
    expect(requests).toEqual(["GET /auth/v1/.well-known/jwks.json"]);

    // A second call uses the cached key: no request at all.
    requests.length = 0;
    expect((await auth.getClaims()).error).toBeNull();
    expect(requests).toEqual([]);
  });
});

describe.each(testEngines())("sign-up with AUTH_AUTOCONFIRM (an open installation) on %s", (engine) => {
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthServer(engine, { env: { AUTH_AUTOCONFIRM: "true", AUTH_INVITE_ONLY: "false" } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("returns a session at once and sends no mail", async () => {
    const email = uniqueEmail("auto");
    await server.invite(email);
    const { auth } = server.client();
    const { data, error } = await auth.signUp({ email, password });
    expect(error).toBeNull();
    expect(data.session).toMatchObject({ token_type: "bearer", user: { email } });
    expect(data.user?.email_confirmed_at).toBeDefined();
    expect((await auth.getUser()).data.user?.email).toBe(email);
    expect(server.smtp.messages.filter((mail) => mail.to.includes(email))).toEqual([]);

    const again = await server.client().auth.signUp({ email, password });
    expect(again.error).toMatchObject({ status: 422, code: "user_already_exists" });
  });
});
