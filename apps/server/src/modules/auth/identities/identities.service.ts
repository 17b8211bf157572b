import { randomUUID } from "node:crypto";
import type { Transaction } from "kysely";
import type { AuthConfig } from "../../../config";
import type { Database, IdentityRow, OauthStateRow, UserRow } from "../../../db/schema";
import { AppError } from "../../../errors";
import type { AuditLogRepository } from "../../audit";
import type { Mailer } from "../../mail";
import type { PkceChallenge } from "../core/emailed-tokens.service";
import type { InvitationLedger } from "../core/invitation-ledger";
import { sendNotice } from "../core/account-notices";
import { displayNameFor, newUser } from "../core/account-rules";
import { identitiesOf, type SessionJson } from "../core/auth.presenter";
import type { IdentitiesRepository } from "./identities.repository";
import { assertNotLinked, insertLink } from "./identity-links";
import type { OidcProviders, ProviderClaims } from "../oidc/oidc-providers";
import type { OneTimeTokensRepository } from "../core/one-time-tokens.repository";
import { randomToken, sha256 } from "../core/secrets";
import { ssoProviderIdOf } from "../saml/saml-providers.repository";
import { type Caller, notInvited, type RequestContext, type SessionService } from "../core/session.service";
import type { UsersRepository } from "../core/users.repository";
import { walletOfIdentity } from "../wallets/wallets.service";

/** How long a browser may take at the provider between /authorize and /callback. */
const stateTtlMs = 10 * 60_000;
const maxNameLength = 80;
const maxPictureLength = 2048;

/** A provider as a sign-in with it is recorded and announced: its id on identities, its name in notices. */
export interface FederatedProvider {
  id: string;
  name: string;
}

/** How notices and the account area name a SAML identity provider. */
export const singleSignOnName = "Single sign-on";

/** Where /callback sends the browser: a session (implicit flow), an auth code (PKCE flow) or the error. */
export type CallbackOutcome =
  | { redirectTo: string; session: SessionJson }
  | { redirectTo: string; code: string }
  | { redirectTo: string; error: AppError | { error: string; description: string } };

/**
 * Signing in with an OpenID Connect provider, and linking and unlinking provider identities (ADR
 * 0034). Invitations stay the gate: a provider account gets in only as the member it is linked
 * to, or by a verified address that is invited; nothing is created for anyone else.
 */
export class IdentitiesService {
  constructor(
    private readonly deps: {
      config: AuthConfig;
      providers: OidcProviders;
      identities: IdentitiesRepository;
      users: UsersRepository;
      tokens: OneTimeTokensRepository;
      sessions: SessionService;
      invitations: InvitationLedger;
      audit: AuditLogRepository;
      mailer: Mailer;
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
   * provider are new for each; the client's own PKCE challenge waits with them.
   */
  async authorize(input: {
    provider: string | undefined;
    redirectTo: string | undefined;
    pkce: PkceChallenge | undefined;
    linkTo?: UserRow;
  }): Promise<string> {
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
      link_user_id: input.linkTo?.id ?? null,
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
        await this.assertMayUse(target);
        user = await this.link(target, provider, claims, context);
      } else {
        user = await this.signIn(provider, claims, context);
      }
      return await this.finish(state, user, "oauth", context);
    } catch (error) {
      if (error instanceof AppError) return { redirectTo, error };
      throw error;
    }
  }

  /**
   * Where a sign-in at a provider ends: an auth code for the client's PKCE challenge, or a
   * session for the implicit flow (the fragment of the redirect).
   */
  async finish(
    state: Pick<OauthStateRow, "redirect_to" | "code_challenge" | "code_challenge_method">,
    user: UserRow,
    method: "oauth" | "sso/saml",
    context: RequestContext,
  ): Promise<CallbackOutcome> {
    const redirectTo = state.redirect_to;
    if (state.code_challenge && state.code_challenge_method) {
      const code = randomUUID();
      const now = this.now().toISOString();
      await this.deps.tokens.createFlowState({
        id: randomUUID(),
        user_id: user.id,
        code_challenge: state.code_challenge,
        code_challenge_method: state.code_challenge_method,
        authentication_method: method,
        auth_code_hash: sha256(code),
        auth_code_issued_at: now,
        created_at: now,
      });
      return { redirectTo, code };
    }
    return { redirectTo, session: await this.deps.sessions.start(user, method, context) };
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
      ? await this.link(input.linkTo.user, provider, claims, context)
      : await this.signIn(provider, claims, context);
    return this.deps.sessions.start(user, "oauth", context);
  }

