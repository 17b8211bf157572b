// The SAML 2.0 identity provider the single sign-on journey (e2e/saml.spec.ts) signs in at, on
// loopback. Playwright starts it beside the product's server (playwright.config.ts); the journey
// registers its metadata (GET /metadata) through the admin API.
//
// Whatever address is typed at its sign-in page is the person: the NameID and the `email`
// attribute of a signed assertion, which its page posts to the product's assertion consumer
// (HTTP-POST binding), as a household's Keycloak would. The key and certificate are made at each
// start; nothing here is a real credential.
//
// Its messages are the server tests' identity provider's (apps/server/test/saml-messages.mjs).
import http from "node:http";
import {
  escapeXml as escape,
  generateSamlKeys,
  identityProviderMetadata,
  readAuthnRequest,
  samlResponse,
} from "../apps/server/test/saml-messages.mjs";

const port = Number(process.env.SAML_PORT ?? 18082);
// The product's auth address (`…/auth/v1`): its entity ID and assertion consumer derive from it.
// A run has a server per worker, each registering this provider: it answers each at its own address.
const serviceProviderUrls = (process.env.SAML_SP_URLS ?? process.env.SAML_SP_URL ?? "").split(",").filter(Boolean);
if (serviceProviderUrls.length === 0)
  throw new Error("SAML_SP_URLS (the product servers' …/auth/v1, comma-separated) is required");
const serviceProviders = serviceProviderUrls.map((url) => ({
  audience: `${url}/sso/saml/metadata`,
  assertionConsumerUrl: `${url}/sso/saml/acs`,
}));
// Not tied to the port, so a provider registered in an earlier run against the same data folder is
// this one, with a new certificate (the journey updates it).
const entityId = "urn:memory-box:e2e:saml-identity-provider";
const origin = `http://127.0.0.1:${port}`;
const maxFormBytes = 64 * 1024;

const emailNameId = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";
const keys = await generateSamlKeys("Memory Box e2e identity provider");
const metadataXml = identityProviderMetadata(entityId, `${origin}/sso`, keys.certificate, emailNameId);

const server = http.createServer((request, response) => {
  handle(request, response).catch((error) => {
    console.error("e2e SAML identity provider:", error);
    if (!response.headersSent) page(response, 500, "Error", `<p>${escape(String(error))}</p>`);
  });
});
server.listen(port, "127.0.0.1");
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.close(() => process.exit(0)));

async function handle(request, response) {
  const url = new URL(request.url ?? "/", origin);
  if (request.method === "GET" && url.pathname === "/metadata") {
    response.writeHead(200, { "content-type": "application/samlmetadata+xml; charset=utf-8" });
    response.end(metadataXml);
    return;
  }
  if (request.method === "GET" && url.pathname === "/sso") {
    // HTTP-Redirect binding: the AuthnRequest deflated (raw) and base64'd.
    let authnRequest;
    try {
      authnRequest = readAuthnRequest(url.toString());
    } catch {
      return page(response, 400, "Bad request", "<p>SAMLRequest is not a deflated authentication request.</p>");
    }
    const { id: requestId, assertionConsumerUrl: acs } = authnRequest;
    if (!requestId) return page(response, 400, "Bad request", "<p>The authentication request has no ID.</p>");
    // A real identity provider answers only the service providers registered with it, at their own address.
    const serviceProvider = serviceProviders.findIndex((candidate) => candidate.assertionConsumerUrl === acs);
    if (serviceProvider < 0)
      return page(response, 400, "Bad request", `<p>Unknown assertion consumer ${escape(acs ?? "(none)")}.</p>`);
    return page(
      response,
      200,
      "Sign in to Local SAML ID",
      `<h1>Local SAML ID</h1>
<form method="post" action="/login">
  <label>Email <input type="email" name="email" required autofocus></label>
  <input type="hidden" name="request_id" value="${escape(requestId)}">
  <input type="hidden" name="service_provider" value="${serviceProvider}">
  <input type="hidden" name="relay_state" value="${escape(url.searchParams.get("RelayState") ?? "")}">
  <button type="submit">Sign in</button>
</form>`,
    );
  }
  if (request.method === "POST" && url.pathname === "/login") {
    const form = new URLSearchParams(await readBody(request));
    const email = form.get("email")?.trim() ?? "";
    const requestId = form.get("request_id") ?? "";
    const serviceProvider = serviceProviders[Number(form.get("service_provider") ?? "-1")];
    if (!email || !requestId || !serviceProvider)
      return page(response, 400, "Bad request", "<p>An email, a request ID and a service provider are needed.</p>");
    const { audience, assertionConsumerUrl } = serviceProvider;
    const answer = samlResponse({
      entityId,
      keys,
      inResponseTo: requestId,
      audience,
      recipient: assertionConsumerUrl,
      nameId: email,
      nameIdFormat: emailNameId,
      attributes: { email },
    });
    // HTTP-POST binding: a form that posts itself to the assertion consumer.
    return page(
      response,
      200,
      "Signing you in",
      `<form method="post" action="${escape(assertionConsumerUrl)}">
  <input type="hidden" name="SAMLResponse" value="${escape(answer)}">
  <input type="hidden" name="RelayState" value="${escape(form.get("relay_state") ?? "")}">
  <noscript><button type="submit">Continue</button></noscript>
</form>
<script>document.forms[0].submit();</script>`,
    );
  }
  page(response, 404, "Not found", "<p>Not found.</p>");
}

function page(response, status, title, body) {
  response.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  response.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head><body>${body}</body></html>`,
  );
}

function readBody(request) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    request.on("data", (chunk) => {
      size += chunk.length;
      if (size > maxFormBytes) {
        reject(new Error("form too large"));
        request.destroy();
      } else chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}
