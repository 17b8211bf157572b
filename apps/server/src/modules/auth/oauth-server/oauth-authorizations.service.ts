import { createHash, randomBytes, randomUUID } from "node:crypto";
import { DEVICE_CODE_GRANT_TYPE } from "@memory-box/contract";
import type { OauthAuthorizationRow, OauthClientRow } from "../../../db/schema";
import { AppError } from "../../../errors";
import type { SessionJson } from "../core/auth.presenter";
import { pkceVerifierMatches } from "../core/secrets";
import { type Caller, oauthInvalidGrant, type RequestContext, type SessionService } from "../core/session.service";
import type { UsersRepository } from "../core/users.repository";
import type { OauthAuthorizationsRepository } from "./oauth-authorizations.repository";
import type { DeviceAuthorizationsService } from "./device-authorizations.service";
import type { OauthClientsRepository } from "./oauth-clients.repository";
import { authenticateClient, oauthError, uuidPattern } from "./client-authentication";

/** The scopes Supabase Auth's OAuth 2.1 server knows (`oauth_scope.go`). */
const supportedScopes = new Set(["openid", "email", "profile", "phone"]);
const defaultScope = "email";
/** How long a member has to consent, and a client to exchange the code (Supabase Auth's ten minutes). */
const authorizationTtlMs = 10 * 60 * 1000;
const pkcePattern = /^[A-Za-z0-9._~-]{43,128}$/;

/** `GET /oauth/authorize`'s query, as the client's page sent the browser. */
export interface AuthorizeRequest {
  client_id?: string;
  redirect_uri?: string;
  response_type?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
}

/** `POST /oauth/token`'s fields (form or JSON), and the client's `Authorization: Basic` credentials if any. */
export interface TokenRequest {
  grant_type?: string;
  code?: string;
  redirect_uri?: string;
  code_verifier?: string;
  refresh_token?: string;
  /** RFC 8628's device code, with `grant_type=urn:ietf:params:oauth:grant-type:device_code`. */
  device_code?: string;
  client_id?: string;
  client_secret?: string;
  basic?: { clientId: string; secret: string };
}

/** What the consent page shows (auth-js `OAuthAuthorizationDetails`). */
export interface AuthorizationDetails {
  authorization_id: string;
  redirect_uri: string;
  client: { id: string; name: string; uri: string; logo_uri: string };
  user: { id: string; email: string };
  scope: string;
}

/** Where the browser goes next (auth-js `OAuthRedirect`). */
export interface OauthRedirect {
  redirect_url: string;
}

/**
 * The OAuth 2.1 server's authorization code flow with PKCE (issue #36, ADR 0075), with Supabase
 * Auth's shapes, codes and messages: a client sends the member here, the member consents in the
 * web app, the client exchanges the code for a session of its own. Only S256 challenges; the code
 * is kept as its SHA-256, works once, and a replay ends the sessions it gave.
 */
