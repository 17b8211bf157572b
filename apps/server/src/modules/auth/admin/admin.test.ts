import { randomUUID } from "node:crypto";
import { type AuthError, GoTrueAdminApi, isAuthWeakPasswordError } from "@supabase/auth-js";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AuthTestServer,
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
import { serviceTokenCommand } from "../../../cli/service-token.command";

// The admin API through the unmodified auth-js GoTrueAdminApi, against the real server, with a
// service-role token from the operator CLI.

const hsSecret = "an-hs256-secret-of-at-least-32-characters";

describe.each(testEngines())("the admin API through auth-js on %s", (engine) => {
  let server: AuthTestServer;
  let serviceToken: string;
  let admin: GoTrueAdminApi;

  const adminWith = (authorization?: string) =>
    new GoTrueAdminApi({ url: server.authUrl, headers: authorization ? { Authorization: authorization } : {} });
  /** A raw admin request, for what auth-js hides (headers, paths it validates itself). */
  const request = (method: string, path: string, body?: unknown) =>
    fetch(`${server.authUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${serviceToken}`,
        "x-supabase-api-version": "2024-01-01",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const expectError = (error: AuthError | null, status: number, code: string) => expect(error).toMatchObject({ status, code });
  const invitation = (email: string) =>
    server.db.selectFrom("invitations").selectAll().where("email", "=", email).executeTakeFirst();
  const auditActions = async () => (await server.db.selectFrom("audit_log").select("action").execute()).map((row) => row.action);
  /** An account made through the API, confirmed and with the shared password. */
  const member = async (email = uniqueEmail()) => {
    const { data, error } = await admin.createUser({ email, password, email_confirm: true });
    expect(error).toBeNull();
    return { email, id: data.user!.id };
  };

  beforeAll(async () => {
    server = await startAuthServer(engine, { env: { AUTH_JWT_SECRET: hsSecret } });
    const lines: string[] = [];
    await serviceTokenCommand.run({ args: [], db: server.db, out: (line) => lines.push(line), config: server.testApp.config });
    serviceToken = lines[0]!;
    admin = adminWith(`Bearer ${serviceToken}`);
  });
  afterAll(async () => {
    await server?.close();
  });

  describe("authorization", () => {
    it("answers 401 no_authorization without a bearer token", async () => {
      const { error } = await adminWith().listUsers();
      expectError(error, 401, "no_authorization");
      expectError((await adminWith("Basic abc").createUser({ email: uniqueEmail() })).error, 401, "no_authorization");
    });

    it("answers 403 bad_jwt for a token it cannot verify, before reading the body", async () => {
      expectError((await adminWith("Bearer not-a-jwt").listUsers()).error, 403, "bad_jwt");
      const forged = await new SignJWT({ role: "service_role" })
        .setProtectedHeader({ alg: "HS256" })
        .sign(new TextEncoder().encode("a-different-secret-of-32-characters-x"));
      expectError((await adminWith(`Bearer ${forged}`).createUser({ email: "not an address" })).error, 403, "bad_jwt");
    });

    it("answers 403 not_admin for a member's access token", async () => {
      const { email } = await member();
      const { session } = await signedInClient(server, email);
      expectError((await adminWith(`Bearer ${session.access_token}`).listUsers()).error, 403, "not_admin");
    });

    it("accepts an HS256 service-role token signed with AUTH_JWT_SECRET (the legacy Supabase service key)", async () => {
      const legacyKey = await new SignJWT({ role: "service_role", iss: "supabase" })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setIssuedAt()
        .sign(new TextEncoder().encode(hsSecret));
      const { data, error } = await adminWith(`Bearer ${legacyKey}`).listUsers();
      expect(error).toBeNull();
      expect(data.users).toBeInstanceOf(Array);
    });

    it("accepts a member given an admin role while their session lives", async () => {
      const { email, id } = await member();
      await admin.updateUserById(id, { role: "service_role" });
      const { auth, session } = await signedInClient(server, email);
      expect((await adminWith(`Bearer ${session.access_token}`).getUserById(id)).error).toBeNull();

      await auth.signOut();
      // auth-js turns session_not_found into AuthSessionMissingError, so the answer is read raw.
      const response = await fetch(`${server.authUrl}/admin/users`, {
        headers: { authorization: `Bearer ${session.access_token}`, "x-supabase-api-version": "2024-01-01" },
      });
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ code: "session_not_found" });
    });
  });

  describe("listing users", () => {
    it("pages with X-Total-Count and a Link header auth-js reads", async () => {
      await server.db.deleteFrom("users").execute();
      const emails = [uniqueEmail("first"), uniqueEmail("second"), uniqueEmail("third")];
      for (const email of emails) expect((await admin.createUser({ email })).error).toBeNull();

      const first = await admin.listUsers({ page: 1, perPage: 2 });
      expect(first.error).toBeNull();
      expect(first.data).toMatchObject({ aud: "authenticated", nextPage: 2, lastPage: 2, total: 3 });
      // Newest first, as Supabase Auth lists them.
      expect(first.data.users.map((user) => user.email)).toEqual([emails[2], emails[1]]);

      const second = await admin.listUsers({ page: 2, perPage: 2 });
      expect(second.data).toMatchObject({ nextPage: null, lastPage: 2, total: 3 });
      expect(second.data.users.map((user) => user.email)).toEqual([emails[0]]);

      // Empty parameters (what auth-js sends by default) mean page 1 of 50.
      const all = await admin.listUsers();
      expect(all.data).toMatchObject({ nextPage: null, lastPage: 1, total: 3 });
      expect(all.data.users).toHaveLength(3);

      const response = await request("GET", "/admin/users?page=1&per_page=2");
      expect(response.headers.get("x-total-count")).toBe("3");
      expect(response.headers.get("link")).toBe(
        '</auth/v1/admin/users?page=2&per_page=2>; rel="next", </auth/v1/admin/users?page=2&per_page=2>; rel="last"',
      );
    });

    it("filters by a part of the address and refuses bad page numbers", async () => {
      const email = uniqueEmail("findme");
      await admin.createUser({ email });
      const response = await request("GET", `/admin/users?page=&per_page=&filter=${encodeURIComponent(email.slice(0, 14))}`);
      const body = (await response.json()) as { users: { email: string }[] };
      expect(body.users.map((user) => user.email)).toEqual([email]);
      expect(response.headers.get("link")).toBe(
        `</auth/v1/admin/users?page=1&per_page=50&filter=${email.slice(0, 14)}>; rel="last"`,
      );

      const bad = await request("GET", "/admin/users?page=0");
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ code: "validation_failed" });
    });
  });

  describe("creating users", () => {
    it("creates a confirmed account with metadata, a profile and an invitation, without mail", async () => {
      const email = uniqueEmail("created");
      const mailsBefore = server.smtp.messages.length;
      const { data, error } = await admin.createUser({
        email: email.toUpperCase(),
        password,
        email_confirm: true,
        user_metadata: { full_name: "Cora Created" },
        app_metadata: { plan: "family" },
      });
      expect(error).toBeNull();
      expect(data.user).toMatchObject({
        email,
        role: "authenticated",
        user_metadata: { full_name: "Cora Created" },
        app_metadata: { provider: "email", providers: ["email"], plan: "family" },
        identities: [expect.objectContaining({ provider: "email", email })],
      });
      expect(data.user?.email_confirmed_at).toBeDefined();

      const profile = await server.db
        .selectFrom("profiles")
        .select("display_name")
        .where("user_id", "=", data.user!.id)
        .executeTakeFirst();
      expect(profile?.display_name).toBe("Cora Created");
      expect(await invitation(email)).toMatchObject({ invited_by: "admin", used_by: data.user!.id });
      expect(await auditActions()).toContain("admin.user_created");
      // Nothing mailed to the address (another test's mail may still be arriving for someone else).
      expect(server.smtp.messages.slice(mailsBefore).filter((mail) => mail.to.includes(email))).toEqual([]);

      // The operator's password works at once.
      await signedInClient(server, email);
    });

    it("creates an unconfirmed account without a password, named after the address", async () => {
      const email = uniqueEmail("plain");
      const { data } = await admin.createUser({ email, role: "editor", ban_duration: "none" });
      expect(data.user).toMatchObject({ email, role: "editor" });
      expect(data.user?.email_confirmed_at).toBeUndefined();
      const row = await server.db
        .selectFrom("users")
        .innerJoin("profiles", "profiles.user_id", "users.id")
        .select(["encrypted_password", "display_name"])
        .where("email", "=", email)
        .executeTakeFirst();
      expect(row).toEqual({ encrypted_password: null, display_name: email.split("@")[0] });
    });

    it("refuses a taken address, a phone number, a missing address and an overlong password", async () => {
      const { email } = await member();
      expectError((await admin.createUser({ email })).error, 422, "email_exists");
      expectError((await admin.createUser({ phone: "+15555550100" })).error, 422, "phone_provider_disabled");
      expectError((await admin.createUser({})).error, 400, "validation_failed");
      expectError((await admin.createUser({ email: uniqueEmail(), password: "x".repeat(73) })).error, 400, "validation_failed");
      expectError((await admin.createUser({ email: uniqueEmail(), ban_duration: "forever" })).error, 400, "validation_failed");
    });
  });

  describe("reading, updating and deleting a user", () => {
    it("gets a user by id; an unknown id is 404 user_not_found, a malformed one 404 validation_failed", async () => {
      const { email, id } = await member();
      const { data, error } = await admin.getUserById(id);
      expect(error).toBeNull();
      expect(data.user).toMatchObject({ id, email });

      expectError((await admin.getUserById(randomUUID())).error, 404, "user_not_found");
      const malformed = await request("GET", "/admin/users/not-a-uuid");
      expect(malformed.status).toBe(404);
      expect(await malformed.json()).toMatchObject({ code: "validation_failed" });
    });

    it("changes the address at once, moves the invitation and merges metadata", async () => {
      const { email, id } = await member();
      await admin.updateUserById(id, { user_metadata: { full_name: "Old Name", color: "blue" } });
      const newEmail = uniqueEmail("moved");

      const { data, error } = await admin.updateUserById(id, {
        email: newEmail,
        user_metadata: { full_name: "New Name", color: null },
        app_metadata: { plan: "pro" },
      });
      expect(error).toBeNull();
      expect(data.user).toMatchObject({
        email: newEmail,
        user_metadata: { full_name: "New Name" },
        app_metadata: { provider: "email", plan: "pro" },
      });
      expect(data.user?.user_metadata).not.toHaveProperty("color");
      const profile = await server.db.selectFrom("profiles").select("display_name").where("user_id", "=", id).executeTakeFirst();
      expect(profile?.display_name).toBe("New Name");

      expect(await invitation(newEmail)).toMatchObject({ used_by: id });
      expect(await invitation(email)).toBeUndefined();
      await signedInClient(server, newEmail);
      expect(await auditActions()).toContain("admin.user_updated");
    });

    it("refuses a taken address and a weak password", async () => {
      const { id } = await member();
      const other = await member();
      expectError((await admin.updateUserById(id, { email: other.email })).error, 422, "email_exists");

      const { error } = await admin.updateUserById(id, { password: "short" });
      expectError(error, 422, "weak_password");
      expect(isAuthWeakPasswordError(error) && error.reasons).toEqual(["length"]);
    });

    it("sets a new password and ends every session", async () => {
      const { email, id } = await member();
      const { session } = await signedInClient(server, email);

      const { error } = await admin.updateUserById(id, { password: "a brand new passphrase" });
      expect(error).toBeNull();

      expect((await getUser(server, session.access_token)).json()).toMatchObject({ code: "session_not_found" });
      expect((await refreshWith(server, session.refresh_token)).statusCode).toBe(400);
      await signedInClient(server, email, "a brand new passphrase");
    });

    it("bans a member (ending their sessions) and lifts the ban", async () => {
      const { email, id } = await member();
      const { session } = await signedInClient(server, email);

      const banned = await admin.updateUserById(id, { ban_duration: "1h30m" });
      expect(banned.error).toBeNull();
      const banLeft = Date.parse(banned.data.user!.banned_until!) - server.clock.now().getTime();
      expect(banLeft).toBeGreaterThan(89 * 60 * 1000);
      expect(banLeft).toBeLessThanOrEqual(90 * 60 * 1000);

      const { error: signInError } = await server.client().auth.signInWithPassword({ email, password });
      expectError(signInError, 400, "user_banned");
      const refresh = await refreshWith(server, session.refresh_token);
      expect(refresh.statusCode).toBe(400);
      expect(await server.db.selectFrom("sessions").select("id").where("user_id", "=", id).execute()).toEqual([]);
      expect(await auditActions()).toContain("admin.user_banned");

      const lifted = await admin.updateUserById(id, { ban_duration: "none" });
      expect(lifted.data.user?.banned_until).toBeUndefined();
      await signedInClient(server, email);
    });

    it("deletes a user with their sessions", async () => {
      const { email, id } = await member();
      const { session } = await signedInClient(server, email);

      const { data, error } = await admin.deleteUser(id);
      expect(error).toBeNull();
      expect(data.user).toEqual({});

      expectError((await admin.getUserById(id)).error, 404, "user_not_found");
      expect(await server.db.selectFrom("sessions").select("id").where("user_id", "=", id).execute()).toEqual([]);
      expect((await refreshWith(server, session.refresh_token)).statusCode).toBe(400);
      expectError((await admin.deleteUser(id)).error, 404, "user_not_found");
      expect(await auditActions()).toContain("admin.user_deleted");
    });
  });

  describe("generating links", () => {
    const redirectTo = () => `${server.origin}/welcome`;

    it("signup: creates the account; the link confirms it and signs in", async () => {
      const email = uniqueEmail("signup");
      const mailsBefore = server.smtp.messages.length;
      const { data, error } = await admin.generateLink({
        type: "signup",
        email,
        password,
        options: { data: { full_name: "Sig Nup" }, redirectTo: redirectTo() },
      });
      expect(error).toBeNull();
      expect(data.user).toMatchObject({ email, user_metadata: { full_name: "Sig Nup" } });
      expect(data.properties).toMatchObject({ verification_type: "signup", redirect_to: redirectTo() });
      expect(data.properties?.email_otp).toMatch(/^\d{6}$/);
      expect(data.properties?.action_link).toBe(
        `${server.authUrl}/verify?token=${data.properties?.hashed_token}&type=signup&redirect_to=${encodeURIComponent(redirectTo())}`,
      );
      // Nothing mailed to the address (another test's mail may still be arriving for someone else).
      expect(server.smtp.messages.slice(mailsBefore).filter((mail) => mail.to.includes(email))).toEqual([]);
      expect(await invitation(email)).toMatchObject({ invited_by: "admin" });

      const opened = await openLink(data.properties!.action_link);
      expect(opened.target).toBe(redirectTo());
      expect(sessionFrom(opened).type).toBe("signup");
      await signedInClient(server, email);

      expectError((await admin.generateLink({ type: "signup", email, password })).error, 422, "email_exists");
      const withoutPassword = await request("POST", "/admin/generate_link", { type: "signup", email: uniqueEmail() });
      expect(withoutPassword.status).toBe(400);
      expect(await withoutPassword.json()).toMatchObject({
        code: "validation_failed",
        message: "Signup requires a valid password",
      });
    });

    it("invite: creates the account with invited_at; the link signs in", async () => {
      const email = uniqueEmail("invitee");
      const { data, error } = await admin.generateLink({ type: "invite", email, options: { data: { full_name: "In Vitee" } } });
      expect(error).toBeNull();
      expect(data.user?.invited_at).toBeDefined();
      expect(data.properties?.verification_type).toBe("invite");
      expect(await invitation(email)).toMatchObject({ used_by: null });

      expect(sessionFrom(await openLink(data.properties!.action_link)).type).toBe("invite");
      expect(await invitation(email)).toMatchObject({ used_by: data.user!.id });
      expectError((await admin.generateLink({ type: "invite", email })).error, 422, "email_exists");
    });

    it("magiclink: signs an existing member in; for a new address it is a sign-up", async () => {
      const { email } = await member();
      const existing = await admin.generateLink({ type: "magiclink", email });
      expect(existing.data.properties?.verification_type).toBe("magiclink");
      expect(sessionFrom(await openLink(existing.data.properties!.action_link)).type).toBe("magiclink");

      const newcomer = uniqueEmail("newcomer");
      const created = await admin.generateLink({ type: "magiclink", email: newcomer });
      expect(created.error).toBeNull();
      expect(created.data.properties?.verification_type).toBe("signup");
      expect(sessionFrom(await openLink(created.data.properties!.action_link)).type).toBe("signup");
    });

    it("recovery: signs in to set a new password; an unknown address is 404", async () => {
      const { email } = await member();
      const { data } = await admin.generateLink({ type: "recovery", email });
      expect(sessionFrom(await openLink(data.properties!.action_link)).type).toBe("recovery");
      expectError((await admin.generateLink({ type: "recovery", email: uniqueEmail() })).error, 404, "user_not_found");
    });

    it("email_change_new and email_change_current: the link switches the address", async () => {
      for (const type of ["email_change_new", "email_change_current"] as const) {
        const { email, id } = await member();
        const newEmail = uniqueEmail("changed");
        const { data, error } = await admin.generateLink({ type, email, newEmail });
        expect(error).toBeNull();
        expect(data.user).toMatchObject({ email, new_email: newEmail });
        expect(data.properties?.verification_type).toBe(type);
        expect(data.properties?.action_link).toContain("type=email_change");

        expect(sessionFrom(await openLink(data.properties!.action_link)).type).toBe("email_change");
        expect((await admin.getUserById(id)).data.user?.email).toBe(newEmail);
      }
      const { email } = await member();
      const taken = await member();
      expectError(
        (await admin.generateLink({ type: "email_change_new", email, newEmail: taken.email })).error,
        422,
        "email_exists",
      );
      expectError(
        (await admin.generateLink({ type: "email_change_new", email: uniqueEmail(), newEmail: uniqueEmail() })).error,
        404,
        "user_not_found",
      );
    });

    it("refuses an unknown type", async () => {
      const response = await request("POST", "/admin/generate_link", { type: "sms", email: uniqueEmail() });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: "validation_failed" });
    });
  });

  describe("inviting by e-mail", () => {
    it("puts the address on the list, creates the account and mails a link that signs in", async () => {
      const email = uniqueEmail("guest");
      const { data, error } = await admin.inviteUserByEmail(email, {
        data: { full_name: "Gus Guest" },
        redirectTo: `${server.origin}/welcome`,
      });
      expect(error).toBeNull();
      expect(data.user).toMatchObject({ email, user_metadata: { full_name: "Gus Guest" } });
      expect(data.user?.invited_at).toBeDefined();
      expect(data.user?.email_confirmed_at).toBeUndefined();
      expect(await invitation(email)).toMatchObject({ invited_by: "admin" });
      const profile = await server.db
        .selectFrom("profiles")
        .select("display_name")
        .where("user_id", "=", data.user!.id)
        .executeTakeFirst();
      expect(profile?.display_name).toBe("Gus Guest");

      const mail = await server.smtp.waitForMail(email, { subject: /invited/ });
      const opened = await openLink(linkIn(mail));
      expect(opened.target).toBe(`${server.origin}/welcome`);
      const session = sessionFrom(opened);
      expect(session.type).toBe("invite");
      const signedIn = (await getUser(server, session.access_token)).json<{ email: string; email_confirmed_at?: string }>();
      expect(signedIn.email).toBe(email);
      expect(signedIn.email_confirmed_at).toBeDefined();
      expect(await auditActions()).toContain("admin.user_invited");

      expectError((await admin.inviteUserByEmail(email)).error, 422, "email_exists");
    });

    it("re-invites an account that has not accepted yet", async () => {
      const email = uniqueEmail("twice");
      const first = await admin.inviteUserByEmail(email);
      await server.smtp.waitForMail(email);
      server.clock.advance(61);
      const second = await admin.inviteUserByEmail(email);
      expect(second.error).toBeNull();
      expect(second.data.user?.id).toBe(first.data.user?.id);
      await server.smtp.waitForMail(email);
    });
  });
});
