import { randomUUID } from "node:crypto";
import type { Transaction } from "kysely";
import type { AuthConfig } from "../../../config";
import type { Database, IdentityRow, OauthStateRow, UserRow } from "../../../db/schema";
import { AppError } from "../../../errors";
import type { AuthAuditLog } from "../core/audit-log";
import type { AuthMailer } from "../core/auth-mailer";
import type { InvitationLedger } from "../core/invitation-ledger";
import { sendNotice } from "../core/account-notices";
import { displayNameFor, newUser } from "../core/account-rules";
import { identitiesOf, type SessionJson } from "../core/auth.presenter";
import type { IdentitiesRepository } from "./identities.repository";
import { assertNotLinked, insertLink } from "./identity-links";
import type { ProviderClaims } from "../oidc/oidc-providers";
import type { OneTimeTokensRepository } from "../core/one-time-tokens.repository";
import { sha256 } from "../core/secrets";
import { ssoProviderIdOf } from "../saml/saml-providers.repository";
import { type Caller, notInvited, type RequestContext, type SessionService } from "../core/session.service";
import type { UsersRepository } from "../core/users.repository";
import { walletOfIdentity } from "../wallets/wallets.service";

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
 * The sign-in and linking of outside accounts that OpenID Connect (ADR 0034) and SAML (ADR 0036)
 * share, and unlinking them. Invitations stay the gate: a provider account gets in only as the
 * member it is linked to, or by a verified address that is invited; nothing is created for anyone
 * else. The provider round trips themselves live in `oidc/` and `saml/`.
 */
export class IdentitiesService {
  constructor(
    private readonly deps: {
      config: AuthConfig;
      /** What members call an OpenID Connect provider ("Google"), by its id. */
      providerName: (id: string) => string;
      identities: IdentitiesRepository;
      users: UsersRepository;
      tokens: OneTimeTokensRepository;
      sessions: SessionService;
      invitations: InvitationLedger;
      audit: AuthAuditLog;
      mailer: AuthMailer;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
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
  async link(target: UserRow, provider: FederatedProvider, claims: ProviderClaims, context: RequestContext): Promise<UserRow> {
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
    return ssoProviderIdOf(providerId) ? singleSignOnName : this.deps.providerName(providerId);
  }

  private async claimUnconfirmed(user: UserRow, now: string, trx: Transaction<Database>): Promise<void> {
    await this.deps.users.update(user.id, { email_confirmed_at: now, encrypted_password: null, updated_at: now }, trx);
    await this.deps.tokens.deleteOfUser(user.id, ["signup", "magiclink", "recovery", "email_change"], trx);
  }

  /** Still a member: invited (unless invite-only is off) and not banned. */
  async assertMayUse(user: UserRow): Promise<void> {
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
