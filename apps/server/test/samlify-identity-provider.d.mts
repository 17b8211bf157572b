// Types of samlify-identity-provider.mjs (plain JavaScript: samlify's declarations stay out of the
// server's TypeScript program).

/** samlify's reading of a service provider's metadata; only the identity provider uses it. */
export interface SamlifyServiceProvider {
  readonly __samlifyServiceProvider: unique symbol;
}

export interface SamlifyAnswer {
  /** The request ID samlify read from the AuthnRequest (its answer's InResponseTo). */
  requestId: string;
  /** Where samlify's page posts the form: the assertion consumer of the service provider's metadata. */
  endpoint: string;
  form: { SAMLResponse: string; RelayState: string };
  /** The Response as samlify wrote and signed it. */
  xml: string;
}

export interface SamlifyIdentityProvider {
  entityId: string;
  /** samlify's own metadata document (getMetadata()). */
  metadataXml: string;
  /** signResponses: the Response is signed too, not only the assertion (samlify's wantMessageSigned). */
  serviceProvider(metadataXml: string, options?: { signResponses?: boolean }): SamlifyServiceProvider;
  /**
   * samlify reads the HTTP-Redirect AuthnRequest at `url` and answers it for the HTTP-POST binding.
   * Without `subject`: samlify's answer as it writes it with no template (the NameID is the address,
   * no attributes). With it: the NameID is `subject` (persistent), and `email` and `displayName`
   * are attributes.
   */
  answer(
    sp: SamlifyServiceProvider,
    url: string,
    user: { email: string; subject?: string; displayName?: string },
  ): Promise<SamlifyAnswer>;
}

export function createSamlifyIdentityProvider(entityId?: string): Promise<SamlifyIdentityProvider>;
