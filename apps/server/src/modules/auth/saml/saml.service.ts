import { randomUUID } from "node:crypto";
import type { SingleSignOnOverview, SingleSignOnProvider, SingleSignOnProviderInput } from "@memory-box/contract";
import type * as NodeSaml from "@node-saml/node-saml";
import type { SsoProviderRow } from "../../../db/schema";
import { AppError } from "../../../errors";
import { guardedFetch, OutboundFetchError } from "../../../lib/guarded-fetch";
import type { AuthAuditLog } from "../core/audit-log";
import type { PkceChallenge } from "../core/emailed-tokens.service";
import { type AdminContext, recordAdminAction } from "../admin/admin.service";
import type { CallbackOutcome, IdentitiesService } from "../identities/identities.service";
import { singleSignOnName } from "../identities/identities.service";
import type { IdentitiesRepository } from "../identities/identities.repository";
import type * as SamlMetadata from "./saml-metadata";
import { randomToken, sha256 } from "../core/secrets";
import type { RequestContext } from "../core/session.service";
import {
  type SsoProviderRecord,
  type SamlProvidersRepository,
  ssoProviderIdOf,
  ssoStateProvider,
} from "./saml-providers.repository";

/** How long a browser may take at the identity provider between `POST /sso` and the assertion. */
const relayStateTtlMs = 10 * 60_000;
/** Clocks of the identity provider and of this server may disagree by this much. */
const clockSkewMs = 60_000;
const metadataFetchTimeoutMs = 10_000;
const maxMetadataBytes = 1024 * 1024;
const maxMetadataRedirects = 3;

/**
 * node-saml and the metadata reader (xmldom, xpath), loaded at the first SAML request: a server
 * with SAML off never loads them.
 */
let samlLibraries: Promise<[typeof NodeSaml, typeof SamlMetadata]> | undefined;
export const loadSaml = () => (samlLibraries ??= Promise.all([import("@node-saml/node-saml"), import("./saml-metadata")]));

export const nameIdFormats = [
  "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
  "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
  "urn:oasis:names:tc:SAML:2.0:nameid-format:transient",
  "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified",
] as const;

/** Supabase Auth's `attribute_mapping`: for each claim, the assertion attribute(s) that hold it. */
export interface AttributeMapping {
  keys?: Record<string, { name?: string | undefined; names?: string[] | undefined; default?: unknown } | undefined>;
}

/** What the admin API takes to register or change an identity provider (Supabase Auth's body). */
export interface SsoProviderInput {
  type?: string | undefined;
  metadata_url?: string | undefined;
  metadata_xml?: string | undefined;
  domains?: string[] | undefined;
  attribute_mapping?: AttributeMapping | undefined;
  name_id_format?: string | undefined;
  resource_id?: string | undefined;
}

/** Where an e-mail address is found in an assertion when the mapping names none. */
const emailAttributes = [
  "email",
  "mail",
  "Email",
  "emailaddress",
  "urn:oid:0.9.2342.19200300.100.1.3",
  "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress",
  "http://schemas.xmlsoap.org/claims/EmailAddress",
];
const transientNameId = "urn:oasis:names:tc:SAML:2.0:nameid-format:transient";
/** SAML's standard stable identifiers of a person (SAML V2.0 Subject Identifier Attributes Profile). */
const subjectIdAttributes = ["urn:oasis:names:tc:SAML:attribute:subject-id", "urn:oasis:names:tc:SAML:attribute:pairwise-id"];
const nameAttributes = [
  "name",
  "displayName",
  "urn:oid:2.16.840.1.113730.3.1.241",
  "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name",
];

/**
 * SAML 2.0 single sign-on (ADR 0036): identity providers registered through the admin API, the
 * authentication request (`POST /sso`) and the assertion consumer. Only sign-ins started here
 * are accepted: each answers one recorded request, once, and its assertion must be signed by the
 * provider, meant for this server and within its time window. Who gets in is decided as for
 * OpenID Connect providers (IdentitiesService): a linked member, or an invited address.
 */
