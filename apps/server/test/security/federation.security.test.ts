import { createHash, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuthTestServer, startAuthServer, uniqueEmail } from "../auth-fixtures";
import { journeyThroughProvider, startOidcProvider, type TestOidcProvider } from "../oidc-test-provider";
import {
  type AssertionOptions,
  createSamlTestProvider,
  generateSamlKeys,
  readAuthnRequest,
  type TestSamlProvider,
} from "../saml-test-provider";
import { operatorToken, postAssertion } from "../sso-fixtures";
import { testEngines } from "../test-database";

// Security suite, federation family: an answer from an identity provider opens one sign-in, the
// one it answers, once; one the provider did not sign, or that was changed after, opens none.
// SAML single sign-on (ADR 0036) and OpenID Connect (ADR 0034), each through the unmodified
// auth-js client against a provider the test runs. (Every other refusal of each: saml/saml.test.ts
// and oidc/oidc.test.ts.)

describe.each(testEngines())("SAML answers replayed or forged, on %s", (engine) => {
  let server: AuthTestServer;
  let idp: TestSamlProvider;
  const domain = `family-${randomUUID().slice(0, 8)}.example`;

  beforeAll(async () => {
    idp = await createSamlTestProvider();
    server = await startAuthServer(engine, {
      env: { AUTH_SAML_ENABLED: "true", AUTH_REDIRECT_URLS: "https://app.example.org/**" },
    });
    const created = await fetch(`${server.authUrl}/admin/sso/providers`, {
      method: "POST",
      headers: { authorization: `Bearer ${await operatorToken(server)}`, "content-type": "application/json" },
      body: JSON.stringify({ type: "saml", metadata_xml: idp.metadataXml, domains: [domain] }),
    });
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** An invited address of the provider's domain. */
  async function invitedAddress(label: string) {
    const email = `${label}-${randomUUID().slice(0, 8)}@${domain}`;
    await server.invite(email);
    return email;
  }

  /** Starts a sign-in as auth-js does: the request the browser carries to the identity provider. */
  async function startSignIn() {
    const { data, error } = await server.client().auth.signInWithSSO({
      domain,
      options: { redirectTo: "https://app.example.org/home", skipBrowserRedirect: true },
    });
    expect(error).toBeNull();
    return readAuthnRequest((data as { url: string }).url);
  }

  /** A valid answer to `requestId` for `email`, changed by `overrides`. */
  const answer = (requestId: string, email: string, overrides: Partial<AssertionOptions> = {}): AssertionOptions => ({
    inResponseTo: requestId,
    audience: `${server.authUrl}/sso/saml/metadata`,
    recipient: `${server.authUrl}/sso/saml/acs`,
    nameId: `subject-${email}`,
    attributes: { email },
    ...overrides,
  });

  /** Where the browser lands: nobody signed in, no account made, and why. */
  async function expectRefused(email: string, form: Record<string, string>) {
    const landed = await postAssertion(server, form);
    expect(landed.hash).not.toContain("access_token");
    expect(landed.searchParams.get("code")).toBeNull();
    expect(await server.db.selectFrom("users").select("id").where("email", "=", email).execute()).toEqual([]);
    return landed.searchParams.get("error_code");
  }

  it("#17 a replayed SAML answer: the relay state works once", async () => {
    const email = await invitedAddress("replayed");
    const request = await startSignIn();
    const form = { SAMLResponse: idp.respond(answer(request.id, email)), RelayState: request.relayState };
    expect((await postAssertion(server, form)).hash).toContain("access_token=");
    const again = await postAssertion(server, form);
    expect(again.searchParams.get("error_code")).toBe("saml_relay_state_not_found");
    expect(again.hash).not.toContain("access_token");
  });

  it("#17 a captured SAML answer carried into another sign-in (it answers another request)", async () => {
    const email = await invitedAddress("captured");
    const captured = idp.respond(answer((await startSignIn()).id, email));
    const request = await startSignIn();
    expect(await expectRefused(email, { SAMLResponse: captured, RelayState: request.relayState })).toBe("validation_failed");
  });

  it("#17 a SAML assertion signed with another key, not signed at all, or changed after signing", async () => {
    const email = await invitedAddress("forged");
    const attackerKeys = await generateSamlKeys("Attacker");
    const variants: Partial<AssertionOptions>[] = [
      { signWith: attackerKeys },
      { signed: false },
      { tamper: (xml) => xml.replace(`subject-${email}`, "subject-someone-else") },
    ];
    for (const variant of variants) {
      const request = await startSignIn();
      const form = { SAMLResponse: idp.respond(answer(request.id, email, variant)), RelayState: request.relayState };
      expect(await expectRefused(email, form)).toBe("validation_failed");
    }
  });
});

describe.each(testEngines())("OpenID Connect answers replayed or forged, on %s", (engine) => {
  const providerId = "test-idp";
  let server: AuthTestServer;
  let idp: TestOidcProvider;
  let callbackUrl: string;

  beforeAll(async () => {
    idp = await startOidcProvider();
    server = await startAuthServer(engine, {
      env: {
        AUTH_OIDC_PROVIDERS: JSON.stringify([idp.setting(providerId, "Test Provider")]),
        AUTH_REDIRECT_URLS: "https://app.example.org/**",
      },
    });
    callbackUrl = `${server.authUrl}/callback`;
    idp.register(callbackUrl);
  });
  afterAll(async () => {
    await server?.close();
    await idp?.close();
  });

  /** A person at the provider with an invited, verified address: their login there. */
  async function invitedPerson(label: string) {
    const email = uniqueEmail(label);
    const login = `${label}-${randomUUID().slice(0, 8)}`;
    idp.addPerson(login, { email, email_verified: true, name: label });
    await server.invite(email);
    return login;
  }

  async function oauthUrl() {
    const { data, error } = await server.client().auth.signInWithOAuth({
      provider: providerId as "keycloak",
      options: { redirectTo: `${server.origin}/`, skipBrowserRedirect: true },
    });
    expect(error).toBeNull();
    return data.url!;
  }

  const landedAfter = async (url: string) => {
    const response = await fetch(url, { redirect: "manual" });
    expect(response.status).toBe(302);
    const landed = new URL(response.headers.get("location")!);
    return {
      code: landed.searchParams.get("error_code"),
      session: new URLSearchParams(landed.hash.slice(1)).get("access_token"),
    };
  };

  it("#17 a replayed OpenID Connect callback: the state works once", async () => {
    const login = await invitedPerson("rex");
    const journey = await journeyThroughProvider(await oauthUrl(), login, callbackUrl);
    expect(new URLSearchParams(new URL(journey.location).hash.slice(1)).get("access_token")).toBeTruthy();
    expect(await landedAfter(journey.callbackUrl)).toEqual({ code: "bad_oauth_state", session: null });
  });

  it("#17 a callback with a forged state, without state, or after the state expired", async () => {
    expect(await landedAfter(`${callbackUrl}?state=forged&code=whatever`)).toEqual({ code: "bad_oauth_state", session: null });
    expect(await landedAfter(`${callbackUrl}?code=whatever`)).toEqual({ code: "bad_oauth_callback", session: null });
    const started = await fetch(await oauthUrl(), { redirect: "manual" });
    const state = new URL(started.headers.get("location")!).searchParams.get("state")!;
    server.clock.advance(11 * 60);
    try {
      expect(await landedAfter(`${callbackUrl}?state=${state}&code=whatever`)).toEqual({
        code: "bad_oauth_state",
        session: null,
      });
    } finally {
      server.clock.advance(-11 * 60);
    }
  });

  it("#17 a replayed ID token: it signs in once", async () => {
    const login = await invitedPerson("ida");
    const nonce = "a-nonce-the-app-chose";
    const token = await idp.idToken(login, { nonce: createHash("sha256").update(nonce).digest("hex") });
    expect((await server.client().auth.signInWithIdToken({ provider: providerId, token, nonce })).error).toBeNull();
    const replay = await server.client().auth.signInWithIdToken({ provider: providerId, token, nonce });
    expect(replay.error).toMatchObject({ code: "bad_id_token", status: 400 });
    expect(replay.data.session).toBeNull();
  });
});
