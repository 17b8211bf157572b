import { AppError, type ErrorText } from "../../../errors";
import type { AuthAuditLog } from "../core/audit-log";
import type { SessionJson } from "../core/auth.presenter";
import type { OneTimeTokensRepository } from "../core/one-time-tokens.repository";
import { sha256 } from "../core/secrets";
import type { RequestContext, SessionService } from "../core/session.service";
import type { SessionsRepository } from "../core/sessions.repository";
import type { UsersRepository } from "../core/users.repository";
import type { PasswordFailuresRepository } from "./password-failures.repository";
import type { PasswordHasher } from "./password-hasher";
import type { PasswordPolicy } from "./password-policy";

/** Wrong passwords for one address before each further attempt waits (ADR 0015). */
const freeWrongPasswords = 10;
/** The wait after the tenth wrong password; it doubles with each further one, up to the cap. */
const firstPasswordWaitMs = 1000;
const maxPasswordWaitMs = 15 * 60_000;
/** A run of wrong passwords is forgotten a day after its last attempt. */
const wrongPasswordRunMs = 24 * 3600 * 1000;

/** Signing in with an address and a password (`POST /token?grant_type=password`). */
export class PasswordSignInService {
  constructor(
    private readonly deps: {
      users: UsersRepository;
      sessions: SessionsRepository;
      tokens: OneTimeTokensRepository;
      passwordFailures: PasswordFailuresRepository;
      sessionService: SessionService;
      hasher: PasswordHasher;
      passwordPolicy: PasswordPolicy;
      audit: AuthAuditLog;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /**
   * Wrong passwords slow an address down (ADR 0015): each attempt counts before its password is
   * checked and a right one clears the count; after ten, the next attempt waits one second, then
   * two, four… up to 15 minutes, and is answered `429 over_request_rate_limit` with `Retry-After`
   * until then. The count is kept per address, whether or not it has an account, so the answers
   * are the same for both; the member is never locked out for longer than the wait.
   */
  async signIn(input: { email: string; password: string }, context: RequestContext): Promise<SessionJson> {
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
      text: waitText(seconds),
      headers: { "retry-after": String(seconds) },
    });
  }
}

/** "1 second", "40 seconds", "15 minutes". */
function waitText(seconds: number): ErrorText {
  if (seconds < 120) return { id: "errorText.passwordRateLimit.seconds", values: { seconds } };
  return { id: "errorText.passwordRateLimit.minutes", values: { minutes: Math.ceil(seconds / 60) } };
}
