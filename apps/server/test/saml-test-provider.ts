import { randomUUID } from "node:crypto";
import { inflateRawSync } from "node:zlib";
import { generate } from "selfsigned";
import { SignedXml } from "xml-crypto";

// A SAML 2.0 identity provider for tests: its metadata, and signed responses it issues the way
// real identity providers do (a signed assertion inside a Response, posted by the browser). Keys
// and certificates are generated for each run; nothing here is a real credential.

export interface TestSamlKeys {
  privateKey: string;
  certificate: string;
}

export interface AssertionOptions {
  /** The authentication request's ID the response answers (InResponseTo). */
  inResponseTo: string;
  /** The service provider's entity ID (the audience). */
  audience: string;
  /** The assertion consumer URL (Destination and Recipient). */
  recipient: string;
  /** null: the Subject carries no NameID. */
  nameId: string | null;
  nameIdFormat?: string;
  attributes?: Record<string, string>;
  /** Seconds from now; negative for the past. Defaults: -60 and +300. */
  notBefore?: number;
  notOnOrAfter?: number;
  /** Signed with other keys than the ones the metadata names. */
  signWith?: TestSamlKeys;
  /** false: no signature at all. */
  signed?: boolean;
  issuer?: string;
  /** Turns the signed assertion into another before it is sent (a tampered answer). */
  tamper?: (xml: string) => string;
}

export interface TestSamlProvider {
  entityId: string;
  singleSignOnUrl: string;
  keys: TestSamlKeys;
  metadataXml: string;
  /** A base64 SAMLResponse, as the identity provider's page posts it. */
  respond(options: AssertionOptions): string;
}

export async function generateSamlKeys(commonName = "Test identity provider"): Promise<TestSamlKeys> {
  const pems = await generate([{ name: "commonName", value: commonName }], { keySize: 2048, algorithm: "sha256" });
  return { privateKey: pems.private, certificate: pems.cert };
}

export async function createSamlTestProvider(
  options: { entityId?: string; singleSignOnUrl?: string } = {},
): Promise<TestSamlProvider> {
  const entityId = options.entityId ?? `https://idp-${randomUUID().slice(0, 8)}.example.org/saml`;
  const singleSignOnUrl = options.singleSignOnUrl ?? `${new URL(entityId).origin}/sso`;
  const keys = await generateSamlKeys();
  return {
    entityId,
    singleSignOnUrl,
    keys,
    metadataXml: identityProviderMetadata(entityId, singleSignOnUrl, keys.certificate),
    respond: (assertion) => respond(entityId, keys, assertion),
  };
}

export function identityProviderMetadata(entityId: string, singleSignOnUrl: string, certificate: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${entityId}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol" WantAuthnRequestsSigned="false">
    <md:KeyDescriptor use="signing">
      <ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certificateBody(certificate)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>
    </md:KeyDescriptor>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:persistent</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${singleSignOnUrl}"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${singleSignOnUrl}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
}

/** The AuthnRequest the browser carries to the identity provider (HTTP-Redirect binding: deflated, base64). */
export function readAuthnRequest(url: string): { id: string; relayState: string; xml: string } {
  const query = new URL(url).searchParams;
  const xml = inflateRawSync(Buffer.from(query.get("SAMLRequest") ?? "", "base64")).toString("utf8");
  const id = /\sID="([^"]+)"/.exec(xml)?.[1];
  if (!id) throw new Error(`no request ID in ${xml}`);
  return { id, relayState: query.get("RelayState") ?? "", xml };
}

function respond(entityId: string, keys: TestSamlKeys, options: AssertionOptions): string {
  const now = Date.now();
  const at = (seconds: number) => new Date(now + seconds * 1000).toISOString();
  const issuer = options.issuer ?? entityId;
  const assertionId = `_${randomUUID()}`;
  const attributes = Object.entries(options.attributes ?? {})
    .map(
      ([name, value]) =>
        `<saml:Attribute Name="${escape(name)}"><saml:AttributeValue>${escape(value)}</saml:AttributeValue></saml:Attribute>`,
    )
    .join("");
  const assertion =
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${at(0)}">` +
    `<saml:Issuer>${escape(issuer)}</saml:Issuer>` +
    `<saml:Subject>` +
    (options.nameId === null
      ? ""
      : `<saml:NameID Format="${options.nameIdFormat ?? "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent"}">${escape(options.nameId)}</saml:NameID>`) +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData InResponseTo="${options.inResponseTo}" NotOnOrAfter="${at(options.notOnOrAfter ?? 300)}" Recipient="${options.recipient}"/>` +
    `</saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${at(options.notBefore ?? -60)}" NotOnOrAfter="${at(options.notOnOrAfter ?? 300)}">` +
    `<saml:AudienceRestriction><saml:Audience>${escape(options.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${at(0)}" SessionIndex="${assertionId}"><saml:AuthnContext>` +
    `<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>` +
    `</saml:AuthnContext></saml:AuthnStatement>` +
    (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : "") +
    `</saml:Assertion>`;
  let signedAssertion = options.signed === false ? assertion : sign(assertion, options.signWith ?? keys);
  if (options.tamper) signedAssertion = options.tamper(signedAssertion);
  const response =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
    `ID="_${randomUUID()}" Version="2.0" IssueInstant="${at(0)}" Destination="${options.recipient}" InResponseTo="${options.inResponseTo}">` +
    `<saml:Issuer>${escape(issuer)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    signedAssertion +
    `</samlp:Response>`;
  return Buffer.from(response, "utf8").toString("base64");
}

/** An enveloped RSA-SHA256 signature over the assertion, placed after its Issuer as the schema wants. */
function sign(assertion: string, keys: TestSamlKeys): string {
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

function certificateBody(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "");
}

function escape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