export class SamlService {
  constructor(
    private readonly deps: {
      enabled: boolean;
      /** Hosts metadata may be fetched from although their addresses are not public (ADR 0045). */
      metadataAllowedHosts?: readonly string[];
      /** This server's auth address (`…/auth/v1`): the SAML entity ID and assertion consumer derive from it. */
      authUrl: string;
      providers: SamlProvidersRepository;
      identities: IdentitiesRepository;
      federated: IdentitiesService;
      audit: AuthAuditLog;
      redirectTarget: (requested: string | undefined) => string;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** This server as a SAML service provider: its entity ID is the address of its metadata, as Supabase Auth's. */
  get entityId(): string {
    return `${this.deps.authUrl}/sso/saml/metadata`;
  }

  get assertionConsumerUrl(): string {
    return `${this.deps.authUrl}/sso/saml/acs`;
  }

  get enabled(): boolean {
    return this.deps.enabled;
  }

  private assertEnabled(): void {
    if (!this.deps.enabled) throw new AppError("sso_provider_disabled");
  }

  /** `GET /sso/saml/metadata`: what an identity provider's administrator registers this server with. */
  async serviceProviderMetadata(): Promise<string> {
    this.assertEnabled();
    const [{ SAML }] = await loadSaml();
    return new SAML({
      issuer: this.entityId,
      callbackUrl: this.assertionConsumerUrl,
      idpCert: "unused",
      identifierFormat: nameIdFormats[0],
      wantAssertionsSigned: true,
    }).generateServiceProviderMetadata(null);
  }

  // The admin API (`/admin/sso/providers`).

  async list(): Promise<{ items: Record<string, unknown>[] }> {
    this.assertEnabled();
    // Without the metadata documents, as Supabase Auth lists them: they can be large.
    return { items: (await this.deps.providers.list()).map((provider) => present(provider, { withMetadata: false })) };
  }

  async get(id: string): Promise<Record<string, unknown>> {
    return present(await this.find(id));
  }

  async create(input: SsoProviderInput, context: AdminContext): Promise<Record<string, unknown>> {
    return present(await this.register(input, context));
  }

  /** Owners' Settings → Single sign-on: what to give the identity provider, and the providers. */
  async overview(): Promise<SingleSignOnOverview> {
    this.assertEnabled();
    return {
      service_provider: {
        entity_id: this.entityId,
        assertion_consumer_url: this.assertionConsumerUrl,
        metadata_url: this.entityId,
      },
      providers: (await this.deps.providers.list()).map(summarize),
    };
  }

  /** An owner registering the household's identity provider (Settings → Single sign-on). */
  async registerForOwner(input: SingleSignOnProviderInput, context: AdminContext): Promise<SingleSignOnProvider> {
    return summarize(await this.register({ type: "saml", ...input }, context));
  }

  private async register(input: SsoProviderInput, context: AdminContext): Promise<SsoProviderRecord> {
    this.assertEnabled();
    if (input.type !== "saml")
      throw new AppError("validation_failed", { message: "Only 'saml' supported for SSO provider type" });
    const { xml, url, metadata } = await this.metadataOf(input, { required: true });
    const domains = normalizeDomains(input.domains ?? []);
    const now = this.now().toISOString();
    const row: SsoProviderRow = {
      id: randomUUID(),
      resource_id: input.resource_id ?? null,
      entity_id: metadata!.entityId,
      metadata_xml: xml!,
      metadata_url: url ?? null,
      attribute_mapping: JSON.stringify(input.attribute_mapping ?? {}),
      name_id_format: input.name_id_format || null,
      created_at: now,
      updated_at: now,
    };
    await this.deps.providers.transaction(async (trx) => {
      if (await this.deps.providers.findByEntityId(row.entity_id, trx))
        throw new AppError("saml_idp_already_exists", {
          message: `SAML Identity Provider with this EntityID (${row.entity_id}) already exists`,
        });
      await this.assertDomainsFree(domains, null, trx);
      await this.deps.providers.insert(row, domains, trx);
    });
    await this.record("admin.sso_provider_created", row, context, { domains });
    return this.find(row.id);
  }

  /** Changes what the body names; `domains` replaces the list when given (`[]` empties it). */
  async update(id: string, input: SsoProviderInput, context: AdminContext): Promise<Record<string, unknown>> {
    const existing = await this.find(id);
    const { xml, url, metadata } = await this.metadataOf(input, { required: false });
    if (metadata && metadata.entityId !== existing.entity_id)
      throw new AppError("saml_entity_id_mismatch", {
        message: `SAML Metadata can be updated only if the EntityID matches for the provider; expected '${existing.entity_id}' but got '${metadata.entityId}'`,
      });
    const domains = input.domains === undefined ? undefined : normalizeDomains(input.domains);
    const changes: Partial<SsoProviderRow> = { updated_at: this.now().toISOString() };
    if (xml) changes.metadata_xml = xml;
    if (url) changes.metadata_url = url;
    if (input.attribute_mapping !== undefined) changes.attribute_mapping = JSON.stringify(input.attribute_mapping);
    if (input.name_id_format !== undefined) changes.name_id_format = input.name_id_format || null;
    if (input.resource_id !== undefined) changes.resource_id = input.resource_id || null;
    await this.deps.providers.transaction(async (trx) => {
      if (domains) await this.assertDomainsFree(domains, id, trx);
      await this.deps.providers.update(id, changes, domains, trx);
    });
    await this.record("admin.sso_provider_updated", existing, context, { changed: Object.keys(changes) });
    return present(await this.find(id));
  }

  /** Members who signed in with it keep their accounts and their identities; they sign in another way. */
  async remove(id: string, context: AdminContext): Promise<Record<string, unknown>> {
    const existing = await this.find(id);
    await this.deps.providers.transaction((trx) => this.deps.providers.delete(id, trx));
    await this.record("admin.sso_provider_deleted", existing, context);
    return present(existing);
  }

  // Signing in.

  /**
   * `POST /sso`: records the request under way and answers the identity provider's address for it.
   * The relay state that comes back with the assertion is a new random secret, stored hashed.
   */
  async start(input: {
    domain: string | undefined;
    providerId: string | undefined;
    redirectTo: string | undefined;
    pkce: PkceChallenge | undefined;
  }): Promise<string> {
    this.assertEnabled();
    const domain = input.domain?.trim().toLowerCase();
    if (domain && input.providerId)
      throw new AppError("validation_failed", { message: "Only one of provider_id or domain supported" });
    if (!domain && !input.providerId)
      throw new AppError("validation_failed", { message: "A provider_id or domain needs to be provided" });
    const provider = domain
      ? await this.deps.providers.findByDomain(domain)
      : isUuid(input.providerId!)
        ? await this.deps.providers.findById(input.providerId!)
        : undefined;
    if (!provider) throw new AppError("sso_provider_not_found", domain ? {} : { message: "No such SSO provider" });
    const requestId = `_${randomUUID()}`;
    const relayState = randomToken();
    const url = await (await this.client(provider, requestId)).getAuthorizeUrlAsync(relayState, undefined, {});
    const now = this.now();
    await this.deps.identities.createState({
      id: sha256(relayState),
      provider: ssoStateProvider(provider.id),
      // The authentication request's ID: the response must answer it (InResponseTo).
      nonce: requestId,
      // No PKCE towards an identity provider: SAML has none.
      code_verifier: "",
      redirect_to: this.deps.redirectTarget(input.redirectTo),
      code_challenge: input.pkce?.codeChallenge ?? null,
      code_challenge_method: input.pkce?.codeChallengeMethod ?? null,
      link_user_id: null,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + relayStateTtlMs).toISOString(),
    });
    return url;
  }

  /**
   * `POST /sso/saml/acs`: the identity provider's answer, through the browser. The relay state is
   * taken out first, so an answer works once; an answer without one (a sign-in the identity
   * provider started) is refused: nothing here asked for it.
   */
  async consume(
    form: { SAMLResponse?: string | undefined; RelayState?: string | undefined },
    context: RequestContext,
  ): Promise<CallbackOutcome> {
    const siteUrl = this.deps.redirectTarget(undefined);
    if (!this.deps.enabled) return { redirectTo: siteUrl, error: new AppError("sso_provider_disabled") };
    if (!form.RelayState)
      return {
        redirectTo: siteUrl,
        error: new AppError("validation_failed", {
          message: "SAML RelayState is missing: sign-ins start at this site, not at the identity provider",
        }),
      };
    const state = await this.deps.identities.consumeState(sha256(form.RelayState));
    const providerId = state && ssoProviderIdOf(state.provider);
    if (!state || !providerId) return { redirectTo: siteUrl, error: new AppError("saml_relay_state_not_found") };
    if (Date.parse(state.expires_at) < this.now().getTime())
      return { redirectTo: siteUrl, error: new AppError("saml_relay_state_expired") };
    const redirectTo = state.redirect_to;
    try {
      const provider = await this.deps.providers.findById(providerId);
      if (!provider) throw new AppError("saml_idp_not_found");
      if (!form.SAMLResponse) throw new AppError("validation_failed", { message: "SAMLResponse is missing" });
      const profile = await this.validate(provider, state.nonce, form.SAMLResponse);
      const claims = claimsOf(profile, provider);
      const user = await this.deps.federated.signIn({ id: state.provider, name: singleSignOnName }, claims, context);
      return await this.deps.federated.finish(state, user, "sso/saml", context);
    } catch (error) {
      if (error instanceof AppError) return { redirectTo, error };
      throw error;
    }
  }

  /** Signature, audience, recipient, time window and the request it answers (node-saml), and the issuer. */
  private async validate(provider: SsoProviderRow, requestId: string, samlResponse: string): Promise<NodeSaml.Profile> {
    let profile: NodeSaml.Profile | null;
    try {
      ({ profile } = await (await this.client(provider, requestId)).validatePostResponseAsync({ SAMLResponse: samlResponse }));
    } catch (error) {
      const reason = error instanceof Error ? error.message : "unreadable";
      throw new AppError("validation_failed", { message: `SAML Assertion is not valid: ${reason}` });
    }
    if (!profile) throw new AppError("validation_failed", { message: "SAML Assertion is not valid: no assertion" });
    // node-saml checks the issuer of logout messages only; the signed assertion's must be this provider.
    if (assertionElement(profile, "Issuer") !== provider.entity_id)
      throw new AppError("validation_failed", { message: "SAML Assertion is not valid: issued by another identity provider" });
    return profile;
  }

  /** node-saml set up for one provider and the one request an answer may be to. */
  private async client(provider: SsoProviderRow, requestId: string): Promise<NodeSaml.SAML> {
    const [{ SAML, ValidateInResponseTo }, { parseIdentityProviderMetadata }] = await loadSaml();
    const metadata = parseIdentityProviderMetadata(provider.metadata_xml);
    return new SAML({
      entryPoint: metadata.singleSignOnUrl,
      issuer: this.entityId,
      callbackUrl: this.assertionConsumerUrl,
      audience: this.entityId,
      idpIssuer: metadata.entityId,
      idpCert: metadata.signingCertificates,
      identifierFormat: provider.name_id_format ?? nameIdFormats[0],
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      acceptedClockSkewMs: clockSkewMs,
      disableRequestedAuthnContext: true,
      generateUniqueId: () => requestId,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: relayStateTtlMs,
      cacheProvider: oneRequest(requestId),
    });
  }

  private async find(id: string): Promise<SsoProviderRecord> {
    this.assertEnabled();
    const provider = isUuid(id) ? await this.deps.providers.findById(id) : undefined;
    if (!provider) throw new AppError("sso_provider_not_found", { message: "SSO Identity Provider not found" });
    return provider;
  }

  /** The metadata document from the body or its URL, read and checked; none when the body names neither. */
  private async metadataOf(
    input: SsoProviderInput,
    { required }: { required: boolean },
  ): Promise<{ xml?: string; url?: string; metadata?: SamlMetadata.IdentityProviderMetadata }> {
    if (input.metadata_url && input.metadata_xml)
      throw new AppError("validation_failed", { message: "Only one of metadata_xml or metadata_url needs to be set" });
    if (input.name_id_format && !(nameIdFormats as readonly string[]).includes(input.name_id_format))
      throw new AppError("validation_failed", {
        message: `name_id_format must be unspecified or one of ${nameIdFormats.join(", ")}`,
      });
    const [, { parseIdentityProviderMetadata }] = await loadSaml();
    if (input.metadata_url) {
      const url = parseHttpsUrl(input.metadata_url);
      const xml = await this.fetchMetadata(url);
      return { xml, url, metadata: parseIdentityProviderMetadata(xml) };
    }
    if (input.metadata_xml) return { xml: input.metadata_xml, metadata: parseIdentityProviderMetadata(input.metadata_xml) };
    if (required) throw new AppError("validation_failed", { message: "Either metadata_xml or metadata_url must be set" });
    return {};
  }

  /**
   * The document at an owner's (or the admin API's) metadata address. Only public addresses are
   * fetched, at each redirect too, unless the operator allowed the host (ADR 0045).
   */
  private async fetchMetadata(url: string): Promise<string> {
    const failed = (message: string) => new AppError("saml_metadata_fetch_failed", { message });
    let response: Awaited<ReturnType<typeof guardedFetch>>;
    try {
      response = await guardedFetch(url, {
        allowedHosts: this.deps.metadataAllowedHosts ?? [],
        headers: { accept: "application/xml;charset=UTF-8" },
        timeoutMs: metadataFetchTimeoutMs,
        maxBytes: maxMetadataBytes,
        maxRedirects: maxMetadataRedirects,
      });
    } catch (error) {
      if (!(error instanceof OutboundFetchError)) throw error;
      switch (error.reason) {
        case "address_refused":
          throw new AppError("saml_metadata_address_refused", {
            message: `SAML Metadata is not fetched from URL '${url}': ${error.message}. An operator can allow the host with AUTH_SAML_METADATA_ALLOWED_HOSTS`,
          });
        case "too_large":
          throw failed("SAML Metadata is larger than 1 MB");
        case "redirect_refused":
          throw failed(`SAML Metadata could not be fetched from URL '${url}': ${error.message}`);
        case "timeout":
          throw failed(`SAML Metadata could not be fetched from URL '${url}' within ${metadataFetchTimeoutMs / 1000} seconds`);
        case "unreachable":
          throw failed(`SAML Metadata could not be fetched from URL '${url}'`);
      }
    }
    if (response.status !== 200) throw failed(`HTTP ${response.status} error fetching SAML Metadata from URL '${url}'`);
    return response.body.toString("utf8");
  }

  private async assertDomainsFree(
    domains: string[],
    providerId: string | null,
    executor: Parameters<SamlProvidersRepository["domainsTaken"]>[2],
  ): Promise<void> {
    const [taken] = await this.deps.providers.domainsTaken(domains, providerId, executor);
    if (taken)
      throw new AppError("sso_domain_already_exists", {
        message: `SSO Domain '${taken.domain}' is already assigned to an SSO identity provider (${taken.sso_provider_id})`,
      });
  }

  private async record(
    action: string,
    provider: SsoProviderRow,
    context: AdminContext,
    detail: Record<string, unknown> = {},
  ): Promise<void> {
    const about = { sso_provider_id: provider.id, entity_id: provider.entity_id, ...detail };
    await recordAdminAction(this.deps.audit, action, context, about, this.now());
  }
}

/**
 * The claims a SAML assertion gives IdentitiesService: the subject (NameID), and an address the
 * identity provider vouches for, which must belong to one of its domains when it has any, so a
 * provider registered for one family's domain cannot sign in anyone else's address.
 */
function claimsOf(profile: NodeSaml.Profile, provider: SsoProviderRecord) {
  const mapping = parseMapping(provider.attribute_mapping);
  const attributes =
    profile.attributes && typeof profile.attributes === "object" ? (profile.attributes as Record<string, unknown>) : {};
  const attribute = (names: string[]) => {
    for (const name of names) {
      const value = Object.hasOwn(attributes, name) ? attributes[name] : undefined;
      const first: unknown = Array.isArray(value) ? (value as unknown[])[0] : value;
      if (typeof first === "string" && first.trim()) return first.trim();
    }
    return undefined;
  };
  // A transient NameID is new at every sign-in: the person is then the provider's stable subject ID.
  const nameId = assertionElement(profile, "NameID")?.trim();
  const subject = profile.nameIDFormat === transientNameId ? attribute(subjectIdAttributes) : nameId;
  if (!subject) throw new AppError("saml_assertion_no_user_id");
  const mapped = (key: string) => {
    const entry = mapping.keys?.[key];
    if (!entry) return undefined;
    const value = attribute([...(entry.name ? [entry.name] : []), ...(entry.names ?? [])]);
    return value ?? (typeof entry.default === "string" ? entry.default : undefined);
  };
  const email = (
    mapped("email") ??
    attribute(emailAttributes) ??
    (profile.nameIDFormat === nameIdFormats[1] || subject.includes("@") ? subject : undefined)
  )?.toLowerCase();
  if (!email || !/^[^\s@]+@[^\s@]+$/.test(email)) throw new AppError("saml_assertion_no_email");
  const domain = email.slice(email.lastIndexOf("@") + 1);
  if (provider.domains.length > 0 && !provider.domains.some((entry) => entry.domain === domain))
    throw new AppError("saml_email_domain_not_allowed");
  const name = mapped("name") ?? attribute(nameAttributes);
  return { sub: subject, iss: provider.entity_id, email, email_verified: true, ...(name ? { name } : {}) };
}

/**
 * The assertion's own Issuer or Subject NameID, read from the signed assertion rather than from
 * node-saml's profile: where the assertion lacks one, the profile takes an attribute of that name
 * instead, and an attribute is whatever the identity provider's account holder may have typed.
 */
function assertionElement(profile: NodeSaml.Profile, element: "Issuer" | "NameID"): string | undefined {
  type Node = string | { _?: unknown };
  const assertion = (profile.getAssertion?.() as { Assertion?: { Issuer?: Node[]; Subject?: { NameID?: Node[] }[] } } | undefined)
    ?.Assertion;
  const node = element === "Issuer" ? assertion?.Issuer?.[0] : assertion?.Subject?.[0]?.NameID?.[0];
  const text = typeof node === "string" ? node : node?._;
  return typeof text === "string" ? text : undefined;
}

/** The request store node-saml checks InResponseTo against: the one request this answer may be to. */
function oneRequest(requestId: string): NodeSaml.CacheProvider {
  let pending: string | null = requestId;
  return {
    saveAsync: async () => null,
    getAsync: async (key) => (key === pending ? new Date().toISOString() : null),
    removeAsync: async (key) => {
      if (key !== pending) return null;
      pending = null;
      return key;
    },
  };
}

function summarize(provider: SsoProviderRecord): SingleSignOnProvider {
  return {
    id: provider.id,
    entity_id: provider.entity_id,
    domains: provider.domains.map((entry) => entry.domain),
    metadata_url: provider.metadata_url,
    created_at: provider.created_at,
  };
}

function present(provider: SsoProviderRecord, { withMetadata = true } = {}): Record<string, unknown> {
  return {
    id: provider.id,
    ...(provider.resource_id ? { resource_id: provider.resource_id } : {}),
    saml: {
      entity_id: provider.entity_id,
      ...(provider.metadata_url ? { metadata_url: provider.metadata_url } : {}),
      ...(withMetadata ? { metadata_xml: provider.metadata_xml } : {}),
      attribute_mapping: parseMapping(provider.attribute_mapping),
      ...(provider.name_id_format ? { name_id_format: provider.name_id_format } : {}),
    },
    domains: provider.domains.map(({ domain, created_at, updated_at }) => ({ domain, created_at, updated_at })),
    created_at: provider.created_at,
    updated_at: provider.updated_at,
  };
}

function parseMapping(json: string): AttributeMapping {
  try {
    const value = JSON.parse(json) as unknown;
    return value && typeof value === "object" ? value : {};
  } catch {
    return {};
  }
}

/** Lower-case host names, each once; anything else is refused before anything is written. */
function normalizeDomains(domains: string[]): string[] {
  const normalized = [...new Set(domains.map((domain) => domain.trim().toLowerCase()))];
  for (const domain of normalized)
    if (domain.length > 253 || !/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(domain))
      throw new AppError("validation_failed", { message: `'${domain}' is not a domain name, such as example.org` });
  return normalized;
}

function parseHttpsUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AppError("validation_failed", { message: "metadata_url is not a valid URL" });
  }
  if (url.protocol !== "https:") throw new AppError("validation_failed", { message: "metadata_url is not a HTTPS URL" });
  return url.toString();
}

function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
