// SAML 2.0 messages as an identity provider writes them, for the tests' identity providers: the
// server tests' (saml-test-provider.ts) and the browser journeys' (e2e/saml-identity-provider.mjs).
// Plain JavaScript so the journeys' provider, a Node script, runs it without a build; its types are
// in saml-messages.d.mts. Keys are generated for each run; nothing here is a real credential.
import { randomUUID } from "node:crypto";
import { inflateRawSync } from "node:zlib";
import { generate } from "selfsigned";
import { SignedXml } from "xml-crypto";

export const persistentNameId = "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent";

export async function generateSamlKeys(commonName = "Test identity provider") {
  const pems = await generate([{ name: "commonName", value: commonName }], { keySize: 2048, algorithm: "sha256" });
  return { privateKey: pems.private, certificate: pems.cert };
}

export function identityProviderMetadata(entityId, singleSignOnUrl, certificate, nameIdFormat = persistentNameId) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${escapeXml(entityId)}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol" WantAuthnRequestsSigned="false">
    <md:KeyDescriptor use="signing">
      <ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certificateBody(certificate)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>
    </md:KeyDescriptor>
    <md:NameIDFormat>${escapeXml(nameIdFormat)}</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${escapeXml(singleSignOnUrl)}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
}

/** The AuthnRequest the browser carries to the identity provider (HTTP-Redirect binding: deflated, base64). */
export function readAuthnRequest(url) {
  const query = new URL(url).searchParams;
  const xml = inflateRawSync(Buffer.from(query.get("SAMLRequest") ?? "", "base64")).toString("utf8");
  const id = rootAttribute(xml, "ID");
  if (!id) throw new Error(`no request ID in ${xml}`);
  return {
    id,
    assertionConsumerUrl: rootAttribute(xml, "AssertionConsumerServiceURL"),
    relayState: query.get("RelayState") ?? "",
    xml,
  };
}

/**
 * A Response to `inResponseTo` carrying an assertion about `nameId`, signed as identity providers
 * sign it (enveloped RSA-SHA256 over the assertion), base64'd as the browser posts it. The options
 * beyond a valid answer make the refusals the tests need: another key, no signature, another issuer,
 * a changed assertion, a time window elsewhere.
 */
export function samlResponse(options) {
  const now = Date.now();
  const at = (seconds) => new Date(now + seconds * 1000).toISOString();
  const issuer = escapeXml(options.issuer ?? options.entityId);
  const assertionId = `_${randomUUID()}`;
  const inResponseTo = escapeXml(options.inResponseTo);
  const recipient = escapeXml(options.recipient);
  const attributes = Object.entries(options.attributes ?? {})
    .map(
      ([name, value]) =>
        `<saml:Attribute Name="${escapeXml(name)}"><saml:AttributeValue>${escapeXml(value)}</saml:AttributeValue></saml:Attribute>`,
    )
    .join("");
  const nameId =
    options.nameId === null
      ? ""
      : `<saml:NameID Format="${escapeXml(options.nameIdFormat ?? persistentNameId)}">${escapeXml(options.nameId)}</saml:NameID>`;
  const assertion =
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${at(0)}">` +
    `<saml:Issuer>${issuer}</saml:Issuer>` +
    `<saml:Subject>${nameId}<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData InResponseTo="${inResponseTo}" NotOnOrAfter="${at(options.notOnOrAfter ?? 300)}" Recipient="${recipient}"/>` +
    `</saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${at(options.notBefore ?? -60)}" NotOnOrAfter="${at(options.notOnOrAfter ?? 300)}">` +
    `<saml:AudienceRestriction><saml:Audience>${escapeXml(options.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${at(0)}" SessionIndex="${assertionId}"><saml:AuthnContext>` +
    `<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>` +
    `</saml:AuthnContext></saml:AuthnStatement>` +
    (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : "") +
    `</saml:Assertion>`;
  let signedAssertion = options.signed === false ? assertion : sign(assertion, options.signWith ?? options.keys);
  if (options.tamper) signedAssertion = options.tamper(signedAssertion);
  const response =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
    `ID="_${randomUUID()}" Version="2.0" IssueInstant="${at(0)}" Destination="${recipient}" InResponseTo="${inResponseTo}">` +
    `<saml:Issuer>${issuer}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    signedAssertion +
    `</samlp:Response>`;
  return Buffer.from(response, "utf8").toString("base64");
}

/** Text fit for an XML or HTML attribute or element. */
export function escapeXml(text) {
  return String(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** An enveloped RSA-SHA256 signature over the assertion, placed after its Issuer as the schema wants. */
function sign(assertion, keys) {
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

/** An attribute of the request's root element (the first occurrence), unescaped. */
function rootAttribute(xml, name) {
  const value = new RegExp(`\\s${name}="([^"]*)"`).exec(xml)?.[1];
  return value
    ?.replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

function certificateBody(pem) {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "");
}
