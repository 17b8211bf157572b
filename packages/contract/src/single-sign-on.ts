import { z } from "zod";

/** A household's SAML identity provider, as owners see it in Settings (ADR 0036). */
export const SingleSignOnProvider = z.object({
  id: z.uuid(),
  /** The identity provider's SAML entity ID, from its metadata. */
  entity_id: z.string(),
  /** The e-mail domains it signs in. */
  domains: z.array(z.string()),
  /** Where its metadata was read from; null when it was pasted. */
  metadata_url: z.string().nullable(),
  created_at: z.string(),
});
export type SingleSignOnProvider = z.infer<typeof SingleSignOnProvider>;

/** `GET /api/v1/single-sign-on`: what an identity provider's administrator needs, and the providers. */
export const SingleSignOnOverview = z.object({
  /** This server as a SAML service provider: what to register at the identity provider. */
  service_provider: z.object({ entity_id: z.string(), assertion_consumer_url: z.string(), metadata_url: z.string() }),
  providers: z.array(SingleSignOnProvider),
});
export type SingleSignOnOverview = z.infer<typeof SingleSignOnOverview>;

/** `POST /api/v1/single-sign-on/providers`: the provider's metadata, by address or pasted, and its domains. */
export const SingleSignOnProviderInput = z
  .object({
    metadata_url: z.string().max(2048).optional(),
    /** A metadata document is a few kilobytes. */
    metadata_xml: z
      .string()
      .max(512 * 1024)
      .optional(),
    domains: z.array(z.string().max(253)).min(1, { message: "name at least one e-mail domain" }).max(20),
  })
  .strict();
export type SingleSignOnProviderInput = z.infer<typeof SingleSignOnProviderInput>;