export class OauthAuthorizationsService {
  constructor(
    private readonly deps: {
      authorizations: OauthAuthorizationsRepository;
      clients: OauthClientsRepository;
      users: UsersRepository;
      sessions: SessionService;
      /** The device grant (RFC 8628, ADR 0076), answered at the same token endpoint. */
      devices: Pick<DeviceAuthorizationsService, "exchange">;
      /** The web app, whose `/oauth/consent` page asks the member. */
      siteUrl: string;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /**
   * The address the browser goes to: the consent page, or back to the client with an error once
   * the client and its redirect address are known to be right; before that, a JSON 400.
   */
  async authorize(request: AuthorizeRequest): Promise<string> {
    if (!request.client_id) throw invalid("client_id is required");
    if (!request.redirect_uri) throw invalid("redirect_uri is required");
    if (!uuidPattern.test(request.client_id))
      throw new AppError("oauth_client_not_found", { status: 400, message: "invalid client_id format" });
    const client = await this.deps.clients.findById(request.client_id);
    if (!client) throw new AppError("oauth_client_not_found", { status: 400, message: "invalid client_id" });
    // Exact match (OAuth 2.1): an address not registered is never redirected to.
    if (!(JSON.parse(client.redirect_uris) as string[]).includes(request.redirect_uri)) throw invalid("invalid redirect_uri");

    const back = (error: string, description: string) => errorRedirect(request.redirect_uri!, error, description, request.state);
    if (!(JSON.parse(client.grant_types) as string[]).includes("authorization_code"))
      return back("unauthorized_client", "client is not allowed to use the authorization code flow");
    if ((request.response_type || "code") !== "code") return back("invalid_request", "only response_type=code is supported");
    const scope = request.scope || defaultScope;
    const scopes = parseScopes(scope);
    if (scopes.length === 0) return back("invalid_request", "scope parameter cannot be empty");
    const unsupported = scopes.find((one) => !supportedScopes.has(one));
    if (unsupported !== undefined) return back("invalid_request", `unsupported scope: ${unsupported}`);
    const challenge = request.code_challenge ?? "";
    const method = request.code_challenge_method ?? "";
    if (challenge === "" || method === "")
      return back("invalid_request", "PKCE flow requires both code_challenge and code_challenge_method");
    // OAuth 2.1 leaves `plain` out: a challenge that is the verifier protects nothing once seen.
    if (method.toLowerCase() !== "s256") return back("invalid_request", "code_challenge_method must be 'S256'");
    if (challenge.length < 43 || challenge.length > 128)
      return back("invalid_request", "code_challenge must be between 43 and 128 characters");

    const now = this.now();
    const authorizationId = randomBytes(32).toString("base64url");
    await this.deps.authorizations.insert({
      id: randomUUID(),
      authorization_id: authorizationId,
      client_id: client.id,
      user_id: null,
      redirect_uri: request.redirect_uri,
      scope: scopes.join(" "),
      state: request.state || null,
      code_challenge: challenge,
      code_challenge_method: "S256",
      status: "pending",
      authorization_code_hash: null,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + authorizationTtlMs).toISOString(),
      approved_at: null,
      used_at: null,
    });
    return `${this.deps.siteUrl}/oauth/consent?authorization_id=${encodeURIComponent(authorizationId)}`;
  }

  /**
   * The consent page reads the request: it becomes the reading member's (another member finds
   * nothing). A consent already given for these scopes approves it at once: `{redirect_url}`.
   */
  async details(caller: Caller, authorizationId: string): Promise<AuthorizationDetails | OauthRedirect> {
    const userId = caller.user.id;
    const authorization = await this.pending(authorizationId, userId, "authorization request cannot be processed");
    if (authorization.user_id === null) {
      if (!(await this.deps.authorizations.bindUser(authorization.id, userId))) {
        // Another request bound it first: it is found only if that was this member's.
        const now = await this.deps.authorizations.findByAuthorizationId(authorizationId);
        if (now?.user_id !== userId) throw notFound();
      }
      const consent = await this.deps.authorizations.findActiveConsent(userId, authorization.client_id);
      if (consent && coversScopes(consent.scopes, authorization.scope)) {
        const code = await this.approve(authorization, userId);
        return { redirect_url: successRedirect(authorization, code) };
      }
    } else if (authorization.user_id !== userId) throw notFound();
    const client = await this.deps.clients.findById(authorization.client_id);
    if (!client) throw notFound();
    return {
      authorization_id: authorization.authorization_id,
      redirect_uri: authorization.redirect_uri,
      client: { id: client.id, name: client.client_name ?? "", uri: client.client_uri ?? "", logo_uri: client.logo_uri ?? "" },
      user: { id: userId, email: caller.user.email },
      scope: authorization.scope,
    };
  }

  /** The member's answer: back to the client with a code (and the consent kept), or with `access_denied`. */
  async consent(caller: Caller, authorizationId: string, action: "approve" | "deny"): Promise<OauthRedirect> {
    const authorization = await this.pending(authorizationId, caller.user.id, "authorization request is no longer pending");
    // Consent follows a read, which bound the authorization to its reader.
    if (authorization.user_id !== caller.user.id) throw notFound();
    if (action === "approve") {
      const code = await this.approve(authorization, caller.user.id);
      return { redirect_url: successRedirect(authorization, code) };
    }
    if (!(await this.deps.authorizations.decide(authorization.id, caller.user.id, { status: "denied" })))
      throw invalid("authorization request is no longer pending");
    return {
      redirect_url: errorRedirect(authorization.redirect_uri, "access_denied", "User denied the request", authorization.state),
    };
  }

  /** `POST /oauth/token`: the client proves who it is, then exchanges a code or refreshes its session. */
  async token(request: TokenRequest, context: RequestContext): Promise<SessionJson> {
    const client = await authenticateClient(this.deps.clients, request);
    if (!request.grant_type) throw oauthError("invalid_request", "grant_type is required");
    if (
      request.grant_type !== "authorization_code" &&
      request.grant_type !== "refresh_token" &&
      request.grant_type !== DEVICE_CODE_GRANT_TYPE
    )
      throw oauthError("unsupported_grant_type", `Unsupported grant type: ${request.grant_type}`);
    if (!(JSON.parse(client.grant_types) as string[]).includes(request.grant_type))
      throw oauthError("unsupported_grant_type", `Client is not allowed to use grant type: ${request.grant_type}`);
    if (request.grant_type === "refresh_token") {
      if (!request.refresh_token) throw oauthError("invalid_request", "refresh_token is required for refresh_token grant");
      return this.deps.sessions.refresh(request.refresh_token, context, client.id);
    }
    if (request.grant_type === DEVICE_CODE_GRANT_TYPE) {
      if (!request.device_code) throw oauthError("invalid_request", "device_code is required for the device_code grant");
      return this.deps.devices.exchange(client, request.device_code, context);
    }
    return this.exchangeCode(client, request, context);
  }

  async listGrants(caller: Caller) {
    const consents = await this.deps.authorizations.listActiveConsents(caller.user.id);
    return consents.map((consent) => ({
      client: {
        id: consent.client_id,
        name: consent.client_name ?? "",
        uri: consent.client_uri ?? "",
        logo_uri: consent.logo_uri ?? "",
      },
      scopes: parseScopes(consent.scopes),
      granted_at: consent.granted_at,
    }));
  }

  /** Revokes the member's grant to a client: its consent, and every session the client holds of the member. */
  async revokeGrant(caller: Caller, clientId: string | undefined): Promise<void> {
    if (!clientId) throw invalid("client_id query parameter is required");
    if (!uuidPattern.test(clientId)) throw invalid("invalid client_id format");
    if (!(await this.deps.authorizations.revokeConsent(caller.user.id, clientId, this.now().toISOString())))
      throw new AppError("oauth_consent_not_found");
  }

  private async exchangeCode(client: OauthClientRow, request: TokenRequest, context: RequestContext): Promise<SessionJson> {
    if (!request.code) throw oauthError("invalid_request", "code is required for authorization_code grant");
    const authorization = await this.deps.authorizations.findByCodeHash(hashCode(request.code));
    if (!authorization || authorization.status !== "approved") throw oauthInvalidGrant("Invalid authorization code");
    if (authorization.used_at !== null) {
      // Presented again: whoever holds it may have stolen it, so what it gave ends too (OAuth 2.1, 4.1.3).
      await this.deps.authorizations.deleteSessionsOfAuthorization(authorization.id);
      throw oauthInvalidGrant("Invalid authorization code");
    }
    if (Date.parse(authorization.expires_at) <= this.now().getTime()) throw oauthInvalidGrant("Authorization code has expired");
    if (authorization.client_id !== client.id) throw oauthInvalidGrant("Authorization code was not issued for this client");
    if (request.redirect_uri !== authorization.redirect_uri) throw oauthInvalidGrant("Invalid redirect_uri");
    const verifier = request.code_verifier ?? "";
    if (verifier === "") throw oauthInvalidGrant("PKCE verification failed: code_verifier is required");
    if (!pkcePattern.test(verifier) || !pkceVerifierMatches(verifier, authorization.code_challenge, "S256"))
      throw oauthInvalidGrant("PKCE verification failed: code challenge does not match previously saved code verifier");
    if (authorization.user_id === null) throw oauthInvalidGrant("Authorization code has no associated user");
    const user = await this.deps.users.findById(authorization.user_id);
    if (!user) throw oauthInvalidGrant("User not found for authorization code");
    try {
      await this.deps.sessions.assertMaySignIn(user);
    } catch {
      throw oauthError("access_denied", "User is not allowed to sign in", 400);
    }
    const at = this.now().toISOString();
    const session = await this.deps.authorizations.transaction(async (trx) => {
      if (!(await this.deps.authorizations.markUsed(authorization.id, at, trx))) return undefined;
      return this.deps.sessions.start(user, "oauth", context, trx, "aal1", {
        clientId: client.id,
        scope: authorization.scope,
        authorizationId: authorization.id,
      });
    });
    if (session === undefined) {
      // Another exchange of the same code won the race: this one is the replay.
      await this.deps.authorizations.deleteSessionsOfAuthorization(authorization.id);
      throw oauthInvalidGrant("Invalid authorization code");
    }
    return session;
  }

  /**
   * A pending authorization that has not expired, unbound or `userId`'s: another member's is not
   * found, whatever its state; an expired one is marked so and found no more.
   */
  private async pending(authorizationId: string, userId: string, notPending: string): Promise<OauthAuthorizationRow> {
    const authorization = await this.deps.authorizations.findByAuthorizationId(authorizationId);
    if (!authorization || (authorization.user_id !== null && authorization.user_id !== userId)) throw notFound();
    if (Date.parse(authorization.expires_at) <= this.now().getTime()) {
      await this.deps.authorizations.markExpired(authorization.id);
      throw notFound();
    }
    if (authorization.status !== "pending") throw invalid(notPending);
    return authorization;
  }

  /** Approves the member's pending authorization with a new code (only its hash kept) and keeps the consent. */
  private async approve(authorization: OauthAuthorizationRow, userId: string): Promise<string> {
    const code = randomBytes(32).toString("base64url");
    const at = this.now().toISOString();
    const approved = await this.deps.authorizations.transaction(async (trx) => {
      if (
        !(await this.deps.authorizations.decide(
          authorization.id,
          userId,
          { status: "approved", codeHash: hashCode(code), at },
          trx,
        ))
      )
        return false;
      await this.deps.authorizations.grantConsent(
        { id: randomUUID(), userId, clientId: authorization.client_id, scopes: authorization.scope, at },
        trx,
      );
      return true;
    });
    if (!approved) throw invalid("authorization request is no longer pending");
    return code;
  }
}

function parseScopes(scope: string): string[] {
  return scope.split(/\s+/).filter(Boolean);
}

function coversScopes(granted: string, requested: string): boolean {
  const have = new Set(parseScopes(granted));
  return parseScopes(requested).every((scope) => have.has(scope));
}

function hashCode(code: string): string {
  return createHash("sha256").update(code).digest("base64url");
}

function successRedirect(authorization: OauthAuthorizationRow, code: string): string {
  const url = new URL(authorization.redirect_uri);
  url.searchParams.set("code", code);
  if (authorization.state) url.searchParams.set("state", authorization.state);
  return url.toString();
}

function errorRedirect(redirectUri: string, error: string, description: string, state: string | null | undefined): string {
  const url = new URL(redirectUri);
  url.searchParams.set("error", error);
  url.searchParams.set("error_description", description);
  if (state) url.searchParams.set("state", state);
  return url.toString();
}

function invalid(message: string): AppError {
  return new AppError("validation_failed", { message });
}

function notFound(): AppError {
  return new AppError("oauth_authorization_not_found");
}
