import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AuthTestServer,
  codeIn,
  linkIn,
  openLink,
  password,
  signedInClient,
  startAuthServer,
  uniqueEmail,
} from "../../../../test/auth-fixtures";
import { testEngines } from "../../../../test/test-database";

// Apps without cookies keep their sign-up password (ADR 0046): a mobile or Node client signing up
// with auth-js's PKCE flow has no cookie jar, so ADR 0014's browser binding never matches; the
// verifier of the challenge it signed up with proves it is the same client instead. The link may
// be opened anywhere (the phone's mail app, a browser without the cookie): the password becomes
// the account's when the client exchanges the link's code with its verifier, not before.

const confirmation = /Confirm your Memory Box account/;

describe.each(testEngines())("a PKCE sign-up from a client without cookies on %s", (engine) => {
  let server: AuthTestServer;

  beforeAll(async () => {
    server = await startAuthServer(engine, { env: { AUTH_EMAIL_MIN_INTERVAL: "0" } });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** auth-js in a Node process: PKCE, and Node's fetch, which keeps no cookies. */
  const appWithoutCookies = () => server.client("pkce", { fetch: (input, init) => fetch(input, init) });

  /** An invited address signed up from an app without cookies; the link opened in a browser without the sign-up's cookie. */
  async function signUpAndOpenLink(data: Record<string, unknown> = { full_name: "Dave Example" }) {
    const email = uniqueEmail("app");
    await server.invite(email);
    const app = appWithoutCookies();
    const signedUp = await app.auth.signUp({ email, password, options: { data } });
    expect(signedUp.error).toBeNull();
    expect(signedUp.data.session).toBeNull();
    const opened = await openLink(linkIn(await server.smtp.waitForMail(email, { subject: confirmation })));
    expect(opened.status).toBe(303);
    const code = opened.query.get("code");
    expect(code).toBeTruthy();
    return { email, app, code: code! };
  }

  const passwordSignIn = (email: string, chosen = password) =>
    appWithoutCookies().auth.signInWithPassword({ email, password: chosen });

  it("keeps the password and name it chose once it exchanges the link's code with its verifier", async () => {
    const { email, app, code } = await signUpAndOpenLink();
    const { data, error } = await app.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(data.session?.user).toMatchObject({ email, user_metadata: { full_name: "Dave Example" } });
    expect(data.session?.user.email_confirmed_at).toBeTruthy();

    const signIn = await passwordSignIn(email);
    expect(signIn.error).toBeNull();
    expect(signIn.data.session?.user.email).toBe(email);
    const profile = await server.db
      .selectFrom("profiles")
      .select("display_name")
      .where("user_id", "=", data.session!.user.id)
      .executeTakeFirstOrThrow();
    expect(profile.display_name).toBe("Dave Example");
  });

  it("keeps the language it chose too, for the member's e-mails", async () => {
    const { email, app, code } = await signUpAndOpenLink({ full_name: "Dora Example", locale: "de" });
    const { data, error } = await app.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(data.session?.user).toMatchObject({ email, user_metadata: { locale: "de" } });
    const user = await server.db.selectFrom("users").select("locale").where("email", "=", email).executeTakeFirstOrThrow();
    expect(user.locale).toBe("de");
  });

  it("opens nothing with the password before the exchange: the opened link alone confirms without it", async () => {
    const { email } = await signUpAndOpenLink();
    const signIn = await passwordSignIn(email);
    expect(signIn.error).toMatchObject({ code: "invalid_credentials" });
    expect(signIn.data.session).toBeNull();
  });

  it("drops the password when the code is first tried with another verifier, though the right one still signs in", async () => {
    const { email, app, code } = await signUpAndOpenLink();
    // Another client that got hold of the code, with a verifier of its own.
    const wrong = await server.app.inject({
      method: "POST",
      url: "/auth/v1/token?grant_type=pkce",
      payload: { auth_code: code, code_verifier: "another-clients-verifier-".repeat(3) },
    });
    expect(wrong.json()).toMatchObject({ error_code: "bad_code_verifier" });

    const { data, error } = await app.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(data.session?.user.email).toBe(email);
    expect((await passwordSignIn(email)).error).toMatchObject({ code: "invalid_credentials" });
  });

  it("keeps no password from a magic link's sign-up, whose password nobody chose", async () => {
    const email = uniqueEmail("magic");
    await server.invite(email);
    const app = appWithoutCookies();
    expect((await app.auth.signInWithOtp({ email })).error).toBeNull();
    const opened = await openLink(linkIn(await server.smtp.waitForMail(email, { subject: confirmation })));
    const { data, error } = await app.auth.exchangeCodeForSession(opened.query.get("code")!);
    expect(error).toBeNull();
    const row = await server.db
      .selectFrom("users")
      .select("encrypted_password")
      .where("id", "=", data.session!.user.id)
      .executeTakeFirstOrThrow();
    expect(row.encrypted_password).toBeNull();
  });

  it("keeps no password when the six-digit code is typed instead: no verifier proves the client then", async () => {
    const email = uniqueEmail("typed");
    await server.invite(email);
    const app = appWithoutCookies();
    expect((await app.auth.signUp({ email, password })).error).toBeNull();
    const mail = await server.smtp.waitForMail(email, { subject: confirmation });
    const verified = await app.auth.verifyOtp({ email, token: codeIn(mail), type: "signup" });
    expect(verified.error).toBeNull();
    expect((await passwordSignIn(email)).error).toMatchObject({ code: "invalid_credentials" });
    // The member sets one from the session the code gave.
    expect((await app.auth.updateUser({ password: "chosen after the code" })).error).toBeNull();
    await signedInClient(server, email, "chosen after the code");
  });
});
