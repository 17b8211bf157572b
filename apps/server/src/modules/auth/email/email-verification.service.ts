import type { OneTimeTokenRow, UserRow } from "../../../db/schema";
import { AppError } from "../../../errors";
import type { AuthAuditLog } from "../core/audit-log";
import type { AccountChanges } from "../core/account-notices";
import { displayNameFor, localeOf } from "../core/account-rules";
import { parseObject } from "../core/auth.presenter";
import { allTokenKinds, type PendingRegistration, pendingOf, type TokenKind } from "../core/emailed-tokens.service";
import type { InvitationLedger } from "../core/invitation-ledger";
import type { OneTimeTokensRepository } from "../core/one-time-tokens.repository";
import { codeHash, constantTimeEqual, sha256 } from "../core/secrets";
import { notInvited, type RequestContext, type SessionService } from "../core/session.service";
import type { SessionsRepository } from "../core/sessions.repository";
import type { UsersRepository } from "../core/users.repository";

export type VerifyType = "signup" | "invite" | "magiclink" | "recovery" | "email_change" | "email";

export interface VerifiedToken {
  user: UserRow;
  kind: TokenKind;
  /** Set when the link belongs to a PKCE flow. */
  flowStateId: string | null;
  /** How the session that follows was authenticated, for its `amr` claim. */
  amrMethod: string;
}

/** The AMR method a session started from each kind of token records. */
const amrMethod: Record<TokenKind, string> = {
  signup: "otp",
  invite: "invite",
  magiclink: "otp",
  recovery: "recovery",
  email_change: "email_change",
  reauthentication: "otp",
};
/** A code dies at this many wrong guesses; a new one must be asked for. */
const maxWrongGuessesPerCode = 5;
/** Wrong codes for one account within `wrongCodeWindowMs` before it refuses codes until the window passes. */
const maxWrongCodesPerAccount = 10;
const wrongCodeWindowMs = 3600_000;

/**
 * `/verify`: an e-mailed link or six-digit code is used. It proves the mailbox (a sign-up's
 * confirmation, an invitation, a magic link, a recovery) or switches the account to a new address.
 */