  /** `DELETE /user/identities/{id}`: never the last way in, and never the address the membership is. */
  async unlink(caller: Caller, identityId: string, context: RequestContext): Promise<void> {
    const { user } = caller;
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(identityId))
      throw new AppError("validation_failed", { status: 404, message: "identity_id must be an UUID" });
    const identities = identitiesOf(user);
    const identity = identities.find((candidate) => candidate.identity_id === identityId);
    if (!identity) throw new AppError("identity_not_found");
    if (identities.length <= 1) throw new AppError("single_identity_not_deletable");
    if (identity.provider === "email") throw new AppError("email_identity_not_deletable");
    const removed = await this.deps.identities.transaction((trx) => this.deps.identities.deleteOfUser(user.id, identityId, trx));
    if (!removed) throw new AppError("identity_not_found");
    await this.deps.audit.record({
      action: "identity.unlinked",
      actorId: user.id,
      actorEmail: user.email,
      ip: context.ip,
      detail: { provider: identity.provider, identity_id: identityId },
    });
    // A wallet (ADR 0035) is named by its chain and address, not as a provider account.
    const wallet = identity.provider === "web3" ? walletOfIdentity(identity.identity_data) : undefined;
    if (wallet) sendNotice(this.deps.mailer, user, "wallet_unlinked", { changedAt: this.now(), wallet });
    else this.announce(user, "identity_unlinked", this.nameOf(String(identity.provider)), identity.email);
  }

  /**
   * The member a provider account signs in as: the one its identity is linked to; else, for a
   * verified and invited address, the member with that address (the identity is linked to them)
   * or a new member (the invitation is used). Anyone else is refused and nothing is written.
   * OpenID Connect sign-ins and SAML assertions (ADR 0036) both come through here.
   */
  async signIn(provider: FederatedProvider, claims: ProviderClaims, context: RequestContext): Promise<UserRow> {
    const now = this.now().toISOString();
    const linked = await this.deps.identities.findByProviderSubject(provider.id, claims.sub);
    if (linked) {
      const user = await this.deps.users.findById(linked.user_id);
      if (!user) throw new AppError("user_not_found");
      await this.assertMayUse(user);
      await this.deps.identities.transaction((trx) =>
        this.deps.identities.recordSignIn({ ...linked, ...identityFields(claims) }, now, trx),
      );
      await this.signedIn(user, provider, context);
      return (await this.deps.users.findById(user.id)) ?? user;
    }

    const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : "";
    if (!email)
      throw new AppError("provider_email_needs_verification", {
        message: `${provider.name} did not share an e-mail address, so it cannot sign in here`,
      });
    if (!isVerified(claims.email_verified))
      throw new AppError("provider_email_needs_verification", {
        message: `Unverified email with ${provider.name}: verify the address there first`,
      });
    if (this.deps.config.inviteOnly && !(await this.deps.invitations.isInvited(email))) throw notInvited();

    const existing = await this.deps.users.findByEmail(email);
    if (existing) this.deps.sessions.assertNotBanned(existing, 400);
    else if (this.deps.config.signupDisabled) throw new AppError("signup_disabled");
    const identity = newIdentity(existing?.id ?? "", provider, claims, now);
    let userId: string;
    // The member an existing account's new identity was linked to, to be told once it is committed.
    let linkedTo: string | undefined;
    try {
      userId = await this.deps.identities.transaction(async (trx) => {
        if (existing) {
          // An account whose address was never proven: whoever signed up may not own the mailbox,
          // so what they chose (a password, pending links) goes, and the provider's proof confirms it.
          if (!existing.email_confirmed_at) await this.claimUnconfirmed(existing, now, trx);
          if (!(await this.deps.identities.insert({ ...identity, user_id: existing.id }, trx))) throw new SignedInMeanwhile();
          await this.deps.audit.record(
            {
              action: "identity.linked",
              actorId: existing.id,
              actorEmail: existing.email,
              ip: context.ip,
              detail: { provider: provider.id, identity_id: identity.id, by: "verified_email" },
            },
            new Date(now),
            trx,
          );
          linkedTo = existing.id;
          return existing.id;
        }
        const metadata = JSON.parse(identity.identity_data) as Record<string, unknown>;
        const created: UserRow = {
          ...newUser(email, null, metadata, now),
          email_confirmed_at: now,
          app_metadata: JSON.stringify({ provider: provider.id, providers: [provider.id] }),
        };
        if (!(await this.deps.users.createIfEmailFree(created, displayNameFor(email, metadata), trx)))
          throw new SignedInMeanwhile();
        await this.deps.invitations.markUsed(email, created.id, trx);
        if (!(await this.deps.identities.insert({ ...identity, user_id: created.id }, trx))) throw new SignedInMeanwhile();
        await this.deps.audit.record(
          { action: "user.signed_up", actorId: created.id, actorEmail: email, ip: context.ip, detail: { provider: provider.id } },
          new Date(now),
          trx,
        );
        return created.id;
      });
    } catch (error) {
      // Another sign-in of the same person (or address) committed first: nothing of this one was
      // written; go on as the second one.
      if (error instanceof SignedInMeanwhile) return this.signIn(provider, claims, context);
      throw error;
    }
    const user = await this.deps.users.findById(userId);
    if (!user) throw new AppError("user_not_found");
    if (linkedTo === user.id) this.announce(user, "identity_linked", provider.name, identity.email);
    await this.signedIn(user, provider, context);
    return user;
  }

  /** Links the provider identity to `target`, a signed-in member; whatever its address. */
  private async link(
    target: UserRow,
    provider: FederatedProvider,
    claims: ProviderClaims,
    context: RequestContext,
  ): Promise<UserRow> {
    await assertNotLinked(this.deps.identities, provider.id, claims.sub, target);
    const identity = newIdentity(target.id, provider, claims, this.now().toISOString());
    await insertLink(this.deps, target, identity, context, { provider: provider.id, identity_id: identity.id });
    this.announce(target, "identity_linked", provider.name, identity.email);
    return (await this.deps.users.findById(target.id)) ?? target;
  }

  /**
   * Tells the member's address that a provider account was connected or disconnected (ADR 0034),
   * as it is told of a new passkey: whoever holds a stolen session could otherwise add a way in
   * that outlives a password change unnoticed.
   */
  private announce(
    user: UserRow,
    kind: "identity_linked" | "identity_unlinked",
    providerName: string,
    providerAccount: unknown,
  ): void {
    sendNotice(this.deps.mailer, user, kind, {
      changedAt: this.now(),
      provider: providerName,
      ...(typeof providerAccount === "string" ? { providerAccount } : {}),
    });
  }

  /** A linked identity's provider as members read it; SAML identities are `sso:<provider id>`. */
  private nameOf(providerId: string): string {
    return ssoProviderIdOf(providerId) ? singleSignOnName : this.deps.providers.nameOf(providerId);
  }

  private async claimUnconfirmed(user: UserRow, now: string, trx: Transaction<Database>): Promise<void> {
    await this.deps.users.update(user.id, { email_confirmed_at: now, encrypted_password: null, updated_at: now }, trx);
    await this.deps.tokens.deleteOfUser(user.id, ["signup", "magiclink", "recovery", "email_change"], trx);
  }

  /** Still a member: invited (unless invite-only is off) and not banned. */
  private async assertMayUse(user: UserRow): Promise<void> {
    if (!(await this.deps.sessions.isAllowedIn(user))) throw notInvited();
    this.deps.sessions.assertNotBanned(user, 400);
  }

  private async signedIn(user: UserRow, provider: FederatedProvider, context: RequestContext): Promise<void> {
    await this.deps.audit.record({
      action: "user.signed_in",
      actorId: user.id,
      actorEmail: user.email,
      ip: context.ip,
      detail: { provider: provider.id },
    });
  }
}

