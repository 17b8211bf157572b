import { createRemoteJWKSet, errors as joseErrors, type JWTPayload, jwtVerify } from "jose";
import type * as OpenIdClient from "openid-client";
import type { OidcProviderConfig } from "../../../config";
import { AppError } from "../../../errors";

/** What a provider says about the person, from its ID token (and its userinfo when the token lacks the address). */
export interface ProviderClaims extends JWTPayload {
  sub: string;
  email?: unknown;
  email_verified?: unknown;
  name?: unknown;
  picture?: unknown;
}

/** openid-client, loaded at the first sign-in with a provider: a server without providers never loads it. */
let openIdClient: Promise<typeof OpenIdClient> | undefined;
export const loadOpenIdClient = () => (openIdClient ??= import("openid-client"));

/** A provider's keys are fetched once and kept; an unknown `kid` makes jose fetch them again (at most every 30 s). */
interface Discovered {
  configuration: OpenIdClient.Configuration;
  keys: ReturnType<typeof createRemoteJWKSet>;
}

/** ID tokens signed with a shared secret (HS*) or unsigned are never accepted: only the provider's published keys. */
const asymmetricAlgorithms = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"];
/** Leeway between the provider's clock and ours, for `exp`, `iat` and `nbf`. */
const clockToleranceSeconds = 30;
const providerTimeoutSeconds = 10;

/**
 * The relying party towards each configured OpenID Connect provider (ADR 0034), with
 * `openid-client`: discovery (lazily, on first use, and kept; a failed one is tried again on the
 * next request), the authorization URL, the code exchange with its state, nonce and PKCE checks,
 * and the verification of ID tokens that clients bring themselves (`grant_type=id_token`).
 */
export class OidcProviders {
  private readonly discovered = new Map<string, Promise<Discovered>>();

  constructor(
    private readonly providers: OidcProviderConfig[],
    /** Where providers send the browser back: `{PUBLIC_URL}/auth/v1/callback`, registered at each provider. */
    readonly callbackUrl: string,
  ) {}

  list(): { id: string; name: string }[] {
    return this.providers.map(({ id, name }) => ({ id, name }));
  }

  /** What members call the provider ("Google"); its id when it is no longer configured. */
  nameOf(id: string): string {
    return this.providers.find((candidate) => candidate.id === id)?.name ?? id;
  }

  /** The provider, or `provider_disabled` as Supabase Auth answers for one that is not enabled. */
  get(id: string | undefined): OidcProviderConfig {
    const provider = this.providers.find((candidate) => candidate.id === id?.toLowerCase());
    if (!provider) throw new AppError("provider_disabled", { message: "Unsupported provider: provider is not enabled" });
    return provider;
  }

  async authorizationUrl(
    provider: OidcProviderConfig,
    request: { state: string; nonce: string; codeVerifier: string },
  ): Promise<string> {
    const { configuration } = await this.discover(provider);
    const client = await loadOpenIdClient();
    return client
      .buildAuthorizationUrl(configuration, {
        redirect_uri: this.callbackUrl,
        scope: provider.scopes.join(" "),
        state: request.state,
        nonce: request.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(request.codeVerifier),
        code_challenge_method: "S256",
      })
      .toString();
  }

  /**
   * Trades the code the provider sent the browser back with for its tokens, checking the state,
   * the nonce, PKCE and the ID token's issuer, audience and lifetime (openid-client); the claims of
   * the ID token, and of userinfo when the token carries no address.
   */
  async exchangeCode(
    provider: OidcProviderConfig,
    callbackQuery: string,
    expected: { state: string; nonce: string; codeVerifier: string },
  ): Promise<ProviderClaims> {
    const { configuration } = await this.discover(provider);
    const client = await loadOpenIdClient();
    try {
      const tokens = await client.authorizationCodeGrant(configuration, new URL(`${this.callbackUrl}?${callbackQuery}`), {
        expectedState: expected.state,
        expectedNonce: expected.nonce,
        pkceCodeVerifier: expected.codeVerifier,
        idTokenExpected: true,
      });
      const claims = tokens.claims() as ProviderClaims | undefined;
      if (!claims?.sub) throw new AppError("bad_oauth_callback", { message: "The provider's ID token names nobody" });
      if (claims.email !== undefined) return claims;
      const userinfo = await client.fetchUserInfo(configuration, tokens.access_token, claims.sub);
      return { ...claims, email: userinfo.email, email_verified: userinfo.email_verified };
    } catch (error) {
      throw providerError(error, "The provider did not confirm the sign-in", client);
    }
  }

