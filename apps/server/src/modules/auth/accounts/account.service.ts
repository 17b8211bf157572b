import { randomUUID } from "node:crypto";
import type { AuthConfig } from "../../../config";
import type { OneTimeTokenRow, UserRow } from "../../../db/schema";
import { type Mailer, MailDeliveryError } from "../../mail";
import { renderEmail } from "../../mail";
import { sendNotice } from "../core/account-notices";
import type { AuditLogRepository } from "../../audit";
import { assertDisplayNameChange, displayNameFor, mergeMetadata, newUser, validEmail } from "../core/account-rules";
import { parseObject, presentUser, type SessionJson } from "../core/auth.presenter";
import type { OneTimeTokensRepository } from "../core/one-time-tokens.repository";
import type { PasswordFailuresRepository } from "../password/password-failures.repository";
import type { PasswordHasher } from "../password/password-hasher";
import type { PasswordPolicy } from "../password/password-policy";
import { resolveRedirect } from "../core/redirects";
import { codeHash, constantTimeEqual, pkceVerifierMatches, randomCode, randomToken, sha256 } from "../core/secrets";
import type { InvitationLedger } from "../core/invitation-ledger";
import { type Caller, notInvited, type RequestContext, type SessionService } from "../core/session.service";
import type { SessionsRepository } from "../core/sessions.repository";
import type { UsersRepository } from "../core/users.repository";
import { AppError } from "../../../errors";

/** E-mailed token kinds, as stored; the names match the `type` of /verify where they overlap. */
export type TokenKind = "signup" | "invite" | "magiclink" | "recovery" | "email_change" | "reauthentication";
export type VerifyType = "signup" | "invite" | "magiclink" | "recovery" | "email_change" | "email";

export interface PkceChallenge {
  codeChallenge: string;
  codeChallengeMethod: string;
}

export interface TokenOptions {
  redirectTo?: string | undefined;
  pkce?: PkceChallenge | undefined;
  /** Recorded on a PKCE flow, to name how its session was authenticated. */
  authenticationMethod?: string;
  /** What a sign-up chose, held on its confirmation token until the mailbox is proven (ADR 0014). */
  pending?: PendingRegistration;
}

/** A sign-up's choices, and the hash of the secret its browser keeps in a cookie. */
export interface PendingRegistration {
  passwordHash: string;
  userMetadata: Record<string, unknown>;
  browserBindingHash: string;
}

/** The answer to a sign-up, and the secret to leave in the signing-up browser when one was made. */
export interface SignUpResult {
  body: SessionJson | Record<string, unknown>;
  browserSecret?: string;
}

export interface IssuedToken {
  user: UserRow;
  recipient: string;
  /** The /verify link; absent for reauthentication, which has only a code. */
  link: string | undefined;
  code: string;
  /** The link's token, which /verify also accepts as `token_hash`. */
  linkToken: string;
  redirectTo: string;
}

export interface VerifiedToken {
  user: UserRow;
  kind: TokenKind;
  /** Set when the link belongs to a PKCE flow. */
  flowStateId: string | null;
  /** How the session that follows was authenticated, for its `amr` claim. */
  amrMethod: string;
}

const mailKind = {
  signup: "confirmation",
  invite: "invite",
  magiclink: "magic_link",
  recovery: "recovery",
  email_change: "email_change",
  reauthentication: "reauthentication",
} as const;
/** The AMR method a session started from each kind of token records. */
const amrMethod: Record<TokenKind, string> = {
  signup: "otp",
  invite: "invite",
  magiclink: "otp",
  recovery: "recovery",
  email_change: "email_change",
  reauthentication: "otp",
};
const flowStateTtlMs = 300_000;
/** A code dies at this many wrong guesses; a new one must be asked for. */
const maxWrongGuessesPerCode = 5;
/** Wrong codes for one account within `wrongCodeWindowMs` before it refuses codes until the window passes. */
const maxWrongCodesPerAccount = 10;
const wrongCodeWindowMs = 3600_000;
const reauthenticationWindowMs = 24 * 3600 * 1000;
/** Wrong passwords for one address before each further attempt waits (ADR 0015). */
const freeWrongPasswords = 10;
/** The wait after the tenth wrong password; it doubles with each further one, up to the cap. */
const firstPasswordWaitMs = 1000;
const maxPasswordWaitMs = 15 * 60_000;
/** A run of wrong passwords is forgotten a day after its last attempt. */
const wrongPasswordRunMs = 24 * 3600 * 1000;

