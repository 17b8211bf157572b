// The SAML 2.0 identity provider the single sign-on journey (e2e/saml.spec.ts) signs in at, on
// loopback. Playwright starts it beside the product's server (playwright.config.ts); the journey
// registers its metadata (GET /metadata) through the admin API.
//
// Whatever address is typed at its sign-in page is the person: the NameID and the `email`
// attribute of a signed assertion, which its page posts to the product's assertion consumer
// (HTTP-POST binding), as a household's Keycloak would. The key and certificate are made at each
// start; nothing here is a real credential.
//
// The response is built and signed as apps/server/test/saml-test-provider.ts does (that helper is
// TypeScript, which this plain Node script cannot import); keep the two alike.
import { randomUUID } from "node:crypto";
import http from "node:http";
import { inflateRawSync } from "node:zlib";
import { generate } from "selfsigned";
import { SignedXml } from "xml-crypto";

const port = Number(process.env.SAML_PORT ?? 18082);
// The product's auth address (`…/auth/v1`): its entity ID and assertion consumer derive from it.
const serviceProviderUrl = process.env.SAML_SP_URL;
if (!serviceProviderUrl) throw new Error("SAML_SP_URL (the product's …/auth/v1) is required");
const audience = `${serviceProviderUrl}/sso/saml/metadata`;
const assertionConsumerUrl = `${serviceProviderUrl}/sso/saml/acs`;
// Not tied to the port, so a provider registered in an earlier run against the same data folder is
// this one, with a new certificate (the journey updates it).
const entityId = "urn:memory-box:e2e:saml-identity-provider";
const origin = `http://127.0.0.1:${port}`;
const maxFormBytes = 64 * 1024;

const pems = await generate([{ name: "commonName", value: "Memory Box e2e identity provider" }], {
  keySize: 2048,
  algorithm: "sha256",
});
const keys = { privateKey: pems.private, certificate: pems.cert };

const metadataXml = `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${escape(entityId)}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol" WantAuthnRequestsSigned="false">
    <md:KeyDescriptor use="signing">
      <ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certificateBody(keys.certificate)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>
    </md:KeyDescriptor>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${origin}/sso"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;

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
      authnRequest = inflateRawSync(Buffer.from(url.searchParams.get("SAMLRequest") ?? "", "base64")).toString("utf8");
    } catch {
      return page(response, 400, "Bad request", "<p>SAMLRequest is not a deflated authentication request.</p>");
    }
    const requestId = attribute(authnRequest, "ID");
    const acs = attribute(authnRequest, "AssertionConsumerServiceURL");
    if (!requestId) return page(response, 400, "Bad request", "<p>The authentication request has no ID.</p>");
    // A real identity provider answers only the service providers registered with it, at their own address.
    if (acs !== assertionConsumerUrl)
      return page(response, 400, "Bad request", `<p>Unknown assertion consumer ${escape(acs ?? "(none)")}.</p>`);
    return page(
      response,
      200,
      "Sign in to Local SAML ID",
      `<h1>Local SAML ID</h1>
<form method="post" action="/login">
  <label>Email <input type="email" name="email" required autofocus></label>
  <input type="hidden" name="request_id" value="${escape(requestId)}">
  <input type="hidden" name="relay_state" value="${escape(url.searchParams.get("RelayState") ?? "")}">
  <button type="submit">Sign in</button>
</form>`,
    );
  }
  if (request.method === "POST" && url.pathname === "/login") {
    const form = new URLSearchParams(await readBody(request));
    const email = form.get("email")?.trim() ?? "";
    const requestId = form.get("request_id") ?? "";
    if (!email || !requestId) return page(response, 400, "Bad request", "<p>An email and a request ID are needed.</p>");
    const samlResponse = respond({ inResponseTo: requestId, nameId: email, attributes: { email } });
    // HTTP-POST binding: a form that posts itself to the assertion consumer.
    return page(
      response,
      200,
      "Signing you in",
      `<form method="post" action="${escape(assertionConsumerUrl)}">
  <input type="hidden" name="SAMLResponse" value="${escape(samlResponse)}">
  <input type="hidden" name="RelayState" value="${escape(form.get("relay_state") ?? "")}">
  <noscript><button type="submit">Continue</button></noscript>
</form>
<script>document.forms[0].submit();</script>`,
    );
  }
  page(response, 404, "Not found", "<p>Not found.</p>");
}

/** A signed assertion for `nameId` inside a Response to `inResponseTo`, base64'd as the form posts it. */
function respond({ inResponseTo, nameId, attributes }) {
  const now = Date.now();
  const at = (seconds) => new Date(now + seconds * 1000).toISOString();
  const assertionId = `_${randomUUID()}`;
  const attributeXml = Object.entries(attributes)
    .map(
      ([name, value]) =>
        `<saml:Attribute Name="${escape(name)}"><saml:AttributeValue>${escape(value)}</saml:AttributeValue></saml:Attribute>`,
    )
    .join("");
  const assertion =
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${at(0)}">` +
    `<saml:Issuer>${escape(entityId)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${escape(nameId)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData InResponseTo="${escape(inResponseTo)}" NotOnOrAfter="${at(300)}" Recipient="${escape(assertionConsumerUrl)}"/>` +
    `</saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${at(-60)}" NotOnOrAfter="${at(300)}">` +
    `<saml:AudienceRestriction><saml:Audience>${escape(audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${at(0)}" SessionIndex="${assertionId}"><saml:AuthnContext>` +
    `<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>` +
    `</saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement>${attributeXml}</saml:AttributeStatement>` +
    `</saml:Assertion>`;
  const response =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
    `ID="_${randomUUID()}" Version="2.0" IssueInstant="${at(0)}" Destination="${escape(assertionConsumerUrl)}" InResponseTo="${escape(inResponseTo)}">` +
    `<saml:Issuer>${escape(entityId)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    sign(assertion) +
    `</samlp:Response>`;
  return Buffer.from(response, "utf8").toString("base64");
}

/** An enveloped RSA-SHA256 signature over the assertion, placed after its Issuer as the schema wants. */
function sign(assertion) {
  const signer = new SignedXml({
    privateKey: keys.privateKey,
    publicCert: keys.certificate,
    signatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
    canonicalizationAlgorithm: "http://www.w3.org/2001/10/xml-exc-c14n#",
  });
  signer.addReference({
    xpath: "/*[local-name()='Assertion']",
    transforms: ["http://www.w3.org/2000/09/xmldsig#enveloped-signature", "http://www.w3.org/2001/10/xml-exc-c14n#"],
    digestAlgorithm: "http://www.w3.org/2001/04/xmlenc#sha256",
  });
  signer.computeSignature(assertion, {
    prefix: "ds",
    location: { reference: "/*[local-name()='Assertion']/*[local-name()='Issuer']", action: "after" },
  });
  return signer.getSignedXml();
}

/** An attribute of the request's root element (its own, not a child's: the first occurrence). */
function attribute(xml, name) {
  const value = new RegExp(`\\s${name}="([^"]*)"`).exec(xml)?.[1];
  return value === undefined ? undefined : unescape(value);
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

function certificateBody(pem) {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "");
}

function escape(text) {
  return String(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

function unescape(text) {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, "&");
}
