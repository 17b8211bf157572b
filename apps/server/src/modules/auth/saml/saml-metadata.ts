import { X509Certificate } from "node:crypto";
import { DOMParser } from "@xmldom/xmldom";
import * as xpath from "xpath";
import { AppError } from "../../../errors";

/** What a sign-in needs of an identity provider's SAML metadata. */
export interface IdentityProviderMetadata {
  entityId: string;
  /** Where the browser takes the authentication request (HTTP-Redirect binding). */
  singleSignOnUrl: string;
  /** PEM certificates whose keys may sign the provider's responses. */
  signingCertificates: string[];
}

const select = xpath.useNamespaces({
  md: "urn:oasis:names:tc:SAML:2.0:metadata",
  ds: "http://www.w3.org/2000/09/xmldsig#",
});
const redirectBinding = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";

/**
 * Reads an identity provider's metadata document: one EntityDescriptor with one IDPSSODescriptor,
 * as Supabase Auth accepts, a single sign-on address for the HTTP-Redirect binding, and at least one
 * signing certificate (responses are only ever trusted by signature). The parser resolves no
 * external entities, so a document cannot make the server read files or addresses.
 */
export function parseIdentityProviderMetadata(xml: string): IdentityProviderMetadata {
  const invalid = (message: string) => new AppError("validation_failed", { message });
  let document: Document;
  try {
    document = new DOMParser({
      onError: (level, message) => {
        if (level !== "warning") throw new Error(message);
      },
    }).parseFromString(xml, "text/xml") as unknown as Document;
  } catch {
    throw invalid("SAML Metadata is not valid XML");
  }
  const root = document.documentElement;
  if (!root || root.localName !== "EntityDescriptor" || root.namespaceURI !== "urn:oasis:names:tc:SAML:2.0:metadata")
    throw invalid("SAML Metadata must be one md:EntityDescriptor");
  const entityId = root.getAttribute("entityID")?.trim();
  if (!entityId) throw invalid("SAML Metadata does not contain an EntityID");

  const descriptors = select("md:IDPSSODescriptor", root) as Element[];
  if (descriptors.length < 1) throw invalid("SAML Metadata does not contain any IDPSSODescriptor");
  if (descriptors.length > 1) throw invalid("SAML Metadata contains multiple IDPSSODescriptors");
  const descriptor = descriptors[0]!;

  const services = select("md:SingleSignOnService", descriptor) as Element[];
  const location = services.find((service) => service.getAttribute("Binding") === redirectBinding)?.getAttribute("Location");
  if (!location || !isWebAddress(location))
    throw invalid("SAML Metadata has no https single sign-on address for the HTTP-Redirect binding");

  const certificates = (select("md:KeyDescriptor", descriptor) as Element[])
    .filter((key) => !key.getAttribute("use") || key.getAttribute("use") === "signing")
    .flatMap((key) => select("ds:KeyInfo/ds:X509Data/ds:X509Certificate", key) as Element[])
    .map((element) => toPem(element.textContent ?? ""));
  if (certificates.length === 0) throw invalid("SAML Metadata has no signing certificate");
  for (const certificate of certificates) {
    try {
      new X509Certificate(certificate);
    } catch {
      throw invalid("SAML Metadata has a signing certificate that cannot be read");
    }
  }
  return { entityId, singleSignOnUrl: location, signingCertificates: certificates };
}

/** https, or http to this machine (an identity provider on loopback, as tests and trials run one). */
function isWebAddress(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || (url.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname));
  } catch {
    return false;
  }
}

function toPem(base64: string): string {
  const body = base64.replace(/\s+/g, "");
  const lines = body.match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`;
}
