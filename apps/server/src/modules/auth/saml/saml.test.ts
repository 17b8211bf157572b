import { randomUUID } from "node:crypto";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuthTestServer, confirmedMember, password, signedInClient, startAuthServer } from "../../../../test/auth-fixtures";
import {
  type AssertionOptions,
  createSamlTestProvider,
  generateSamlKeys,
  identityProviderMetadata,
  readAuthnRequest,
  type TestSamlProvider,
} from "../../../../test/saml-test-provider";
import { operatorToken, postAssertion } from "../../../../test/sso-fixtures";
import { testEngines } from "../../../../test/test-database";
import { startTlsTestServer, type TlsTestServer } from "../../../../test/tls-test-server";

// SAML 2.0 single sign-on (ADR 0036) through the unmodified auth-js client (`signInWithSSO`),
// with an identity provider the test runs: it signs its assertions with a key generated for the
// run. The admin API registers it; every refusal an attacker could try is shown to get nowhere.

describe.each(testEngines())("SAML single sign-on on %s", (engine) => {
  let server: AuthTestServer;
  let idp: TestSamlProvider;
  let serviceToken: string;
  let providerId: string;
  /** The family's own domain, the one the identity provider is registered for. */
  const domain = `family-${randomUUID().slice(0, 8)}.example`;

  const admin = (method: string, path: string, body?: unknown, token = serviceToken) =>
    fetch(`${server.authUrl}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  beforeAll(async () => {
    idp = await createSamlTestProvider();
    server = await startAuthServer(engine, {
      // The metadata test server's host is allowed; every other address inside is refused (ADR 0045).
      env: {
        AUTH_SAML_ENABLED: "true",
        AUTH_REDIRECT_URLS: "https://app.example.org/**",
        AUTH_SAML_METADATA_ALLOWED_HOSTS: "localhost",
      },
    });
    serviceToken = await operatorToken(server);
    const created = await admin("POST", "/admin/sso/providers", {
      type: "saml",
      metadata_xml: idp.metadataXml,
      domains: [domain],
    });
    expect(created.status).toBe(201);
    providerId = ((await created.json()) as { id: string }).id;
  });
  afterAll(async () => {
    await server?.close();
  });

  const spEntityId = () => `${server.authUrl}/sso/saml/metadata`;
  const acsUrl = () => `${server.authUrl}/sso/saml/acs`;
  const addressAt = (label: string, at = domain) => `${label}-${randomUUID().slice(0, 8)}@${at}`;

  /** Starts a sign-in as auth-js does; answers the request the browser carries to the identity provider. */
  async function startSignIn(flowType: "implicit" | "pkce" = "implicit", redirectTo = "https://app.example.org/home") {
    const client = server.client(flowType);
    const { data, error } = await client.auth.signInWithSSO({
      domain,
      options: { redirectTo, skipBrowserRedirect: true },
    });
    expect(error).toBeNull();
    const url = (data as { url: string }).url;
    expect(url.startsWith(idp.singleSignOnUrl)).toBe(true);
    return { client, request: readAuthnRequest(url) };
  }

  /** What a valid answer to `requestId` for `email` says; tests change one thing at a time. */
  const answer = (requestId: string, email: string, overrides: Partial<AssertionOptions> = {}): AssertionOptions => ({
    inResponseTo: requestId,
    audience: spEntityId(),
    recipient: acsUrl(),
    nameId: `subject-${email}`,
    attributes: { email, displayName: `${email.split("@")[0]} at the family` },
    ...overrides,
  });

  const post = (form: Record<string, string>) => postAssertion(server, form);

  const errorOf = (landed: URL) => ({ error: landed.searchParams.get("error"), code: landed.searchParams.get("error_code") });
  const accountsFor = (email: string) => server.db.selectFrom("users").select("id").where("email", "=", email).execute();
  const ssoIdentities = () =>
    server.db.selectFrom("identities").select(["user_id", "provider_id"]).where("provider", "=", `sso:${providerId}`).execute();

  describe("the service provider's metadata", () => {
    it("names this server's entity ID and assertion consumer for the identity provider's administrator", async () => {
      const response = await fetch(`${server.authUrl}/sso/saml/metadata`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^application\/xml/);
      const xml = await response.text();
      expect(xml).toContain(`entityID="${spEntityId()}"`);
      expect(xml).toContain(`Location="${acsUrl()}"`);
      expect(xml).toContain('WantAssertionsSigned="true"');
    });
  });

  describe("POST /sso → the identity provider → POST /sso/saml/acs", () => {
    it("signs an invited address of the provider's domain in with a session in the fragment, creating the member", async () => {
      const email = addressAt("ann");
      await server.invite(email);
      const { client, request } = await startSignIn();
      expect(request.xml).toContain(`AssertionConsumerServiceURL="${acsUrl()}"`);

      const landed = await post({ SAMLResponse: idp.respond(answer(request.id, email)), RelayState: request.relayState });
      expect(`${landed.origin}${landed.pathname}`).toBe("https://app.example.org/home");
      const fragment = new URLSearchParams(landed.hash.slice(1));
      const restored = await client.auth.setSession({
        access_token: fragment.get("access_token")!,
        refresh_token: fragment.get("refresh_token")!,
      });
      expect(restored.error).toBeNull();
      const user = restored.data.user!;
      expect(user.email).toBe(email);
      expect(user.identities).toEqual([
        expect.objectContaining({
          provider: `sso:${providerId}`,
          id: `subject-${email}`,
          email,
          identity_data: expect.objectContaining({ iss: idp.entityId, email, email_verified: true }) as unknown,
        }),
      ]);
      const claims = await client.auth.getClaims();
      expect(claims.data?.claims.amr).toEqual([expect.objectContaining({ method: "sso/saml" })]);
      const invitation = await server.db.selectFrom("invitations").selectAll().where("email", "=", email).executeTakeFirst();
      expect(invitation?.used_by).toBe(user.id);
    });

    it("answers with an auth code in the PKCE flow, which the starting client alone exchanges", async () => {
      const email = addressAt("ben");
      await server.invite(email);
      const { client, request } = await startSignIn("pkce");
      const landed = await post({ SAMLResponse: idp.respond(answer(request.id, email)), RelayState: request.relayState });
      const code = landed.searchParams.get("code")!;
      expect(code).toBeTruthy();
      expect(landed.hash).toBe("");

      const stranger = server.client("pkce");
      expect((await stranger.auth.exchangeCodeForSession(code)).error).not.toBeNull();
      const { data, error } = await client.auth.exchangeCodeForSession(code);
      expect(error).toBeNull();
      expect(data.user?.email).toBe(email);
    });

    it("signs an existing member in as themselves, linking the identity and telling their address", async () => {
      const email = addressAt("cat");
      const { userId } = await confirmedMember(server, email);
      const { client, request } = await startSignIn();
      const landed = await post({ SAMLResponse: idp.respond(answer(request.id, email)), RelayState: request.relayState });
      const fragment = new URLSearchParams(landed.hash.slice(1));
      const { data } = await client.auth.setSession({
        access_token: fragment.get("access_token")!,
        refresh_token: fragment.get("refresh_token")!,
      });
      expect(data.user?.id).toBe(userId);
      expect(data.user?.identities?.map((identity) => identity.provider).sort()).toEqual(["email", `sso:${providerId}`]);
      const notice = await server.smtp.waitForMail(email, { subject: /Single sign-on was connected/ });
      expect(notice.text).toContain(email);
      // The password still signs in: nothing of the account was replaced.
      expect((await signedInClient(server, email, password)).session.user.id).toBe(userId);
    });

    it("signs the same subject in again as the same member, whatever address the provider now gives", async () => {
      const email = addressAt("dan");
      await server.invite(email);
      const first = await startSignIn();
      await post({ SAMLResponse: idp.respond(answer(first.request.id, email)), RelayState: first.request.relayState });
      const second = await startSignIn();
      const landed = await post({
        SAMLResponse: idp.respond(answer(second.request.id, email, { attributes: { email, displayName: "Dan" } })),
        RelayState: second.request.relayState,
      });
      expect(landed.hash).toContain("access_token=");
      expect(await accountsFor(email)).toHaveLength(1);
      expect((await ssoIdentities()).filter((identity) => identity.provider_id === `subject-${email}`)).toHaveLength(1);
    });

    it("takes the address from the attribute the provider's mapping names", async () => {
      const email = addressAt("eve");
      await server.invite(email);
      const mapped = await admin("PUT", `/admin/sso/providers/${providerId}`, {
        attribute_mapping: { keys: { email: { name: "urn:custom:mail" } } },
      });
      expect(mapped.status).toBe(200);
      try {
        const { request } = await startSignIn();
        const landed = await post({
          SAMLResponse: idp.respond(
            answer(request.id, email, { attributes: { "urn:custom:mail": email, email: addressAt("someone-else") } }),
          ),
          RelayState: request.relayState,
        });
        expect(landed.hash).toContain("access_token=");
        expect(await accountsFor(email)).toHaveLength(1);
      } finally {
        await admin("PUT", `/admin/sso/providers/${providerId}`, { attribute_mapping: {} });
      }
    });
  });

  describe("refusals: nothing is created and nobody is signed in", () => {
    /** Starts a sign-in, posts what `build` makes of the valid answer, and expects the refusal. */
    async function expectRefused(
      email: string,
      build: (request: { id: string; relayState: string }) => Record<string, string>,
      expected: { code: string; error?: string },
    ) {
      const { request } = await startSignIn();
      const landed = await post(build(request));
      expect(errorOf(landed)).toMatchObject(expected);
      expect(landed.hash).not.toContain("access_token");
      expect(landed.searchParams.get("code")).toBeNull();
      expect(await accountsFor(email)).toEqual([]);
    }

    it("an address that was never invited", async () => {
      const email = addressAt("uninvited");
      await expectRefused(
        email,
        (request) => ({ SAMLResponse: idp.respond(answer(request.id, email)), RelayState: request.relayState }),
        { code: "email_not_invited", error: "access_denied" },
      );
    });

    it("an invited address outside the provider's domains", async () => {
      const email = addressAt("outsider", "example.org");
      await server.invite(email);
      await expectRefused(
        email,
        (request) => ({ SAMLResponse: idp.respond(answer(request.id, email)), RelayState: request.relayState }),
        { code: "saml_email_domain_not_allowed" },
      );
    });

    it("an assertion meant for another service provider (audience)", async () => {
      const email = addressAt("audience");
      await server.invite(email);
      await expectRefused(
        email,
        (request) => ({
          SAMLResponse: idp.respond(answer(request.id, email, { audience: "https://elsewhere.example.org/saml" })),
          RelayState: request.relayState,
        }),
        { code: "validation_failed" },
      );
    });

    it("an expired assertion, and one not yet valid", async () => {
      const email = addressAt("expired");
      await server.invite(email);
      await expectRefused(
        email,
        (request) => ({
          SAMLResponse: idp.respond(answer(request.id, email, { notBefore: -900, notOnOrAfter: -300 })),
          RelayState: request.relayState,
        }),
        { code: "validation_failed" },
      );
      await expectRefused(
        email,
        (request) => ({
          SAMLResponse: idp.respond(answer(request.id, email, { notBefore: 600, notOnOrAfter: 900 })),
          RelayState: request.relayState,
        }),
        { code: "validation_failed" },
      );
    });

    it("an assertion from another issuer than the registered provider", async () => {
      const email = addressAt("issuer");
      await server.invite(email);
      await expectRefused(
        email,
        (request) => ({
          SAMLResponse: idp.respond(answer(request.id, email, { issuer: "https://impostor.example.org/saml" })),
          RelayState: request.relayState,
        }),
        { code: "validation_failed" },
      );
    });

    it("a sign-in the identity provider started (no relay state), and an unknown relay state", async () => {
      const email = addressAt("unsolicited");
      await server.invite(email);
      const response = idp.respond(answer("_unsolicited", email));
      expect(errorOf(await post({ SAMLResponse: response }))).toMatchObject({ code: "validation_failed" });
      expect(errorOf(await post({ SAMLResponse: response, RelayState: "forged-relay-state" }))).toMatchObject({
        code: "saml_relay_state_not_found",
      });
      expect(await accountsFor(email)).toEqual([]);
    });

    it("an answer after the relay state expired (ten minutes)", async () => {
      const email = addressAt("late");
      await server.invite(email);
      const { request } = await startSignIn();
      server.clock.advance(11 * 60);
      const landed = await post({ SAMLResponse: idp.respond(answer(request.id, email)), RelayState: request.relayState });
      expect(errorOf(landed)).toMatchObject({ code: "saml_relay_state_expired" });
      expect(await accountsFor(email)).toEqual([]);
    });

    it("answers that are not SAML: not base64, not XML, an entity bomb, a huge body", async () => {
      const email = addressAt("garbage");
      await server.invite(email);
      const bomb =
        '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">' +
        '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>' +
        '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol">&d;&d;&d;&d;&d;&d;&d;&d;</samlp:Response>';
      for (const samlResponse of [
        "%%% not base64 %%%",
        Buffer.from("<unclosed").toString("base64"),
        Buffer.from(bomb).toString("base64"),
      ])
        await expectRefused(email, (request) => ({ SAMLResponse: samlResponse, RelayState: request.relayState }), {
          code: "validation_failed",
        });
      const huge = await fetch(acsUrl(), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `SAMLResponse=${"A".repeat(2 * 1024 * 1024)}`,
      });
      expect(huge.status).toBe(413);
    });

    it("an attribute named like the subject or the issuer: it never chooses the member", async () => {
      const victim = addressAt("victim");
      await server.invite(victim);
      const first = await startSignIn();
      await post({ SAMLResponse: idp.respond(answer(first.request.id, victim)), RelayState: first.request.relayState });
      const [victimIdentity] = (await ssoIdentities()).filter((identity) => identity.provider_id === `subject-${victim}`);
      expect(victimIdentity).toBeDefined();

      // No NameID, and an attribute that says the victim's subject (what an account holder might type).
      const email = addressAt("typed-subject");
      await server.invite(email);
      await expectRefused(
        email,
        (request) => ({
          SAMLResponse: idp.respond(
            answer(request.id, email, { nameId: null, attributes: { email, nameID: `subject-${victim}`, issuer: idp.entityId } }),
          ),
          RelayState: request.relayState,
        }),
        { code: "saml_assertion_no_user_id" },
      );
      // With its own NameID, the attribute is ignored: the sign-in is the attacker's own.
      const { request } = await startSignIn();
      await post({
        SAMLResponse: idp.respond(answer(request.id, email, { attributes: { email, nameID: `subject-${victim}` } })),
        RelayState: request.relayState,
      });
      const [account] = await accountsFor(email);
      expect(account?.id).not.toBe(victimIdentity!.user_id);
    });

    it("a transient NameID without a stable subject ID (each sign-in would be somebody new)", async () => {
      const email = addressAt("transient");
      await server.invite(email);
      const transient = "urn:oasis:names:tc:SAML:2.0:nameid-format:transient";
      await expectRefused(
        email,
        (request) => ({
          SAMLResponse: idp.respond(answer(request.id, email, { nameId: `_${randomUUID()}`, nameIdFormat: transient })),
          RelayState: request.relayState,
        }),
        { code: "saml_assertion_no_user_id" },
      );
      // With the provider's subject-id attribute, two sign-ins are one identity.
      for (let time = 0; time < 2; time += 1) {
        const { request } = await startSignIn();
        const landed = await post({
          SAMLResponse: idp.respond(
            answer(request.id, email, {
              nameId: `_${randomUUID()}`,
              nameIdFormat: transient,
              attributes: { email, "urn:oasis:names:tc:SAML:attribute:subject-id": `stable-${email}` },
            }),
          ),
          RelayState: request.relayState,
        });
        expect(landed.hash).toContain("access_token=");
      }
      expect((await ssoIdentities()).filter((identity) => identity.provider_id === `stable-${email}`)).toHaveLength(1);
    });

    it("an answer with neither subject nor address", async () => {
      const email = addressAt("anonymous");
      await server.invite(email);
      await expectRefused(
        email,
        (request) => ({
          SAMLResponse: idp.respond(answer(request.id, email, { nameId: "opaque-subject", attributes: {} })),
          RelayState: request.relayState,
        }),
        { code: "saml_assertion_no_email" },
      );
    });
  });

  describe("POST /sso", () => {
    it("starts by provider id too, and answers 404 for a domain nobody registered", async () => {
      const { data, error } = await server.client().auth.signInWithSSO({ providerId, options: { skipBrowserRedirect: true } });
      expect(error).toBeNull();
      expect((data as { url: string }).url.startsWith(idp.singleSignOnUrl)).toBe(true);
      const unknown = await server.client().auth.signInWithSSO({ domain: "nobody.example" });
      expect(unknown.error).toMatchObject({ status: 404, code: "sso_provider_not_found" });
      const unknownId = await server.client().auth.signInWithSSO({ providerId: randomUUID() });
      expect(unknownId.error).toMatchObject({ status: 404, code: "sso_provider_not_found" });
    });

    it("refuses a body naming both or neither", async () => {
      const send = (body: unknown) =>
        fetch(`${server.authUrl}/sso`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
      for (const body of [{ domain, provider_id: providerId }, {}]) {
        const response = await send(body);
        expect(response.status).toBe(400);
        expect(await response.json()).toMatchObject({ error_code: "validation_failed" });
      }
    });
  });

  describe("the admin API (/admin/sso/providers)", () => {
    it("refuses callers without a service-role token", async () => {
      const member = await confirmedMember(server, addressAt("member"));
      for (const token of ["", member.session.access_token]) {
        const listed = await admin("GET", "/admin/sso/providers", undefined, token);
        expect([401, 403]).toContain(listed.status);
        const created = await admin("POST", "/admin/sso/providers", { type: "saml", metadata_xml: idp.metadataXml }, token);
        expect([401, 403]).toContain(created.status);
      }
    });

    it("lists providers without their metadata documents and shows one with it", async () => {
      const listed = (await (await admin("GET", "/admin/sso/providers")).json()) as { items: Record<string, unknown>[] };
      const item = listed.items.find((provider) => provider.id === providerId)!;
      expect(item).toMatchObject({ saml: { entity_id: idp.entityId }, domains: [expect.objectContaining({ domain })] });
      expect((item.saml as Record<string, unknown>).metadata_xml).toBeUndefined();
      const shown = (await (await admin("GET", `/admin/sso/providers/${providerId}`)).json()) as {
        saml: { metadata_xml: string };
      };
      expect(shown.saml.metadata_xml).toBe(idp.metadataXml);
      expect((await admin("GET", `/admin/sso/providers/${randomUUID()}`)).status).toBe(404);
      expect((await admin("GET", "/admin/sso/providers/not-an-id")).status).toBe(404);
    });

    describe("by metadata_url", () => {
      let metadataServer: TlsTestServer;
      let other: TestSamlProvider;
      const originalAuthorities = tls.getCACertificates("default");

      beforeAll(async () => {
        other = await createSamlTestProvider();
        metadataServer = await startTlsTestServer((request, response) => {
          // Redirects that reach inside: test/security/outbound.security.test.ts.
          const redirects: Record<string, string> = { "/to-allowed": metadataServer.url("/metadata", "localhost") };
          const location = redirects[request.url ?? ""];
          if (location) response.writeHead(302, { location }).end();
          else response.writeHead(200, { "content-type": "application/xml" }).end(other.metadataXml);
        });
        // The server trusts the test server's certificate as it would a public authority's.
        tls.setDefaultCACertificates([...originalAuthorities, metadataServer.certificate]);
      });
      afterAll(async () => {
        tls.setDefaultCACertificates(originalAuthorities);
        await metadataServer?.close();
      });

      it("registers a provider from a host the operator allowed, through a redirect that stays on it", async () => {
        const metadata_url = metadataServer.url("/to-allowed", "localhost");
        const created = await admin("POST", "/admin/sso/providers", { type: "saml", metadata_url });
        expect(created.status).toBe(201);
        const provider = (await created.json()) as { id: string; saml: { entity_id: string; metadata_url: string } };
        expect(provider.saml).toMatchObject({ entity_id: other.entityId, metadata_url });
        expect((await admin("DELETE", `/admin/sso/providers/${provider.id}`)).status).toBe(200);
      });
    });

    it("refuses what Supabase Auth refuses, writing nothing", async () => {
      const other = await createSamlTestProvider();
      const cases: [unknown, number, string][] = [
        [{ metadata_xml: other.metadataXml }, 400, "validation_failed"],
        [{ type: "saml" }, 400, "validation_failed"],
        [
          { type: "saml", metadata_xml: other.metadataXml, metadata_url: "https://idp.example.org/metadata" },
          400,
          "validation_failed",
        ],
        [{ type: "saml", metadata_xml: "<not-xml" }, 400, "validation_failed"],
        [
          { type: "saml", metadata_xml: "<md:EntitiesDescriptor xmlns:md='urn:oasis:names:tc:SAML:2.0:metadata'/>" },
          400,
          "validation_failed",
        ],
        [{ type: "saml", metadata_url: "http://idp.example.org/metadata" }, 400, "validation_failed"],
        [{ type: "saml", metadata_url: "https://localhost:1/metadata" }, 400, "saml_metadata_fetch_failed"],
        [{ type: "saml", metadata_url: "https://127.0.0.1:1/metadata" }, 400, "saml_metadata_address_refused"],
        [{ type: "saml", metadata_xml: idp.metadataXml }, 422, "saml_idp_already_exists"],
        [{ type: "saml", metadata_xml: other.metadataXml, domains: [domain] }, 400, "sso_domain_already_exists"],
        [{ type: "saml", metadata_xml: other.metadataXml, domains: ["not a domain"] }, 400, "validation_failed"],
        [{ type: "saml", metadata_xml: other.metadataXml, name_id_format: "urn:made-up" }, 400, "validation_failed"],
      ];
      for (const [body, status, code] of cases) {
        const response = await admin("POST", "/admin/sso/providers", body);
        expect({ body, status: response.status }).toEqual({ body, status });
        expect(await response.json()).toMatchObject({ error_code: code });
      }
      const keys = await generateSamlKeys();
      const withoutCertificate = identityProviderMetadata(other.entityId, other.singleSignOnUrl, keys.certificate).replace(
        /<md:KeyDescriptor[\s\S]*<\/md:KeyDescriptor>/,
        "",
      );
      const noKey = await admin("POST", "/admin/sso/providers", { type: "saml", metadata_xml: withoutCertificate });
      expect(noKey.status).toBe(400);
      const entities = await server.db.selectFrom("sso_providers").select("entity_id").execute();
      expect(entities.map((row) => row.entity_id)).not.toContain(other.entityId);
    });

    it("changes domains, keeps the entity ID, and deletes: the domain then signs nobody in", async () => {
      const other = await createSamlTestProvider();
      const otherDomain = `other-${randomUUID().slice(0, 8)}.example`;
      const created = (await (
        await admin("POST", "/admin/sso/providers", { type: "saml", metadata_xml: other.metadataXml, domains: [otherDomain] })
      ).json()) as { id: string };

      const renamed = await admin("PUT", `/admin/sso/providers/${created.id}`, { domains: [`new.${otherDomain}`] });
      expect(renamed.status).toBe(200);
      expect(await renamed.json()).toMatchObject({ domains: [expect.objectContaining({ domain: `new.${otherDomain}` })] });
      const mismatch = await admin("PUT", `/admin/sso/providers/${created.id}`, { metadata_xml: idp.metadataXml });
      expect(mismatch.status).toBe(400);
      expect(await mismatch.json()).toMatchObject({ error_code: "saml_entity_id_mismatch" });
      const taken = await admin("PUT", `/admin/sso/providers/${created.id}`, { domains: [domain] });
      expect(await taken.json()).toMatchObject({ error_code: "sso_domain_already_exists" });

      const { data } = await server
        .client()
        .auth.signInWithSSO({ domain: `new.${otherDomain}`, options: { skipBrowserRedirect: true } });
      const pending = readAuthnRequest((data as { url: string }).url);
      expect((await admin("DELETE", `/admin/sso/providers/${created.id}`)).status).toBe(200);
      expect((await server.client().auth.signInWithSSO({ domain: `new.${otherDomain}` })).error).toMatchObject({
        code: "sso_provider_not_found",
      });
      // A sign-in started before the deletion finds nothing to finish.
      const email = addressAt("after-delete", `new.${otherDomain}`);
      await server.invite(email);
      const landed = await post({ SAMLResponse: other.respond(answer(pending.id, email)), RelayState: pending.relayState });
      expect(errorOf(landed)).toMatchObject({ code: "saml_relay_state_not_found" });
      const actions = await server.db
        .selectFrom("audit_log")
        .select("action")
        .where("action", "like", "admin.sso_provider_%")
        .execute();
      expect(actions.map((row) => row.action)).toEqual(
        expect.arrayContaining(["admin.sso_provider_created", "admin.sso_provider_updated", "admin.sso_provider_deleted"]),
      );
    });
  });
});

describe("SAML single sign-on's rate limits", () => {
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthServer("sqlite", {
      env: { AUTH_SAML_ENABLED: "true", AUTH_RATE_LIMITS: "true", AUTH_RATE_LIMIT_SSO: "3" },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("counts starts and answers per address apart, each up to AUTH_RATE_LIMIT_SSO in five minutes", async () => {
    const start = () =>
      fetch(`${server.authUrl}/sso`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ domain: "nobody.example" }),
      });
    const answer = () =>
      fetch(`${server.authUrl}/sso/saml/acs`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ SAMLResponse: "x", RelayState: "unknown" }),
        redirect: "manual",
      });
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await start()).status).toBe(404);
    const refused = await start();
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error_code: "over_request_rate_limit" });
    // The answers have their own count: the starts did not use it up.
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await answer()).status).toBe(302);
    expect((await answer()).status).toBe(429);
  });
});