class SignedInMeanwhile extends Error {}

/** A new identity of `userId` at the provider, as its claims describe the person now. */
function newIdentity(userId: string, provider: FederatedProvider, claims: ProviderClaims, now: string): IdentityRow {
  return {
    id: randomUUID(),
    user_id: userId,
    provider: provider.id,
    provider_id: claims.sub,
    ...identityFields(claims),
    last_sign_in_at: now,
    created_at: now,
    updated_at: now,
  };
}

/** Providers send `true`; a few send the string. */
function isVerified(value: unknown): boolean {
  return value === true || value === "true";
}

/** What the user object shows of the provider's claims, as Supabase Auth names them; strings only, bounded. */
function identityFields(claims: ProviderClaims): { email: string | null; identity_data: string } {
  const text = (value: unknown, max: number) =>
    typeof value === "string" && value.trim() ? value.trim().slice(0, max) : undefined;
  const email = text(claims.email, 320)?.toLowerCase();
  const name = text(claims.name, maxNameLength);
  const picture = text(claims.picture, maxPictureLength);
  const data = {
    iss: claims.iss,
    sub: claims.sub,
    provider_id: claims.sub,
    email,
    email_verified: isVerified(claims.email_verified),
    phone_verified: false,
    ...(name ? { name, full_name: name } : {}),
    ...(picture ? { picture, avatar_url: picture } : {}),
  };
  return { email: email ?? null, identity_data: JSON.stringify(data) };
}
