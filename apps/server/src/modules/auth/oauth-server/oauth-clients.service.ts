import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { FRAME_CLIENT_ID } from "@memory-box/contract";
import type { OauthClientRow } from "../../../db/schema";
import { AppError } from "../../../errors";
import type { OauthClientsRepository } from "./oauth-clients.repository";

export type OauthClientType = OauthClientRow["client_type"];
export type TokenEndpointAuthMethod = OauthClientRow["token_endpoint_auth_method"];
export type OauthGrantType = "authorization_code" | "refresh_token";

/** What registering a client takes (Supabase Auth's `CreateOAuthClientParams`). */
export interface OauthClientRegistration {
  client_name?: string;
  client_uri?: string;
  logo_uri?: string;
  redirect_uris: string[];
  grant_types?: string[];
  /** Only `code` exists in OAuth 2.1; accepted and answered as it is. */
  response_types?: string[];
  client_type?: string;
  token_endpoint_auth_method?: string;
}

/** What an update may change; a field left out stays as it is. */
export type OauthClientChanges = Partial<
  Pick<
    OauthClientRegistration,
    "client_name" | "client_uri" | "logo_uri" | "redirect_uris" | "grant_types" | "token_endpoint_auth_method"
  >
>;

/** A client as the admin API answers it; `client_secret` only when one was just made. */
export interface OauthClientView {
  client_id: string;
  client_secret?: string;
  client_type: OauthClientType;
  token_endpoint_auth_method: TokenEndpointAuthMethod;
  registration_type: OauthClientRow["registration_type"];
  client_name?: string;
  client_uri?: string;
  logo_uri?: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: ["code"];
  created_at: string;
  updated_at: string;
}

export interface OauthClientPage {
  clients: OauthClientView[];
  page: number;
  perPage: number;
  total: number;
}

const grantTypes: readonly OauthGrantType[] = ["authorization_code", "refresh_token"];
const authMethods: readonly TokenEndpointAuthMethod[] = ["none", "client_secret_basic", "client_secret_post"];
const maxRedirectUris = 10;
const maxNameLength = 1024;
const maxUriLength = 2048;
// Schemes that run code or read local data where a redirect lands (RFC 6819 5.1.1).
const forbiddenSchemes = new Set(["javascript:", "data:", "file:", "vbscript:", "about:", "blob:"]);
const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The OAuth 2.1 server's client registry (issue #36, ADR 0071): the rules Supabase Auth applies to
 * `/admin/oauth/clients`, with its messages. A confidential client gets a secret of 32 random
 * bytes, shown once; only its SHA-256 is kept.
 */