export class EmailVerificationService {
  constructor(
    private readonly deps: {
      users: UsersRepository;
      sessions: SessionsRepository;
      tokens: OneTimeTokensRepository;
      sessionService: SessionService;
      invitations: InvitationLedger;
      changes: AccountChanges;
      audit: AuthAuditLog;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /**
   * Consumes an e-mailed token (the link's token, or the address and its six-digit code) and
   * applies it: confirms the address or switches to the new one. The caller then starts a
   * session, or, for a PKCE flow opened from a link, issues an auth code instead.
   */
  async verify(
    input: {
      type: VerifyType;
      tokenHash?: string;
      email?: string;
      code?: string;
      /** The secret a sign-up left in this browser's cookie, if any. */
      browserSecret?: string | undefined;
      /** A PKCE link answers with an auth code (`GET /verify`), not a session. */
      issuesAuthCode?: boolean;
    },
    context: RequestContext,
  ): Promise<VerifiedToken> {
    const expired = new AppError("otp_expired", {
      message: input.tokenHash ? "Email link is invalid or has expired" : "Token has expired or is invalid",
    });
    const kinds: TokenKind[] = input.type === "email" ? ["signup", "magiclink"] : [input.type];
    const token = input.tokenHash
      ? await this.deps.tokens.findByTokenHash(sha256(input.tokenHash), kinds)
      : input.email && input.code
        ? await this.findByCode(input.email.trim().toLowerCase(), input.code.trim(), kinds)
        : undefined;
    if (!token || Date.parse(token.expires_at) < this.now().getTime()) throw expired;
    if (!(await this.deps.tokens.consume(token.id))) throw expired;

    const user = await this.deps.users.findById(token.user_id);
    if (!user) throw expired;
    this.deps.sessionService.assertNotBanned(user, 403);
    const now = this.now().toISOString();
    const verified: UserRow = { ...user, email_confirmed_at: user.email_confirmed_at ?? now, updated_at: now };
    if (token.token_type === "email_change") {
      if (await this.deps.users.findByEmail(token.relates_to)) throw new AppError("email_exists");
      Object.assign(verified, { email: token.relates_to, email_change: null, email_change_sent_at: null });
    }
    // An owner's own new address needs no invitation (ADR 0067); anyone else's must be invited.
    const ownersOwnAddress = token.token_type === "email_change" && (await this.deps.invitations.isOwner(user.email));
    if (!ownersOwnAddress && !(await this.deps.sessionService.isAllowedIn(verified))) throw notInvited();

    // The mailbox is proven for the first time. A password a sign-up chose stands only if this is
    // the browser that chose it (its sign-up's cookie); from anywhere else it is dropped, and the
    // person who proved the mailbox sets one. (A sign-up never writes the account's password; one
    // already there was set by the operator.) Links and sessions from before end here (ADR 0014).
    const firstProof = user.email_confirmed_at === null;
    const chosen = firstProof ? chosenInThisBrowser(token, input.browserSecret) : undefined;
    // Or the client that signed up proves itself later, by exchanging this link's auth code with
    // the verifier of the challenge it signed up with: what it chose waits on the flow until then,
    // kept only on this link's flow, only when this link is the first proof (ADR 0046).
    const keptFlowId =
      firstProof && !chosen && input.issuesAuthCode && token.token_type === "signup" ? token.flow_state_id : null;
    if (firstProof) {
      verified.encrypted_password = chosen?.passwordHash ?? user.encrypted_password;
      if (chosen) verified.user_metadata = JSON.stringify({ ...parseObject(user.user_metadata), ...chosen.userMetadata });
    }

    await this.deps.sessions.transaction(async (trx) => {
      await this.deps.users.update(
        user.id,
        {
          email: verified.email,
          email_confirmed_at: verified.email_confirmed_at,
          email_change: verified.email_change,
          email_change_sent_at: verified.email_change_sent_at,
          ...(firstProof
            ? {
                encrypted_password: verified.encrypted_password,
                user_metadata: verified.user_metadata,
                locale: localeOf(parseObject(verified.user_metadata)),
              }
            : {}),
          failed_verifications: 0,
          failed_verifications_since: null,
          updated_at: now,
        },
        trx,
      );
      await this.deps.tokens.dropPendingOfFlows(user.id, keptFlowId, trx);
      if (firstProof) {
        await this.deps.tokens.deleteOfUser(user.id, allTokenKinds, trx);
        await this.deps.sessions.deleteAllOfUser(user.id, {}, trx);
        if (chosen) await this.deps.users.setDisplayName(user.id, displayNameFor(verified.email, chosen.userMetadata), now, trx);
      }
      if (token.token_type === "email_change")
        await this.deps.invitations.transferAddress(user.email, verified.email, user.id, trx);
      else await this.deps.invitations.markUsed(verified.email, user.id, trx);
    });
    if (firstProof && chosen) this.deps.changes.profileChanged(user.id);
    if (token.token_type === "email_change")
      this.deps.changes.announce(user, { kind: "email_changed", newEmail: verified.email });
    await this.deps.audit.record({
      action: `user.verified_${token.token_type}`,
      actorId: user.id,
      actorEmail: verified.email,
      ip: context.ip,
    });
    return {
      user: verified,
      kind: token.token_type as TokenKind,
      flowStateId: token.flow_state_id,
      amrMethod: amrMethod[token.token_type as TokenKind],
    };
  }

  /**
   * The token a typed six-digit code belongs to. A code can be guessed, so wrong ones count: each
   * wrong code counts against every live code of the account (the one the guesser aims at among
   * them), which die at the fifth; and the account refuses codes for an hour once ten wrong ones
   * were typed for it, from however many addresses, before even comparing this one.
   */
  private async findByCode(email: string, code: string, kinds: TokenKind[]): Promise<OneTimeTokenRow | undefined> {
    const owner = await this.deps.users.findByEmail(email);
    const now = this.now();
    const windowStart = now.getTime() - wrongCodeWindowMs;
    if (
      owner &&
      owner.failed_verifications >= maxWrongCodesPerAccount &&
      owner.failed_verifications_since !== null &&
      Date.parse(owner.failed_verifications_since) > windowStart
    ) {
      const minutes = Math.ceil((Date.parse(owner.failed_verifications_since) - windowStart) / 60_000);
      throw new AppError("over_request_rate_limit", {
        message: `Too many wrong codes were typed for this address. Try again in ${minutes} minutes, or use the link in the e-mail.`,
      });
    }
    const token = await this.deps.tokens.findByOtpHash(codeHash(email, code), kinds);
    if (!token && owner) {
      await this.deps.sessions.transaction(async (trx) => {
        await this.deps.tokens.countWrongGuess(owner.id, kinds, maxWrongGuessesPerCode, trx);
        await this.deps.users.countFailedVerification(owner.id, now.toISOString(), new Date(windowStart).toISOString(), trx);
      });
    }
    return token;
  }
}

/** The sign-up's choices, when `browserSecret` is the one its browser was given. */
function chosenInThisBrowser(token: OneTimeTokenRow, browserSecret: string | undefined): PendingRegistration | undefined {
  const pending = pendingOf(token);
  if (!pending || !browserSecret || !constantTimeEqual(sha256(browserSecret), pending.browserBindingHash)) return undefined;
  return pending;
}