  /**
   * An ID token a client obtained from the provider itself: signed with one of the provider's
   * published keys, issued by it, for our client id, not expired.
   */
  async verifyIdToken(provider: OidcProviderConfig, idToken: string, now: Date): Promise<ProviderClaims> {
    const { configuration, keys } = await this.discover(provider);
    try {
      const { payload } = await jwtVerify(idToken, keys, {
        issuer: configuration.serverMetadata().issuer,
        audience: provider.clientId,
        algorithms: asymmetricAlgorithms,
        requiredClaims: ["sub", "exp", "iat"],
        currentDate: now,
        clockTolerance: clockToleranceSeconds,
      });
      return payload as ProviderClaims;
    } catch (error) {
      throw idTokenError(error);
    }
  }

  private discover(provider: OidcProviderConfig): Promise<Discovered> {
    let discovered = this.discovered.get(provider.id);
    if (!discovered) {
      discovered = this.runDiscovery(provider);
      this.discovered.set(provider.id, discovered);
      // Not kept when it failed: the provider may be back by the next sign-in.
      discovered.catch(() => this.discovered.delete(provider.id));
    }
    return discovered;
  }

  private async runDiscovery(provider: OidcProviderConfig): Promise<Discovered> {
    const loopback = new URL(provider.issuer).protocol === "http:";
    try {
      const client = await loadOpenIdClient();
      const configuration = await client.discovery(
        new URL(provider.issuer),
        provider.clientId,
        provider.clientSecret ? { client_secret: provider.clientSecret } : undefined,
        provider.clientSecret ? undefined : client.None(),
        { execute: loopback ? [client.allowInsecureRequests] : [], timeout: providerTimeoutSeconds },
      );
      const jwksUri = configuration.serverMetadata().jwks_uri;
      if (!jwksUri) throw new Error("its discovery document names no jwks_uri");
      return {
        configuration,
        keys: createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: providerTimeoutSeconds * 1000 }),
      };
    } catch (error) {
      throw new AppError("provider_unavailable", {
        message: `The sign-in provider ${provider.name} could not be reached. Try again in a moment.`,
        cause: error,
      });
    }
  }
}

/** The provider could not be reached (network, timeout, its server failing), or it refused: the latter is the browser's problem. */
function providerError(error: unknown, refusal: string, client: typeof OpenIdClient): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof TypeError || (error instanceof client.ClientError && /^OAUTH_(TIMEOUT|ABORT)$/.test(error.code ?? "")))
    return new AppError("provider_unavailable", { cause: error });
  const detail = error instanceof Error ? error.message : String(error);
  return new AppError("bad_oauth_callback", { message: `${refusal}: ${detail}`, cause: error });
}

function idTokenError(error: unknown): AppError {
  const bad = (message: string) => new AppError("bad_id_token", { message, cause: error });
  if (error instanceof joseErrors.JWTExpired) return bad("Bad ID token: it has expired");
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return bad("Bad ID token: unacceptable audience (it was issued for another client)");
    if (error.claim === "iss") return bad("Bad ID token: it was not issued by this provider");
    return bad(`Bad ID token: the ${error.claim} claim is missing or not valid`);
  }
  if (error instanceof joseErrors.JWKSTimeout || error instanceof TypeError)
    return new AppError("provider_unavailable", { cause: error });
  if (
    error instanceof joseErrors.JWSSignatureVerificationFailed ||
    error instanceof joseErrors.JWKSNoMatchingKey ||
    error instanceof joseErrors.JOSEAlgNotAllowed
  )
    return bad("Bad ID token: it is not signed by this provider");
  return bad("Bad ID token: it could not be read");
}
