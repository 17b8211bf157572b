import type { UserRow } from "../../../db/schema";
import { AppError } from "../../../errors";
import type { SessionJson } from "../core/auth.presenter";
import type { PkceChallenge } from "../core/emailed-tokens.service";
import { randomToken, sha256 } from "../core/secrets";
import { assertSecondStepProven } from "../core/factor-summary";
import type { Caller, RequestContext, SessionService } from "../core/session.service";
import type { UsersRepository } from "../core/users.repository";
import type { IdentitiesRepository } from "../identities/identities.repository";
import type { CallbackOutcome, IdentitiesService } from "../identities/identities.service";
import type { OidcProviders } from "./oidc-providers";

/** How long a browser may take at the provider between /authorize and /callback. */
const stateTtlMs = 10 * 60_000;

/**
 * Signing in with an OpenID Connect provider (ADR 0034): the round trip through the provider
 * (`/authorize`, `/callback`) and the ID tokens clients bring themselves. Who the provider account
 * signs in as, and linking it, is the identities' shared sign-in.
 */
export class OidcService {
  constructor(
    private readonly deps: {
      providers: OidcProviders;
      identities: IdentitiesRepository;
      identitiesService: IdentitiesService;
      users: UsersRepository;
      sessions: SessionService;
      redirectTarget: (requested: string | undefined) => string;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /**
   * `GET /authorize` (or, with `linkTo`, `GET /user/identities/authorize`): records the sign-in
   * under way and answers the provider's URL. The state, nonce and PKCE verifier towards the
   * provider are new for each; the client's own PKCE challenge waits with them. Linking is a new
   * way into the account: a member with a second factor must have proven it in this session.
   */
  async authorize(input: {
    provider: string | undefined;
    redirectTo: string | undefined;
    pkce: PkceChallenge | undefined;
    linkTo?: Caller;
  }): Promise<string> {
    if (input.linkTo) assertSecondStepProven(input.linkTo);
    const provider = this.deps.providers.get(input.provider);
    const state = randomToken();
    const nonce = randomToken();
    const codeVerifier = randomToken();
    const url = await this.deps.providers.authorizationUrl(provider, { state, nonce, codeVerifier });
    const now = this.now();
    await this.deps.identities.createState({
      id: sha256(state),
      provider: provider.id,
      nonce,
      code_verifier: codeVerifier,
      redirect_to: this.deps.redirectTarget(input.redirectTo),
      code_challenge: input.pkce?.codeChallenge ?? null,
      code_challenge_method: input.pkce?.codeChallengeMethod ?? null,
      link_user_id: input.linkTo?.user.id ?? null,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + stateTtlMs).toISOString(),
    });
    return url;
  }

  /**
   * `GET /callback`: the provider sent the browser back. The state is taken out first, so a
   * callback works once; errors before it is known go to the site URL, later ones to where the
   * sign-in was to land, as Supabase Auth does.
   */
  async callback(
    query: {
      state?: string | undefined;
      code?: string | undefined;
      error?: string | undefined;
      error_description?: string | undefined;
    },
    rawQuery: string,
    context: RequestContext,
  ): Promise<CallbackOutcome> {
    const siteUrl = this.deps.redirectTarget(undefined);
    if (!query.state)
      return { redirectTo: siteUrl, error: new AppError("bad_oauth_callback", { message: "OAuth state parameter missing" }) };
    const state = await this.deps.identities.consumeState(sha256(query.state));
    if (!state || Date.parse(state.expires_at) < this.now().getTime())
      return { redirectTo: siteUrl, error: new AppError("bad_oauth_state") };
    const { redirect_to: redirectTo } = state;
    if (query.error) return { redirectTo, error: { error: query.error, description: query.error_description ?? "" } };
    try {
      if (!query.code) throw new AppError("bad_oauth_callback", { message: "OAuth callback with missing authorization code" });
      const provider = this.deps.providers.get(state.provider);
      const claims = await this.deps.providers.exchangeCode(provider, rawQuery, {
        state: query.state,
        nonce: state.nonce,
        codeVerifier: state.code_verifier,
      });
      let user: UserRow;
      if (state.link_user_id) {
        const target = await this.deps.users.findById(state.link_user_id);
        if (!target) throw new AppError("user_not_found", { status: 422, message: "Linking target user not found" });
        await this.deps.identitiesService.assertMayUse(target);
        user = await this.deps.identitiesService.link(target, provider, claims, context);
      } else {
        user = await this.deps.identitiesService.signIn(provider, claims, context);
      }
      return await this.deps.identitiesService.finish(state, user, "oauth", context);
    } catch (error) {
      if (error instanceof AppError) return { redirectTo, error };
      throw error;
    }
  }

  /**
   * `POST /token?grant_type=id_token`: an ID token the client got from the provider itself (a
   * native Google or Apple sign-in). Its signature, issuer, audience and lifetime are checked; its
   * nonce against the one the client sends, hashed as Supabase Auth compares them; and it works
   * once. With `linkTo`, the identity is linked to that signed-in member instead.
   */
  async signInWithIdToken(
    input: { provider: string | undefined; idToken: string | undefined; nonce: string | undefined; linkTo?: Caller },
    context: RequestContext,
  ): Promise<SessionJson> {
    // Before the token is looked at, so a refused link does not use it up.
    if (input.linkTo) assertSecondStepProven(input.linkTo);
    if (!input.idToken) throw new AppError("validation_failed", { message: "id_token required" });
    const provider = this.deps.providers.get(input.provider);
    const now = this.now();
    const claims = await this.deps.providers.verifyIdToken(provider, input.idToken, now);
    const tokenNonce = typeof claims.nonce === "string" ? claims.nonce : "";
    if (Boolean(tokenNonce) !== Boolean(input.nonce))
      throw new AppError("bad_id_token", { message: "Passed nonce and nonce in id_token should either both exist or not." });
    if (input.nonce && sha256(input.nonce) !== tokenNonce) throw new AppError("bad_id_token", { message: "Nonces mismatch" });
    const expiresAt = new Date((claims.exp ?? 0) * 1000).toISOString();
    if (!(await this.deps.identities.useIdToken(sha256(input.idToken), expiresAt, now.toISOString())))
      throw new AppError("bad_id_token", { message: "Bad ID token: it was already used" });
    const user = input.linkTo
      ? await this.deps.identitiesService.link(input.linkTo.user, provider, claims, context)
      : await this.deps.identitiesService.signIn(provider, claims, context);
    return this.deps.sessions.start(user, "oauth", context);
  }
}
