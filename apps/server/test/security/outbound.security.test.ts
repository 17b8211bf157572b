import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuthTestServer, startAuthServer } from "../auth-fixtures";
import { createSamlTestProvider, type TestSamlProvider } from "../saml-test-provider";
import { operatorToken } from "../sso-fixtures";
import { testEngines } from "../test-database";
import { startTlsTestServer, type TlsTestServer } from "../tls-test-server";

// Security suite, outbound family: the one address the server fetches on someone's word, a SAML
// provider's metadata URL, reaches only public addresses (issue #29 item 7, ADR 0045). A test
// server on loopback serves real metadata, so an address that is not refused would be fetched
// and the provider registered; only `localhost` is allowed here, as an operator would allow a
// provider on the home network, and a redirect from it to inside is refused too. (The guarded
// fetch itself, address by address: lib/guarded-fetch.test.ts.)

describe.each(testEngines())("metadata fetched from inside the server's network, on %s", (engine) => {
  let server: AuthTestServer;
  let metadataServer: TlsTestServer;
  let provider: TestSamlProvider;
  let serviceToken: string;
  const originalAuthorities = tls.getCACertificates("default");

  beforeAll(async () => {
    provider = await createSamlTestProvider();
    metadataServer = await startTlsTestServer((request, response) => {
      const redirects: Record<string, string> = {
        "/to-loopback": metadataServer.url("/metadata", "127.0.0.1"),
        "/to-cloud-metadata": "https://169.254.169.254/latest/meta-data/",
        "/to-private": "https://10.0.0.1/metadata",
      };
      const location = redirects[request.url ?? ""];
      if (location) response.writeHead(302, { location }).end();
      else response.writeHead(200, { "content-type": "application/xml" }).end(provider.metadataXml);
    });
    // The server trusts the test server's certificate as it would a public authority's.
    tls.setDefaultCACertificates([...originalAuthorities, metadataServer.certificate]);
    server = await startAuthServer(engine, {
      env: { AUTH_SAML_ENABLED: "true", AUTH_SAML_METADATA_ALLOWED_HOSTS: "localhost" },
    });
    serviceToken = await operatorToken(server);
  });
  afterAll(async () => {
    tls.setDefaultCACertificates(originalAuthorities);
    await server?.close();
    await metadataServer?.close();
  });

  it("#29.7 a SAML metadata URL to loopback, a private range or the cloud metadata address, directly or by a redirect", async () => {
    const refused = [
      metadataServer.url("/metadata", "127.0.0.1"),
      metadataServer.url("/metadata", "[::1]"),
      "https://169.254.169.254/latest/meta-data/",
      "https://10.0.0.1/metadata",
      "https://[::ffff:127.0.0.1]/metadata",
      metadataServer.url("/to-loopback", "localhost"),
      metadataServer.url("/to-cloud-metadata", "localhost"),
      metadataServer.url("/to-private", "localhost"),
    ];
    for (const metadata_url of refused) {
      const response = await fetch(`${server.authUrl}/admin/sso/providers`, {
        method: "POST",
        headers: { authorization: `Bearer ${serviceToken}`, "content-type": "application/json" },
        body: JSON.stringify({ type: "saml", metadata_url }),
      });
      const body = (await response.json()) as { error_code?: string };
      expect({ metadata_url, status: response.status, code: body.error_code }).toEqual({
        metadata_url,
        status: 400,
        code: "saml_metadata_address_refused",
      });
    }
    expect(await server.db.selectFrom("sso_providers").select("id").execute()).toEqual([]);
  });
});
