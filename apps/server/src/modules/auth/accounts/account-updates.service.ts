import type { AuthConfig } from "../../../config";
import { AppError } from "../../../errors";
import type { AuthAuditLog } from "../core/audit-log";
import type { AccountChanges } from "../core/account-notices";
import {
  assertDisplayNameChange,
  assertLocaleChange,
  displayNameFor,
  localeOf,
  mergeMetadata,
  validEmail,
} from "../core/account-rules";
import { parseObject, presentUser } from "../core/auth.presenter";
import { assertSecondStepProven } from "../core/factor-summary";
import type { EmailedTokensService, PkceChallenge } from "../core/emailed-tokens.service";
import type { InvitationCheck } from "../core/invitation-ledger";
import type { OneTimeTokensRepository } from "../core/one-time-tokens.repository";
import { codeHash } from "../core/secrets";
import { type Caller, notInvited, type RequestContext } from "../core/session.service";
import type { SessionsRepository } from "../core/sessions.repository";
import type { UsersRepository } from "../core/users.repository";
import type { PasswordHasher } from "../password/password-hasher";
import type { PasswordPolicy } from "../password/password-policy";

const reauthenticationWindowMs = 24 * 3600 * 1000;

/**
 * A signed-in member's changes to their own account (`PUT /user`): profile data, a new password
 * (with the e-mailed nonce of `GET /reauthenticate` when the session is old) and a new address.
 */
