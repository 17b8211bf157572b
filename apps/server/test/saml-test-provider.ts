import { randomUUID } from "node:crypto";
import {
  generateSamlKeys,
  identityProviderMetadata,
  type ResponseOptions,
  type SamlKeys,
  samlResponse,
} from "./saml-messages.mjs";

// A SAML 2.0 identity provider for the server tests: its metadata, and signed responses it issues
// the way real identity providers do (a signed assertion inside a Response, posted by the browser).

export { generateSamlKeys, identityProviderMetadata, readAuthnRequest } from "./saml-messages.mjs";

/** What a response says; the provider adds who it is and signs. */
export type AssertionOptions = Omit<ResponseOptions, "entityId" | "keys">;

export interface TestSamlProvider {
  entityId: string;
  singleSignOnUrl: string;
  keys: SamlKeys;
  metadataXml: string;
  /** A base64 SAMLResponse, as the identity provider's page posts it. */
  respond(options: AssertionOptions): string;
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
    respond: (assertion) => samlResponse({ ...assertion, entityId, keys }),
  };
}