export class OauthClientsService {
  constructor(
    private readonly clients: OauthClientsRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async register(registration: OauthClientRegistration): Promise<OauthClientView> {
    validateRedirectUris(registration.redirect_uris);
    if (registration.grant_types !== undefined && registration.grant_types.length > 0)
      validateGrantTypes(registration.grant_types);
    validateDetails(registration);
    const method = registration.token_endpoint_auth_method;
    if (method !== undefined && method !== "" && !isAuthMethod(method))
      throw invalid(`token_endpoint_auth_method must be one of: ${authMethods.join(", ")}`);
    const type = registration.client_type;
    if (type !== undefined && type !== "" && type !== "public" && type !== "confidential")
      throw invalid("client_type must be 'public' or 'confidential'");
    // Told, or read from the method: a client that does not authenticate at the token endpoint is public.
    const clientType: OauthClientType =
      type === "public" || type === "confidential" ? type : method === "none" ? "public" : "confidential";
    if (isAuthMethod(method) && (method === "none") !== (clientType === "public"))
      throw invalid(`token_endpoint_auth_method '${method}' is not valid for client_type '${clientType}'`);
    const secret = clientType === "confidential" ? newSecret() : undefined;
    const at = this.now().toISOString();
    const row: OauthClientRow = {
      id: randomUUID(),
      client_name: blankToNull(registration.client_name),
      client_uri: blankToNull(registration.client_uri),
      logo_uri: blankToNull(registration.logo_uri),
      redirect_uris: JSON.stringify(registration.redirect_uris),
      grant_types: JSON.stringify(registration.grant_types?.length ? registration.grant_types : grantTypes),
      client_type: clientType,
      token_endpoint_auth_method: isAuthMethod(method) ? method : clientType === "public" ? "none" : "client_secret_basic",
      registration_type: "manual",
      client_secret_hash: secret === undefined ? null : hashSecret(secret),
      created_at: at,
      updated_at: at,
    };
    await this.clients.insert(row);
    return { ...present(row), ...(secret === undefined ? {} : { client_secret: secret }) };
  }

  async list(page: number, perPage: number): Promise<OauthClientPage> {
    const { rows, total } = await this.clients.page((page - 1) * perPage, perPage, FRAME_CLIENT_ID);
    return { clients: rows.map(present), page, perPage, total };
  }

  async get(id: string): Promise<OauthClientView> {
    return present(await this.find(id));
  }

  async update(id: string, changes: OauthClientChanges): Promise<OauthClientView> {
    if (Object.values(changes).every((value) => value === undefined)) throw invalid("No fields provided for update");
    const client = await this.find(id);
    if (changes.redirect_uris !== undefined) validateRedirectUris(changes.redirect_uris);
    if (changes.grant_types !== undefined) validateGrantTypes(changes.grant_types);
    validateDetails(changes);
    const method = changes.token_endpoint_auth_method;
    if (method !== undefined) {
      if (!isAuthMethod(method)) throw invalid(`invalid token_endpoint_auth_method: must be one of ${authMethods.join(", ")}`);
      if ((method === "none") !== (client.client_type === "public"))
        throw invalid(`token_endpoint_auth_method '${method}' is not valid for client_type '${client.client_type}'`);
    }
    const updated = await this.clients.update(id, {
      ...(changes.client_name === undefined ? {} : { client_name: blankToNull(changes.client_name) }),
      ...(changes.client_uri === undefined ? {} : { client_uri: blankToNull(changes.client_uri) }),
      ...(changes.logo_uri === undefined ? {} : { logo_uri: blankToNull(changes.logo_uri) }),
      ...(changes.redirect_uris === undefined ? {} : { redirect_uris: JSON.stringify(changes.redirect_uris) }),
      ...(changes.grant_types === undefined ? {} : { grant_types: JSON.stringify(changes.grant_types) }),
      ...(isAuthMethod(method) ? { token_endpoint_auth_method: method } : {}),
      updated_at: this.now().toISOString(),
    });
    if (!updated) throw notFound();
    return present(updated);
  }

  async remove(id: string): Promise<void> {
    if (id === FRAME_CLIENT_ID || !(await this.clients.delete(id))) throw notFound();
  }

  /** A new secret for a confidential client; the old one stops working at once. */
  async regenerateSecret(id: string): Promise<OauthClientView> {
    const client = await this.find(id);
    if (client.client_type !== "confidential") throw invalid("Cannot regenerate secret for public client");
    const secret = newSecret();
    const updated = await this.clients.update(id, {
      client_secret_hash: hashSecret(secret),
      updated_at: this.now().toISOString(),
    });
    if (!updated) throw notFound();
    return { ...present(updated), client_secret: secret };
  }

  /** Whether `secret` is client `id`'s (compared in constant time); false for a public or unknown client. */
  async verifySecret(id: string, secret: string): Promise<boolean> {
    const client = await this.clients.findById(id);
    return client !== undefined && secretMatches(client, secret);
  }

  /** A registered client; the frames' built-in one (ADR 0076) is no registered app, and is not found here. */
  private async find(id: string): Promise<OauthClientRow> {
    const client = id === FRAME_CLIENT_ID ? undefined : await this.clients.findById(id);
    if (!client) throw notFound();
    return client;
  }
}

/** Whether `secret` is the client's, from the row already read (compared in constant time); false for a public client. */
export function secretMatches(client: Pick<OauthClientRow, "client_secret_hash">, secret: string): boolean {
  if (!client.client_secret_hash) return false;
  const expected = Buffer.from(client.client_secret_hash, "base64url");
  const given = Buffer.from(hashSecret(secret), "base64url");
  return expected.length === given.length && timingSafeEqual(expected, given);
}

function present(row: OauthClientRow): OauthClientView {
  return {
    client_id: row.id,
    client_type: row.client_type,
    token_endpoint_auth_method: row.token_endpoint_auth_method,
    registration_type: row.registration_type,
    ...(row.client_name === null ? {} : { client_name: row.client_name }),
    ...(row.client_uri === null ? {} : { client_uri: row.client_uri }),
    ...(row.logo_uri === null ? {} : { logo_uri: row.logo_uri }),
    redirect_uris: JSON.parse(row.redirect_uris) as string[],
    grant_types: JSON.parse(row.grant_types) as string[],
    response_types: ["code"],
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Absolute, no fragment, no scheme that runs code, plain http only on this machine (RFC 6749 3.1.2, OAuth 2.1). */
function validateRedirectUris(uris: readonly string[]): void {
  if (uris.length === 0) throw invalid("redirect_uris is required");
  if (uris.length > maxRedirectUris) throw invalid(`redirect_uris cannot exceed ${maxRedirectUris} items`);
  for (const uri of uris) {
    const problem = redirectProblem(uri);
    if (problem) throw invalid(`invalid redirect_uri '${uri.slice(0, maxUriLength)}': ${problem}`);
  }
}

function redirectProblem(uri: string): string | undefined {
  if (uri === "") return "redirect URI cannot be empty";
  if (uri.length > maxUriLength) return `must be at most ${maxUriLength} characters`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return "invalid URL format";
  }
  if (forbiddenSchemes.has(url.protocol)) return `scheme '${url.protocol.slice(0, -1)}' is not allowed for security reasons`;
  if (url.host === "") return "must have scheme and host";
  if (url.protocol === "http:" && !loopbackHosts.has(url.hostname)) return "HTTP scheme only allowed for localhost";
  if (url.hash !== "" || uri.includes("#")) return "fragment not allowed in redirect URI";
  return undefined;
}

function validateGrantTypes(types: readonly string[]): void {
  if (types.length === 0) throw invalid("grant_types cannot be empty");
  if (!types.every((type) => (grantTypes as readonly string[]).includes(type)))
    throw invalid("grant_types must only contain 'authorization_code' and/or 'refresh_token'");
}

function validateDetails(details: Pick<OauthClientRegistration, "client_name" | "client_uri" | "logo_uri">): void {
  if (details.client_name !== undefined && details.client_name.length > maxNameLength)
    throw invalid(`client_name cannot exceed ${maxNameLength} characters`);
  for (const field of ["client_uri", "logo_uri"] as const) {
    const value = details[field];
    if (value === undefined || value === "") continue;
    if (value.length > maxUriLength) throw invalid(`${field} cannot exceed ${maxUriLength} characters`);
    if (!URL.canParse(value)) throw invalid(`${field} must be a valid URL`);
  }
}

function isAuthMethod(method: string | undefined): method is TokenEndpointAuthMethod {
  return (authMethods as readonly (string | undefined)[]).includes(method);
}

function newSecret(): string {
  return randomBytes(32).toString("base64url");
}

function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("base64url");
}

function blankToNull(value: string | undefined): string | null {
  return value === undefined || value === "" ? null : value;
}

function invalid(message: string): AppError {
  return new AppError("validation_failed", { message });
}

function notFound(): AppError {
  return new AppError("oauth_client_not_found");
}