export class AccountUpdatesService {
  constructor(
    private readonly deps: {
      config: AuthConfig;
      users: UsersRepository;
      sessions: SessionsRepository;
      tokens: OneTimeTokensRepository;
      invitations: InvitationCheck;
      hasher: PasswordHasher;
      passwordPolicy: PasswordPolicy;
      emailedTokens: EmailedTokensService;
      changes: AccountChanges;
      audit: AuthAuditLog;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** Sends a six-digit nonce that a password change in an old session must carry. */
  async reauthenticate(caller: Caller): Promise<void> {
    if (caller.user.anonymous_since !== null)
      throw new AppError("validation_failed", {
        status: 422,
        message: "Reauthentication requires the user to have an email or a phone number",
      });
    if (!caller.user.email_confirmed_at) throw new AppError("email_not_confirmed", { status: 422 });
    await this.deps.emailedTokens.send(caller.user, "reauthentication", {});
  }

  async updateUser(
    caller: Caller,
    input: { email?: string; password?: string; nonce?: string; data?: Record<string, unknown>; pkce?: PkceChallenge },
    redirectTo: string | undefined,
    context: RequestContext,
  ): Promise<Record<string, unknown>> {
    let user = caller.user;
    const now = this.now().toISOString();
    // Before anything is written: a request that also changes the profile changes nothing.
    if (input.password !== undefined || (input.email !== undefined && changesAddress(input.email, user.email)))
      assertSecondStepProven(caller);

    if (input.data) {
      assertDisplayNameChange(input.data);
      assertLocaleChange(input.data);
      const metadata = mergeMetadata(parseObject(user.user_metadata), input.data);
      // The chosen language is kept beside the metadata too, where mails and errors read it.
      const locale = "locale" in input.data ? { locale: localeOf(metadata) } : {};
      user = { ...user, user_metadata: JSON.stringify(metadata), ...locale, updated_at: now };
      await this.deps.sessions.transaction(async (trx) => {
        await this.deps.users.update(user.id, { user_metadata: user.user_metadata, ...locale, updated_at: now }, trx);
        if ("full_name" in input.data!)
          await this.deps.users.setDisplayName(user.id, displayNameFor(user.email, metadata), now, trx);
      });
      if ("full_name" in input.data) this.deps.changes.profileChanged(user.id);
    }

    if (input.password !== undefined) {
      await this.deps.passwordPolicy.assertAllowed(input.password, { email: user.email });
      // Reauthentication first: otherwise an old (perhaps stolen) session could learn whether a
      // guess is the current password from same_password, without the e-mailed nonce.
      await this.assertReauthenticated(caller, input.nonce);
      if (user.encrypted_password && (await this.deps.hasher.verify(user.encrypted_password, input.password))) {
        throw new AppError("same_password");
      }
      const passwordHash = await this.deps.hasher.hash(input.password);
      await this.deps.sessions.transaction(async (trx) => {
        await this.deps.users.update(user.id, { encrypted_password: passwordHash, updated_at: now }, trx);
        // A new password ends every other session and every pending link.
        await this.deps.sessions.deleteAllOfUser(user.id, { keepSessionId: caller.claims.session_id }, trx);
        await this.deps.tokens.deleteOfUser(user.id, ["recovery", "magiclink", "email_change", "reauthentication"], trx);
      });
      user = { ...user, encrypted_password: passwordHash, updated_at: now };
      await this.deps.audit.record({ action: "user.password_changed", actorId: user.id, actorEmail: user.email, ip: context.ip });
      this.deps.changes.announce(user, { kind: "password_changed" });
    }

    if (input.email !== undefined) {
      const newEmail = validEmail(input.email);
      if (newEmail === user.email && user.email_change) {
        // Asking for the current address again withdraws a pending change (ADR 0067): its link and
        // code stop working and the account shows no address waiting for confirmation.
        const withdrawn = user.email_change;
        await this.deps.sessions.transaction(async (trx) => {
          await this.deps.users.update(user.id, { email_change: null, email_change_sent_at: null, updated_at: now }, trx);
          await this.deps.tokens.deleteOfUser(user.id, ["email_change"], trx);
        });
        user = { ...user, email_change: null, email_change_sent_at: null, updated_at: now };
        await this.deps.audit.record({
          action: "user.email_change_cancelled",
          actorId: user.id,
          actorEmail: user.email,
          ip: context.ip,
          detail: { new_email: withdrawn },
        });
      } else if (newEmail !== user.email) {
        if (await this.deps.users.findByEmail(newEmail)) throw new AppError("email_exists");
        // An owner's own new address needs no invitation (ADR 0067); a member's must be invited.
        if (
          this.deps.config.inviteOnly &&
          !(await this.deps.invitations.isInvited(newEmail)) &&
          !(await this.deps.invitations.isOwner(user.email))
        )
          throw notInvited();
        user = { ...user, email_change: newEmail };
        user = await this.deps.emailedTokens.send(user, "email_change", {
          redirectTo,
          pkce: input.pkce,
          authenticationMethod: "email_change",
        });
        await this.deps.audit.record({
          action: "user.email_change_requested",
          actorId: user.id,
          actorEmail: user.email,
          ip: context.ip,
          detail: { new_email: newEmail },
        });
      }
    }
    return presentUser(user);
  }

  private async assertReauthenticated(caller: Caller, nonce: string | undefined): Promise<void> {
    if (!this.deps.config.passwordChangeRequiresReauthentication) return;
    const session = await this.deps.sessions.findById(caller.claims.session_id);
    const sessionAge = this.now().getTime() - Date.parse(session?.created_at ?? "1970-01-01T00:00:00Z");
    if (sessionAge < reauthenticationWindowMs) return;
    if (!nonce) throw new AppError("reauthentication_needed");
    const token = await this.deps.tokens.findByOtpHash(codeHash(caller.user.email, nonce.trim()), ["reauthentication"]);
    if (
      !token ||
      token.user_id !== caller.user.id ||
      Date.parse(token.expires_at) < this.now().getTime() ||
      !(await this.deps.tokens.consume(token.id))
    ) {
      throw new AppError("reauthentication_not_valid");
    }
  }
}

/** Whether `requested` is another valid address than the member's (an invalid one is refused later, as before). */
function changesAddress(requested: string, current: string): boolean {
  try {
    return validEmail(requested) !== current;
  } catch {
    return false;
  }
}