/**
 * Accounts: sign-up, password sign-in, e-mailed links and codes, and changes to one's own
 * account. Invitations are enforced here, on the server, for every way in.
 */
export class AccountService {
  constructor(
    private readonly deps: {
      config: AuthConfig;
      publicUrl: string;
      users: UsersRepository;
      sessions: SessionsRepository;
      tokens: OneTimeTokensRepository;
      passwordFailures: PasswordFailuresRepository;
      sessionService: SessionService;
      invitations: InvitationLedger;
      hasher: PasswordHasher;
      passwordPolicy: PasswordPolicy;
      mailer: Mailer;
      audit: AuditLogRepository;
      /** Told after a member's display name changed, so open screens can show the new one. */
      onProfileChanged?: (userId: string) => void;
      now?: () => Date;
    },
  ) {}

  profileChanged(userId: string): void {
    this.deps.onProfileChanged?.(userId);
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /**
   * Without autoconfirm, a sign-up never sets the account's password: the mailbox is not proven
   * yet, and whoever typed the address may not own it. The password and profile data wait on the
   * confirmation token, bound to a secret this browser keeps (`browserSecret`, set as a cookie by
   * the route); `verify` applies them only for that browser (ADR 0014).
   */
  async signUp(
    input: { email: string; password: string; data: Record<string, unknown>; pkce?: PkceChallenge },
    redirectTo: string | undefined,
    context: RequestContext,
  ): Promise<SignUpResult> {
    const { config } = this.deps;
    if (config.signupDisabled) throw new AppError("signup_disabled");
    const email = validEmail(input.email);
    await this.deps.passwordPolicy.assertAllowed(input.password, { email });
    if (config.inviteOnly && !(await this.deps.invitations.isInvited(email))) throw notInvited();

    const existing = await this.deps.users.findByEmail(email);
    if (existing?.email_confirmed_at) {
      if (config.autoconfirm) throw new AppError("user_already_exists");
      // Same answer as a new sign-up, so the form cannot tell who has an account.
      return { body: obfuscatedUser(email, input.data, this.now()) };
    }

    const now = this.now().toISOString();
    const passwordHash = await this.deps.hasher.hash(input.password);
    if (config.autoconfirm) {
      // Sign-up open to any address (invite-only off, which config.ts requires with autoconfirm).
      const user: UserRow = existing
        ? {
            ...existing,
            encrypted_password: passwordHash,
            user_metadata: JSON.stringify({ ...parseObject(existing.user_metadata), ...input.data }),
            email_confirmed_at: now,
          }
        : { ...newUser(email, passwordHash, input.data, now), email_confirmed_at: now };
      const written = await this.deps.sessions.transaction(async (trx) => {
        if (existing) {
          await this.deps.users.update(
            user.id,
            { encrypted_password: passwordHash, user_metadata: user.user_metadata, updated_at: now, email_confirmed_at: now },
            trx,
          );
        } else if (!(await this.deps.users.createIfEmailFree(user, displayNameFor(email, input.data), trx))) return false;
        await this.deps.invitations.markUsed(email, user.id, trx);
        return true;
      });
      if (!written) return this.signUp(input, redirectTo, context);
      await this.deps.audit.record({ action: "user.signed_up", actorId: user.id, actorEmail: email, ip: context.ip });
      return { body: await this.deps.sessionService.start(user, "password", context) };
    }

    // The account exists from the first sign-up on, without a password and with a name taken
    // from the address: nothing a stranger typed shows before the owner confirms.
    let user = existing;
    if (!user) {
      const created = newUser(email, null, {}, now);
      const written = await this.deps.sessions.transaction(async (trx) => {
        if (!(await this.deps.users.createIfEmailFree(created, displayNameFor(email, {}), trx))) return false;
        await this.deps.invitations.markUsed(email, created.id, trx);
        return true;
      });
      // Another sign-up of this address committed first (a double submit): go on as the second one.
      if (!written) return this.signUp(input, redirectTo, context);
      await this.deps.audit.record({ action: "user.signed_up", actorId: created.id, actorEmail: email, ip: context.ip });
      user = created;
    }
    const browserSecret = randomToken();
    // Mail goes out after the commit: a failing mail server never loses the account, and the
    // person can ask for the mail again.
    const sent = await this.sendToken(user, "signup", {
      redirectTo,
      pkce: input.pkce,
      authenticationMethod: "email/signup",
      pending: { passwordHash, userMetadata: input.data, browserBindingHash: sha256(browserSecret) },
    });
    // The answer goes to whoever signed up: it shows what they chose, not yet the account's.
    const asChosen = { ...sent, user_metadata: JSON.stringify({ ...parseObject(sent.user_metadata), ...input.data }) };
    return { body: presentUser(asChosen), browserSecret };
  }

  /**
   * Wrong passwords slow an address down (ADR 0015): each attempt counts before its password is
   * checked and a right one clears the count; after ten, the next attempt waits one second, then
   * two, four… up to 15 minutes, and is answered `429 over_request_rate_limit` with `Retry-After`
   * until then. The count is kept per address, whether or not it has an account, so the answers
   * are the same for both; the member is never locked out for longer than the wait.
   */
  async signInWithPassword(input: { email: string; password: string }, context: RequestContext): Promise<SessionJson> {
    const invalid = new AppError("invalid_credentials");
    const email = input.email.trim().toLowerCase();
    const addressHash = email ? sha256(email) : undefined;
    if (addressHash) await this.countPasswordAttempt(addressHash);
    const user = email ? await this.deps.users.findByEmail(email) : undefined;
    // Before the mailbox is proven the password waits on the sign-up's link: it may tell the person
    // to confirm first (below), and can never open a session.
    const stored =
      user?.encrypted_password ??
      (user && !user.email_confirmed_at ? (await this.deps.tokens.findLatest(user.id, "signup"))?.pending_password_hash : null);
    const passwordOk = stored
      ? await this.deps.hasher.verify(stored, input.password)
      : await this.deps.hasher.verifyDummy(input.password);
    if (!user || !passwordOk) {
      await this.deps.audit.record({ action: "user.sign_in_failed", actorEmail: email || null, ip: context.ip });
      throw invalid;
    }
    if (addressHash) await this.deps.passwordFailures.clear(addressHash);
    await this.deps.sessionService.assertMaySignIn(user);
    const session = await this.deps.sessionService.start(user, "password", context);
    await this.deps.audit.record({ action: "user.signed_in", actorId: user.id, actorEmail: user.email, ip: context.ip });
    const reasons = this.deps.passwordPolicy.lengthReasons(input.password);
    return reasons.length > 0
      ? { ...session, weak_password: { message: this.deps.passwordPolicy.lengthMessage(), reasons } }
      : session;
  }

  /** Counts a password attempt for the address, or refuses it while the address must wait. */
  private async countPasswordAttempt(addressHash: string): Promise<void> {
    const now = this.now();
    const runStart = new Date(now.getTime() - wrongPasswordRunMs).toISOString();
    const counted = await this.deps.sessions.transaction(async (trx) => {
      const attempts = await this.deps.passwordFailures.countAttempt(addressHash, now.toISOString(), runStart, trx);
      // Set before the password is checked, in the same transaction: attempts arriving meanwhile wait too.
      if (attempts !== undefined && attempts >= freeWrongPasswords) {
        const waitMs = Math.min(firstPasswordWaitMs * 2 ** (attempts - freeWrongPasswords), maxPasswordWaitMs);
        await this.deps.passwordFailures.setRetryAt(addressHash, new Date(now.getTime() + waitMs).toISOString(), trx);
      }
      // A new run: the runs that ended long ago (of any address) are dropped on the way.
      if (attempts === 1) await this.deps.passwordFailures.deleteEndedBefore(runStart, trx);
      return attempts !== undefined;
    });
    if (counted) return;
    const retryAt = await this.deps.passwordFailures.findRetryAt(addressHash);
    const seconds = Math.max(1, Math.ceil(((retryAt ? Date.parse(retryAt) : now.getTime()) - now.getTime()) / 1000));
    throw new AppError("over_request_rate_limit", {
      message: `Too many wrong passwords were tried for this address. Try again in ${waitText(seconds)}.`,
      headers: { "retry-after": String(seconds) },
    });
  }

  /** PKCE: trades the auth code from a link's redirect, plus the verifier only the client has, for a session. */
  async exchangeAuthCode(input: { authCode: string; codeVerifier: string }, context: RequestContext): Promise<SessionJson> {
    if (!input.authCode || !input.codeVerifier)
      throw new AppError("validation_failed", {
        message: "invalid request: both auth code and code verifier should be non-empty",
      });
    const flow = await this.deps.tokens.findFlowStateByAuthCode(sha256(input.authCode));
    if (!flow) throw new AppError("flow_state_not_found");
    if (this.now().getTime() - Date.parse(flow.auth_code_issued_at ?? flow.created_at) > flowStateTtlMs) {
      await this.deps.tokens.deleteFlowState(flow.id);
      throw new AppError("flow_state_expired");
    }
    if (!pkceVerifierMatches(input.codeVerifier, flow.code_challenge, flow.code_challenge_method))
      throw new AppError("bad_code_verifier");
    if (!(await this.deps.tokens.deleteFlowState(flow.id))) throw new AppError("flow_state_not_found");
    const user = await this.deps.users.findById(flow.user_id);
    if (!user) throw new AppError("flow_state_not_found");
    if (!(await this.deps.sessionService.isAllowedIn(user))) throw notInvited();
    return this.deps.sessionService.start(user, amrOfFlow(flow.authentication_method), context);
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
    if (!(await this.deps.sessionService.isAllowedIn(verified))) throw notInvited();

    // The mailbox is proven for the first time. A password a sign-up chose stands only if this is
    // the browser that chose it (its sign-up's cookie); from anywhere else it is dropped, and the
    // person who proved the mailbox sets one. (A sign-up never writes the account's password; one
    // already there was set by the operator.) Links and sessions from before end here (ADR 0014).
    const firstProof = user.email_confirmed_at === null;
    const chosen = firstProof ? chosenInThisBrowser(token, input.browserSecret) : undefined;
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
          ...(firstProof ? { encrypted_password: verified.encrypted_password, user_metadata: verified.user_metadata } : {}),
          failed_verifications: 0,
          failed_verifications_since: null,
          updated_at: now,
        },
        trx,
      );
      if (firstProof) {
        await this.deps.tokens.deleteOfUser(user.id, allTokenKinds, trx);
        await this.deps.sessions.deleteAllOfUser(user.id, {}, trx);
        if (chosen) await this.deps.users.setDisplayName(user.id, displayNameFor(verified.email, chosen.userMetadata), now, trx);
      }
      if (token.token_type === "email_change")
        await this.deps.invitations.transferAddress(user.email, verified.email, user.id, trx);
      else await this.deps.invitations.markUsed(verified.email, user.id, trx);
    });
    if (firstProof && chosen) this.profileChanged(user.id);
    if (token.token_type === "email_change") this.announceChange(user, { kind: "email_changed", newEmail: verified.email });
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

  /** Where a link may send someone: the requested address when allowed, else the site. */
  redirectTarget(requested: string | undefined): string {
    return resolveRedirect(requested, this.deps.config.siteUrl, this.deps.config.redirectUrls);
  }

  /** After a PKCE link is opened: an auth code for the flow, to be exchanged with the verifier. */
  async issueAuthCode(flowStateId: string): Promise<string> {
    const authCode = randomUUID();
    await this.deps.tokens.issueAuthCode(flowStateId, sha256(authCode), this.now().toISOString());
    return authCode;
  }

  /**
   * Passwordless sign-in. Answers the same way whether or not the address has an account or is
   * invited, so it cannot be used to discover either.
   */
  async sendMagicLink(
    input: { email: string; createUser: boolean; data: Record<string, unknown>; pkce?: PkceChallenge },
    redirectTo: string | undefined,
    context: RequestContext,
  ): Promise<void> {
    const email = validEmail(input.email);
    const user = await this.deps.users.findByEmail(email);
    // Supabase Auth's answer to a sign-in code for an address no account uses; `hide` trades it for silence (ADR 0023).
    if (!user && !input.createUser && this.deps.config.otpUnknownAddress === "refuse") throw new AppError("otp_disabled");
    if (this.deps.config.inviteOnly && !(await this.deps.invitations.isInvited(email))) return;
    if (!user) {
      if (!input.createUser || this.deps.config.signupDisabled) return;
      try {
        await this.signUp(
          { email, password: randomToken(), data: input.data, ...(input.pkce ? { pkce: input.pkce } : {}) },
          redirectTo,
          context,
        );
      } catch (error) {
        // As for members, the answer must not tell how the mail server fared (the mailer logs it).
        if (error instanceof MailDeliveryError) return;
        throw error;
      }
      return;
    }
    const kind: TokenKind = user.email_confirmed_at ? "magiclink" : "signup";
    await this.sendTokenQuietly(user, kind, {
      redirectTo,
      pkce: input.pkce,
      authenticationMethod: kind === "signup" ? "email/signup" : "magiclink",
    });
  }

  async sendRecovery(input: { email: string; pkce?: PkceChallenge }, redirectTo: string | undefined): Promise<void> {
    const email = validEmail(input.email);
    const user = await this.deps.users.findByEmail(email);
    if (!user || !(await this.deps.sessionService.isAllowedIn(user))) return;
    await this.sendTokenQuietly(user, "recovery", { redirectTo, pkce: input.pkce, authenticationMethod: "recovery" });
  }

  async resend(
    input: { type: "signup" | "email_change"; email: string; pkce?: PkceChallenge },
    redirectTo: string | undefined,
  ): Promise<void> {
    const email = validEmail(input.email);
    if (input.type === "signup") {
      const user = await this.deps.users.findByEmail(email);
      if (user && !user.email_confirmed_at && (await this.deps.sessionService.isAllowedIn(user))) {
        await this.sendTokenQuietly(user, "signup", { redirectTo, pkce: input.pkce, authenticationMethod: "email/signup" });
      }
      return;
    }
    const user = await this.deps.users.findByEmail(email);
    if (user?.email_change)
      await this.sendTokenQuietly(user, "email_change", { redirectTo, pkce: input.pkce, authenticationMethod: "email_change" });
  }

  /** Sends a six-digit nonce that a password change in an old session must carry. */
  async reauthenticate(caller: Caller): Promise<void> {
    if (!caller.user.email_confirmed_at) throw new AppError("email_not_confirmed", { status: 422 });
    await this.sendToken(caller.user, "reauthentication", {});
  }

  async updateUser(
    caller: Caller,
    input: { email?: string; password?: string; nonce?: string; data?: Record<string, unknown>; pkce?: PkceChallenge },
    redirectTo: string | undefined,
    context: RequestContext,
  ): Promise<Record<string, unknown>> {
    let user = caller.user;
    const now = this.now().toISOString();

    if (input.data) {
      assertDisplayNameChange(input.data);
      const metadata = mergeMetadata(parseObject(user.user_metadata), input.data);
      user = { ...user, user_metadata: JSON.stringify(metadata), updated_at: now };
      await this.deps.sessions.transaction(async (trx) => {
        await this.deps.users.update(user.id, { user_metadata: user.user_metadata, updated_at: now }, trx);
        if ("full_name" in input.data!)
          await this.deps.users.setDisplayName(user.id, displayNameFor(user.email, metadata), now, trx);
      });
      if ("full_name" in input.data) this.profileChanged(user.id);
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
      this.announceChange(user, { kind: "password_changed" });
    }

    if (input.email !== undefined) {
      const newEmail = validEmail(input.email);
      if (newEmail !== user.email) {
        if (await this.deps.users.findByEmail(newEmail)) throw new AppError("email_exists");
        if (this.deps.config.inviteOnly && !(await this.deps.invitations.isInvited(newEmail))) throw notInvited();
        user = { ...user, email_change: newEmail };
        user = await this.sendToken(user, "email_change", { redirectTo, pkce: input.pkce, authenticationMethod: "email_change" });
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

  /**
   * Tells an account's address, after the fact, that its password or its address changed (ADR
   * 0015): a notice with no link or code, to the address the account had before the change. Only
   * a proven address is told. Sent in the background: the change stands whatever the mail server
   * does (the mailer logs a failure).
   */
  announceChange(before: UserRow, change: { kind: "password_changed" } | { kind: "email_changed"; newEmail: string }): void {
    sendNotice(
      this.deps.mailer,
      before,
      change.kind,
      { changedAt: this.now(), ...(change.kind === "email_changed" ? { newEmail: change.newEmail } : {}) },
      () => this.deps.audit.record({ action: `mail.${change.kind}_notice_sent`, actorId: before.id, actorEmail: before.email }),
    );
  }

  /**
   * Creates a one-time token, records when it was sent and e-mails it. A second mail of the same
   * kind within the minimum interval is refused with 429. With `background`, the answer does not
   * wait for the mail server (nor learn how it fared: the mailer logs failures).
   */
  async sendToken(
    user: UserRow,
    kind: TokenKind,
    options: TokenOptions,
    delivery: { background?: boolean } = {},
  ): Promise<UserRow> {
    const sentAtColumn = sentAtColumnFor(kind);
    const lastSent = user[sentAtColumn];
    const now = this.now();
    const intervalMs = this.deps.config.emailMinIntervalSeconds * 1000;
    // Claimed in the database, not checked on `user`: requests racing each other (a burst of
    // /recover calls) must not all pass the interval and flood the inbox.
    if (
      !(await this.deps.users.claimMailSlot(
        user.id,
        sentAtColumn,
        now.toISOString(),
        new Date(now.getTime() - intervalMs).toISOString(),
      ))
    ) {
      const latest = (await this.deps.users.findById(user.id))?.[sentAtColumn];
      const waitMs = latest ? Date.parse(latest) + intervalMs - now.getTime() : intervalMs;
      throw new AppError("over_email_send_rate_limit", {
        message: `For security purposes, you can only request this after ${Math.max(1, Math.ceil(waitMs / 1000))} seconds.`,
      });
    }
    const issued = await this.issueToken(user, kind, options);
    const mail = renderEmail(mailKind[kind], {
      code: issued.code,
      email: issued.recipient,
      ...(issued.link ? { link: issued.link } : {}),
      ...(kind === "email_change" ? { newEmail: issued.recipient } : {}),
    });
    const deliver = async () => {
      try {
        await this.deps.mailer.send({ to: issued.recipient, ...mail, ...(issued.link ? { link: issued.link } : {}) });
      } catch (error) {
        // Nothing reached the person, so the minimum interval must not make them wait to ask again.
        await this.deps.users.update(user.id, { [sentAtColumn]: lastSent });
        throw error;
      }
      await this.deps.audit.record({ action: `mail.${kind}_sent`, actorId: user.id, actorEmail: user.email });
    };
    if (delivery.background) void deliver().catch(() => undefined);
    else await deliver();
    return issued.user;
  }

  /**
   * Creates a one-time token (replacing the previous one of its kind) and records when it was
   * issued. Returns the link and code to deliver; only hashes are stored.
   */
  async issueToken(user: UserRow, kind: TokenKind, options: TokenOptions): Promise<IssuedToken> {
    const now = this.now();
    const sentAtColumn = sentAtColumnFor(kind);
    const recipient = kind === "email_change" ? (user.email_change ?? user.email) : user.email;
    const linkToken = randomToken();
    const code = randomCode();
    const flowStateId = options.pkce ? randomUUID() : null;
    await this.deps.sessions.transaction(async (trx) => {
      // Each sign-up keeps its own link, bound to its own browser, until the mailbox is proven. A
      // new link without a sign-up (a resend, a magic link to an unconfirmed account) replaces the
      // newest one and keeps what that sign-up chose, still bound to the same browser.
      const replaced =
        kind === "signup" && !options.pending ? await this.deps.tokens.findLatest(user.id, "signup", trx) : undefined;
      const pending = options.pending ?? pendingOf(replaced);
      if (options.pkce && flowStateId) {
        await this.deps.tokens.createFlowState(
          {
            id: flowStateId,
            user_id: user.id,
            code_challenge: options.pkce.codeChallenge,
            code_challenge_method: options.pkce.codeChallengeMethod,
            authentication_method: options.authenticationMethod ?? kind,
            auth_code_hash: null,
            auth_code_issued_at: null,
            created_at: now.toISOString(),
          },
          trx,
        );
      }
      const token: OneTimeTokenRow = {
        id: randomUUID(),
        user_id: user.id,
        token_type: kind,
        token_hash: sha256(linkToken),
        otp_hash: codeHash(recipient, code),
        relates_to: recipient,
        flow_state_id: flowStateId,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + this.deps.config.emailLinkTtlSeconds * 1000).toISOString(),
        pending_password_hash: pending?.passwordHash ?? null,
        pending_user_metadata: pending ? JSON.stringify(pending.userMetadata) : null,
        browser_binding_hash: pending?.browserBindingHash ?? null,
        failed_attempts: 0,
      };
      if (kind !== "signup") await this.deps.tokens.replace(token, trx);
      else {
        if (replaced) await this.deps.tokens.consume(replaced.id, trx);
        await this.deps.tokens.insert(token, trx);
      }
      await this.deps.users.update(user.id, { [sentAtColumn]: now.toISOString(), email_change: user.email_change }, trx);
    });
    const redirectTo = this.redirectTarget(options.redirectTo);
    const link =
      kind === "reauthentication"
        ? undefined
        : `${this.deps.publicUrl}/auth/v1/verify?${new URLSearchParams({ token: linkToken, type: kind, redirect_to: redirectTo }).toString()}`;
    return { user: { ...user, [sentAtColumn]: now.toISOString() }, recipient, link, code, linkToken, redirectTo };
  }

  /**
   * For flows that must not reveal whether an account exists: throttling is silent, and the mail
   * goes out in the background, so neither the mail server's delay nor its failure shows in the
   * answer (an unknown address answers at once).
   */
  private async sendTokenQuietly(user: UserRow, kind: TokenKind, options: TokenOptions): Promise<void> {
    try {
      await this.sendToken(user, kind, options, { background: true });
    } catch (error) {
      if (error instanceof AppError && error.code === "over_email_send_rate_limit") return;
      throw error;
    }
  }
}

/** The `amr` method of a session a PKCE flow starts: a recovery, a provider sign-in (ADR 0034), else an e-mailed link. */
function amrOfFlow(authenticationMethod: string): string {
  if (["recovery", "oauth", "sso/saml"].includes(authenticationMethod)) return authenticationMethod;
  return "otp";
}

/** "1 second", "40 seconds", "15 minutes". */
function waitText(seconds: number): string {
  if (seconds < 120) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

function sentAtColumnFor(kind: TokenKind) {
  switch (kind) {
    case "signup":
      return "confirmation_sent_at" as const;
    case "invite":
      return "invited_at" as const;
    case "magiclink":
    case "recovery":
      return "recovery_sent_at" as const;
    case "email_change":
      return "email_change_sent_at" as const;
    case "reauthentication":
      return "reauthentication_sent_at" as const;
  }
}

/** What Supabase Auth answers for a sign-up of an existing address: a user that does not exist. */
function obfuscatedUser(email: string, data: Record<string, unknown>, now: Date): Record<string, unknown> {
  const iso = now.toISOString();
  return {
    id: randomUUID(),
    aud: "authenticated",
    role: "",
    email,
    phone: "",
    confirmation_sent_at: iso,
    app_metadata: { provider: "email", providers: ["email"] },
    user_metadata: data,
    identities: [],
    created_at: iso,
    updated_at: iso,
    is_anonymous: false,
  };
}

function pendingOf(token: OneTimeTokenRow | undefined): PendingRegistration | undefined {
  if (!token?.pending_password_hash || !token.browser_binding_hash) return undefined;
  return {
    passwordHash: token.pending_password_hash,
    userMetadata: parseObject(token.pending_user_metadata ?? "{}"),
    browserBindingHash: token.browser_binding_hash,
  };
}

const allTokenKinds: TokenKind[] = ["signup", "invite", "magiclink", "recovery", "email_change", "reauthentication"];

/** The sign-up's choices, when `browserSecret` is the one its browser was given. */
function chosenInThisBrowser(token: OneTimeTokenRow, browserSecret: string | undefined): PendingRegistration | undefined {
  const pending = pendingOf(token);
  if (!pending || !browserSecret || !constantTimeEqual(sha256(browserSecret), pending.browserBindingHash)) return undefined;
  return pending;
}
