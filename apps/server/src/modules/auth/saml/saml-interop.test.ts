import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuthTestServer, startAuthServer } from "../../../../test/auth-fixtures";
import {
  createSamlifyIdentityProvider,
  type SamlifyIdentityProvider,
  type SamlifyServiceProvider,
} from "../../../../test/samlify-identity-provider.mjs";
import { operatorToken, postAssertion } from "../../../../test/sso-fixtures";
import { testEngines } from "../../../../test/test-database";

// SAML 2.0 single sign-on (ADR 0036) against an identity provider this project did not write:
// samlify reads our metadata and our HTTP-Redirect AuthnRequest, and writes and signs the answers.
// sso.test.ts checks our rules with answers our own helper builds; this shows that another
// implementation's reading of SAML and of XML signatures meets ours.

describe.each(testEngines())("SAML single sign-on with samlify as the identity provider on %s", (engine) => {
  let server: AuthTestServer;
  let idp: SamlifyIdentityProvider;
  /** Our metadata as samlify reads it: the assertion signed, as it asks; and the response signed too. */
  let sp: SamlifyServiceProvider;
  let spSigningResponses: SamlifyServiceProvider;
  const domain = `family-${randomUUID().slice(0, 8)}.example`;

  beforeAll(async () => {
    idp = await createSamlifyIdentityProvider();
    server = await startAuthServer(engine, {
      env: { AUTH_SAML_ENABLED: "true", AUTH_REDIRECT_URLS: "https://app.example.org/**" },
    });
    const created = await fetch(`${server.authUrl}/admin/sso/providers`, {
      method: "POST",
      headers: { authorization: `Bearer ${await operatorToken(server)}`, "content-type": "application/json" },
      body: JSON.stringify({ type: "saml", metadata_xml: idp.metadataXml, domains: [domain] }),
    });
    expect(created.status).toBe(201);

    const metadata = await (await fetch(`${server.authUrl}/sso/saml/metadata`)).text();
    sp = idp.serviceProvider(metadata);
    spSigningResponses = idp.serviceProvider(metadata, { signResponses: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  const acsUrl = () => `${server.authUrl}/sso/saml/acs`;
  const addressAt = (label: string) => `${label}-${randomUUID().slice(0, 8)}@${domain}`;
  const accountsFor = (email: string) => server.db.selectFrom("users").select("id").where("email", "=", email).execute();
  /** What the identity provider says of a person: a stable subject, the address and a name as attributes. */
  const person = (email: string) => ({ email, subject: `samlify-${email}`, displayName: `${email.split("@")[0]} at the family` });

  /** Starts a sign-in as auth-js does: the address the browser is sent to with the AuthnRequest. */
  async function startSignIn() {
    const client = server.client("implicit");
    const { data, error } = await client.auth.signInWithSSO({
      domain,
      options: { redirectTo: "https://app.example.org/home", skipBrowserRedirect: true },
    });
    expect(error).toBeNull();
    return { client, url: (data as { url: string }).url };
  }

  const post = (form: Record<string, string>) => postAssertion(server, form);

  /** The session the browser landed with, restored in the client that started the sign-in. */
  async function landedUser(client: Awaited<ReturnType<typeof startSignIn>>["client"], landed: URL) {
    expect(`${landed.origin}${landed.pathname}`).toBe("https://app.example.org/home");
    expect(landed.searchParams.get("error_description")).toBeNull();
    const fragment = new URLSearchParams(landed.hash.slice(1));
    const { data, error } = await client.auth.setSession({
      access_token: fragment.get("access_token")!,
      refresh_token: fragment.get("refresh_token")!,
    });
    expect(error).toBeNull();
    return data.user!;
  }

  async function expectRefused(landed: URL, reason: RegExp, ...emails: string[]) {
    expect(landed.searchParams.get("error_code")).toBe("validation_failed");
    expect(landed.searchParams.get("error_description")).toMatch(reason);
    expect(landed.hash).not.toContain("access_token");
    for (const email of emails) expect(await accountsFor(email)).toEqual([]);
  }

  /** The IDs the answer's signatures cover (each ds:Reference's URI), and an element's ID. */
  const signedIds = (xml: string) => [...xml.matchAll(/<ds:Reference URI="#([^"]+)"/g)].map((match) => match[1]);
  const idOf = (xml: string, element: "samlp:Response" | "saml:Assertion") =>
    new RegExp(`<${element}\\b[^>]*\\sID="([^"]+)"`).exec(xml)?.[1];

  it("signs an invited address in with samlify's answer whose assertion alone is signed (what our metadata asks for)", async () => {
    const email = addressAt("ann");
    await server.invite(email);
    const { client, url } = await startSignIn();
    const answer = await idp.answer(sp, url, person(email));
    expect(answer.endpoint).toBe(acsUrl());
    expect(signedIds(answer.xml)).toEqual([idOf(answer.xml, "saml:Assertion")]);

    const user = await landedUser(client, await post(answer.form));
    expect(user.email).toBe(email);
    expect(user.identities).toEqual([
      expect.objectContaining({
        id: `samlify-${email}`,
        email,
        identity_data: expect.objectContaining({ iss: idp.entityId, email, name: person(email).displayName }) as unknown,
      }),
    ]);
  });

  it("signs an invited address in with samlify's answer as it writes it without a template (the NameID is the address)", async () => {
    const email = addressAt("amy");
    await server.invite(email);
    const { client, url } = await startSignIn();
    const answer = await idp.answer(sp, url, { email });
    expect(answer.xml).not.toContain("AttributeStatement");
    expect(signedIds(answer.xml)).toEqual([idOf(answer.xml, "saml:Assertion")]);

    const user = await landedUser(client, await post(answer.form));
    expect(user.email).toBe(email);
    expect(user.identities?.map((identity) => identity.id)).toEqual([email]);
  });

  it("signs an invited address in when samlify signs the response and the assertion", async () => {
    const email = addressAt("ben");
    await server.invite(email);
    const { client, url } = await startSignIn();
    const answer = await idp.answer(spSigningResponses, url, person(email));
    expect(signedIds(answer.xml).sort()).toEqual([idOf(answer.xml, "saml:Assertion"), idOf(answer.xml, "samlp:Response")].sort());

    expect((await landedUser(client, await post(answer.form))).email).toBe(email);
  });

  it("refuses samlify's answer to another sign-in's request (InResponseTo)", async () => {
    const email = addressAt("cat");
    await server.invite(email);
    const first = await startSignIn();
    const second = await startSignIn();
    const answerToFirst = await idp.answer(sp, first.url, person(email));
    const answerToSecond = await idp.answer(sp, second.url, person(email));
    expect(answerToFirst.requestId).not.toBe(answerToSecond.requestId);

    // The first request's answer, posted for the second sign-in (with the second's relay state).
    await expectRefused(await post({ ...answerToFirst.form, RelayState: answerToSecond.form.RelayState }), /InResponseTo/, email);
  });

  it("refuses samlify's answer once the e-mail attribute was changed to another invited address", async () => {
    const email = addressAt("dan");
    const other = addressAt("eve");
    await server.invite(email);
    await server.invite(other);
    const { url } = await startSignIn();
    const answer = await idp.answer(sp, url, person(email));
    const original = `xsi:type="xs:string">${email}</saml:AttributeValue>`;
    expect(answer.xml).toContain(original);
    const tampered = answer.xml.replace(original, `xsi:type="xs:string">${other}</saml:AttributeValue>`);

    await expectRefused(
      await post({ ...answer.form, SAMLResponse: Buffer.from(tampered, "utf8").toString("base64") }),
      /signature/i,
      email,
      other,
    );
  });
});
