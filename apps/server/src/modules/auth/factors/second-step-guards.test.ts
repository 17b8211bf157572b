import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AuthTestServer,
  confirmedMember,
  enrolTotp,
  getUser,
  password,
  startAuthServer,
  uniqueEmail,
} from "../../../../test/auth-fixtures";
import { startOidcProvider, type TestOidcProvider } from "../../../../test/oidc-test-provider";
import { testEngines } from "../../../../test/test-database";

// Once a member has a verified second factor, the password alone (an aal1 session) no longer
// changes how the account is reached: a new password or address, other devices' sessions, linked
// provider accounts and wallets. Each is tried as someone who has the password but not the
// phone, and each is refused with 403 insufficient_aal, changing nothing; the session that proved
// the code does all of it; an account without a factor keeps what auth-js expects.

const providerId = "test-idp";
const newPassword = "a different horse battery staple";
const headers = (accessToken: string) => ({ authorization: `Bearer ${accessToken}`, "x-supabase-api-version": "2024-01-01" });

describe.each(testEngines())("Second-step guards on %s", (engine) => {
  let server: AuthTestServer;
  let idp: TestOidcProvider;

  beforeAll(async () => {
    idp = await startOidcProvider();
    server = await startAuthServer(engine, {
      env: {
        AUTH_OIDC_PROVIDERS: JSON.stringify([idp.setting(providerId, "Test Provider")]),
        AUTH_REDIRECT_URLS: "https://app.example.org/**",
        AUTH_WEB3_ETHEREUM_ENABLED: "true",
      },
    });
    idp.register(`${server.authUrl}/callback`);
  });
  afterAll(async () => {
    await server?.close();
    await idp?.close();
  });

  const signIn = async (email: string, secret = password) => {
    const response = await server.app.inject({
      method: "POST",
      url: "/auth/v1/token?grant_type=password",
      headers: { "x-supabase-api-version": "2024-01-01" },
      payload: { email, password: secret },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ access_token: string; refresh_token: string }>();
  };

  /** A member whose authenticator app is verified: the session that verified it (aal2) and a password-only one (aal1). */
  async function memberWithFactor() {
    const member = await confirmedMember(server);
    const { session: aal2 } = await enrolTotp(server.app, member.session.access_token, { now: server.clock.now });
    const aal1 = await signIn(member.email);
    return { ...member, aal1, aal2 };
  }

  const updateUser = (accessToken: string, payload: object) =>
    server.app.inject({ method: "PUT", url: "/auth/v1/user", headers: headers(accessToken), payload });
  const logout = (accessToken: string, scope: string) =>
    server.app.inject({ method: "POST", url: `/auth/v1/logout?scope=${scope}`, headers: headers(accessToken) });
  const startLinking = (accessToken: string) =>
    server.app.inject({
      method: "GET",
      url: `/auth/v1/user/identities/authorize?provider=${providerId}&skip_http_redirect=true`,
      headers: headers(accessToken),
    });
  const linkIdToken = (accessToken: string, idToken: string) =>
    server.app.inject({
      method: "POST",
      url: "/auth/v1/token?grant_type=id_token",
      headers: headers(accessToken),
      payload: { provider: providerId, id_token: idToken, link_identity: true },
    });
  const linkWallet = (accessToken: string) =>
    server.app.inject({
      method: "POST",
      url: "/auth/v1/token?grant_type=web3",
      headers: headers(accessToken),
      payload: { chain: "ethereum", message: "x".repeat(80), signature: `0x${"1".repeat(130)}`, link_identity: true },
    });

  function expectInsufficientAal(response: { statusCode: number; body: string; json: <T>() => T }) {
    expect(response.statusCode, response.body).toBe(403);
    expect(response.json()).toMatchObject({ code: "insufficient_aal" });
  }

  /** What a refused request could have changed. */
  async function accountState(userId: string) {
    const user = await server.db
      .selectFrom("users")
      .select(["encrypted_password", "email", "email_change", "user_metadata"])
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    const identities = await server.db.selectFrom("identities").select("provider").where("user_id", "=", userId).execute();
    const sessions = await server.db.selectFrom("sessions").select("id").where("user_id", "=", userId).orderBy("id").execute();
    return { user, identities: identities.map((row) => row.provider).sort(), sessions: sessions.map((row) => row.id) };
  }

  it("refuses the password alone every change of how the account is reached, and changes nothing", async () => {
    const member = await memberWithFactor();
    const login = `kim-${member.userId.slice(0, 8)}`;
    idp.addPerson(login, { email: uniqueEmail("kim-elsewhere"), email_verified: true, name: "Kim" });
    const idToken = await idp.idToken(login);
    const before = await accountState(member.userId);
    const token = member.aal1.access_token;

    expectInsufficientAal(await updateUser(token, { password: newPassword }));
    const thiefAddress = uniqueEmail("thief");
    await server.invite(thiefAddress);
    expectInsufficientAal(await updateUser(token, { email: thiefAddress }));
    // Nothing of a mixed request is written, not even its profile part.
    expectInsufficientAal(await updateUser(token, { data: { full_name: "Not Kim" }, password: newPassword }));
    expectInsufficientAal(await logout(token, "others"));
    expectInsufficientAal(await startLinking(token));
    expectInsufficientAal(await linkIdToken(token, idToken));
    expectInsufficientAal(await linkWallet(token));
    expect(await accountState(member.userId)).toEqual(before);
    expect(
      server.smtp.messages.filter((mail) => mail.to.includes(member.email) && /changed|connected/.test(mail.subject)),
    ).toEqual([]);

    // The profile alone is not a way in: the password-only session still changes it.
    expect((await updateUser(token, { data: { full_name: "Kim" } })).statusCode).toBe(200);

    // The refused ID token was not used up: the session with the code links it.
    const linked = await linkIdToken(member.aal2.access_token, idToken);
    expect(linked.statusCode, linked.body).toBe(200);
  });

  it("ends only the caller's own session on a global sign-out without the code; a local one as always", async () => {
    const member = await memberWithFactor();
    expectInsufficientAal(await logout(member.aal1.access_token, "global"));
    expect((await getUser(server, member.aal1.access_token)).json()).toMatchObject({ code: "session_not_found" });
    expect((await getUser(server, member.aal2.access_token)).statusCode).toBe(200);

    const another = await signIn(member.email);
    expect((await logout(another.access_token, "local")).statusCode).toBe(204);
    expect((await getUser(server, another.access_token)).json()).toMatchObject({ code: "session_not_found" });
    expect((await getUser(server, member.aal2.access_token)).statusCode).toBe(200);
  });

  it("lets the session that proved the code change the password, the address and end the other sessions", async () => {
    const member = await memberWithFactor();
    const token = member.aal2.access_token;
    expect((await startLinking(token)).statusCode).toBe(200);
    const newAddress = uniqueEmail("new-address");
    await server.invite(newAddress);
    expect((await updateUser(token, { email: newAddress })).statusCode).toBe(200);
    const changed = await updateUser(token, { password: newPassword });
    expect(changed.statusCode, changed.body).toBe(200);
    const aal1 = await signIn(member.email, newPassword);
    expect((await logout(token, "others")).statusCode).toBe(204);
    expect((await getUser(server, aal1.access_token)).json()).toMatchObject({ code: "session_not_found" });
    expect((await logout(token, "global")).statusCode).toBe(204);
  });

  it("keeps an account without a factor as auth-js knows it: the password session changes it all", async () => {
    const member = await confirmedMember(server);
    const token = member.session.access_token;
    const other = await signIn(member.email);
    expect((await startLinking(token)).statusCode).toBe(200);
    const newAddress = uniqueEmail("moved");
    await server.invite(newAddress);
    expect((await updateUser(token, { email: newAddress })).statusCode).toBe(200);
    expect((await updateUser(token, { password: newPassword })).statusCode).toBe(200);
    expect((await linkWallet(token)).json()).not.toMatchObject({ code: "insufficient_aal" });
    const again = await signIn(member.email, newPassword);
    expect((await logout(token, "others")).statusCode).toBe(204);
    expect((await getUser(server, again.access_token)).json()).toMatchObject({ code: "session_not_found" });
    expect((await getUser(server, other.access_token)).json()).toMatchObject({ code: "session_not_found" });
    expect((await logout(token, "global")).statusCode).toBe(204);
  });
});
