// Types of saml-messages.mjs (plain JavaScript, shared with the browser journeys' identity provider).

export interface SamlKeys {
  privateKey: string;
  certificate: string;
}

export interface ResponseOptions {
  /** The identity provider's entity ID (the Issuer). */
  entityId: string;
  /** Its signing keys. */
  keys: SamlKeys;
  /** The authentication request's ID the response answers (InResponseTo). */
  inResponseTo: string;
  /** The service provider's entity ID (the audience). */
  audience: string;
  /** The assertion consumer URL (Destination and Recipient). */
  recipient: string;
  /** null: the Subject carries no NameID. */
  nameId: string | null;
  nameIdFormat?: string | undefined;
  attributes?: Record<string, string> | undefined;
  /** Seconds from now; negative for the past. Defaults: -60 and +300. */
  notBefore?: number | undefined;
  notOnOrAfter?: number | undefined;
  /** Signed with other keys than the identity provider's. */
  signWith?: SamlKeys | undefined;
  /** false: no signature at all. */
  signed?: boolean | undefined;
  /** Another Issuer than the entity ID. */
  issuer?: string | undefined;
  /** Turns the signed assertion into another before it is sent (a tampered answer). */
  tamper?: ((xml: string) => string) | undefined;
}

export const persistentNameId: string;
export function generateSamlKeys(commonName?: string): Promise<SamlKeys>;
export function identityProviderMetadata(
  entityId: string,
  singleSignOnUrl: string,
  certificate: string,
  nameIdFormat?: string,
): string;
export function readAuthnRequest(url: string): {
  id: string;
  assertionConsumerUrl: string | undefined;
  relayState: string;
  xml: string;
};
export function samlResponse(options: ResponseOptions): string;
export function escapeXml(text: unknown): string;
