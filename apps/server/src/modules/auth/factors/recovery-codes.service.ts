import { randomBytes, randomUUID } from "node:crypto";
import type { MfaRecoveryCodeSetRow } from "../../../db/schema";
import { AppError } from "../../../errors";
import type { AuthAuditLog } from "../core/audit-log";
import type { AuthMailer } from "../core/auth-mailer";
import { recordByCaller, sendNotice } from "../core/account-notices";
import { lockedByWrongCodes, minutesUntilUnlocked } from "../core/failed-code-count";
import type { SessionJson } from "../core/auth.presenter";
import type { Caller, RequestContext, SessionService } from "../core/session.service";
import type { SessionsRepository } from "../core/sessions.repository";
import type { UsersRepository } from "../core/users.repository";
import type { FactorSecrets } from "./factor-secrets";
import type { FactorsRepository } from "./factors.repository";
import type { RecoveryCodesRepository } from "./recovery-codes.repository";

/** Codes in a set, and characters in a code: 10 base32 characters are 50 random bits. */
export const recoveryCodeCount = 10;
const codeLength = 10;
const alphabet = "abcdefghijklmnopqrstuvwxyz234567";
/**
 * Wrong recovery codes for one account within `recoveryLockWindowMs` before every recovery code is
 * refused until the window passes: as for authenticator codes (ADR 0040), 5 in 15 minutes.
 */
export const maxWrongRecoveryCodes = 5;
export const recoveryLockWindowMs = 15 * 60_000;

/** The method a recovery code puts in the session's `amr` when it proves the second step. */
export const recoveryCodeMethod = "recovery_code";

/**
 * Recovery codes for two-step verification (ADR 0042): ten codes made at aal2, shown once, stored
 * as keyed hashes; each works once, in place of the second step, even while the authenticator app
 * is locked by wrong codes (ADR 0040). Wrong ones are counted per account.
 */
export class RecoveryCodesService {
  constructor(
    private readonly deps: {
      codes: RecoveryCodesRepository;
      factors: FactorsRepository;
      users: UsersRepository;
      sessionRows: SessionsRepository;
      sessions: SessionService;
      secrets: FactorSecrets;
      audit: AuthAuditLog;
      mailer: AuthMailer;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /**
   * New codes for an account with a verified second factor, from a session that proved it: the
   * codes, once (only their hashes are kept), replacing every earlier one.
   */
  async generate(caller: Caller): Promise<{ codes: string[]; created_at: string }> {
    await this.assertHasSecondStep(caller.user.id);
    if (caller.claims.aal !== "aal2")
      throw new AppError("insufficient_aal", { text: { id: "errorText.recoveryCodesSecondStep" } });
    const now = this.now().toISOString();
    const codes = Array.from({ length: recoveryCodeCount }, newCode);
    const hashed = codes.map((code) => ({ id: randomUUID(), codeHash: this.hash(caller.user.id, code) }));
    await this.deps.sessionRows.transaction((trx) => this.deps.codes.replace(caller.user.id, hashed, now, trx));
    await recordByCaller(this.deps.audit, "recovery_codes.generated", caller, { count: codes.length });
    return { codes: codes.map(grouped), created_at: now };
  }

  /** How many codes are left, and when they were made (null when the account has none). */
  async status(caller: Caller): Promise<{ remaining: number; created_at: string | null }> {
    const set = await this.deps.codes.findSet(caller.user.id);
    if (!set) return { remaining: 0, created_at: null };
    return { remaining: await this.deps.codes.countUnused(caller.user.id), created_at: set.created_at };
  }

  /**
   * A recovery code in place of the second step: a right, unused one is used up, raises the session
   * to aal2 (as a code from the app would) and the member is told by e-mail how many are left. It
   * passes a factor locked by wrong codes; wrong recovery codes have a limit of their own.
   */
  async verify(caller: Caller, input: { code: string }, context: RequestContext): Promise<SessionJson> {
    const userId = caller.user.id;
    await this.assertHasSecondStep(userId);
    const code = normalize(input.code);
    if (code === "") throw new AppError("validation_failed", { message: "Code needs to be non-empty" });
    const now = this.now();
    const windowStart = new Date(now.getTime() - recoveryLockWindowMs);
    const set = await this.deps.codes.findSet(userId);
    // Before the code is looked at: while locked, a right code is refused too.
    if (set && lockedByWrongCodes(set, maxWrongRecoveryCodes, windowStart)) throw recoveryCodesLocked(set, windowStart);

    const answer =
      set && isWellFormed(code)
        ? await this.deps.sessionRows.transaction(async (trx) => {
            if (!(await this.deps.codes.use(userId, this.hash(userId, code), now.toISOString(), trx))) return undefined;
            if (set.failed_codes > 0) await this.deps.codes.clearFailedCodes(userId, trx);
            const sessionJson = await this.deps.sessions.raiseToAal2(caller, recoveryCodeMethod, trx);
            const user = await this.deps.users.findById(userId, trx);
            if (!user) throw new AppError("user_not_found");
            return { sessionJson, user, remaining: await this.deps.codes.countUnused(userId, trx) };
          })
        : undefined;

    if (!answer) {
      await recordByCaller(this.deps.audit, "recovery_code.failed", caller, {}, context);
      if (set) {
        const wrong = await this.deps.codes.countFailedCode(userId, now.toISOString(), windowStart.toISOString());
        if (wrong === maxWrongRecoveryCodes) {
          await recordByCaller(this.deps.audit, "recovery_codes.locked", caller, {}, context);
          sendNotice(this.deps.mailer, caller.user, "recovery_codes_locked", { changedAt: now });
        }
      }
      throw new AppError("mfa_verification_failed", { message: "This recovery code is not right, or it was already used." });
    }
    await recordByCaller(this.deps.audit, "recovery_code.used", caller, { remaining: answer.remaining }, context);
    sendNotice(this.deps.mailer, answer.user, "recovery_code_used", { changedAt: now, recoveryCodesLeft: answer.remaining });
    return answer.sessionJson(answer.user);
  }

  private async assertHasSecondStep(userId: string): Promise<void> {
    const factors = await this.deps.factors.listOfUser(userId);
    if (!factors.some((factor) => factor.status === "verified"))
      throw new AppError("mfa_factor_not_found", {
        status: 422,
        message: "Recovery codes come with two-step verification: add an authenticator app or a security key first.",
      });
  }

  private hash(userId: string, code: string): string {
    return this.deps.secrets.hashRecoveryCode(userId, code);
  }
}

/** Ten random base32 characters (each byte's low 5 bits: 32 divides 256, so every character is equally likely). */
function newCode(): string {
  return Array.from(randomBytes(codeLength), (byte) => alphabet[byte & 31]).join("");
}

/** As shown: `xxxxx-xxxxx`. */
function grouped(code: string): string {
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** As typed: any case, with or without the dash or spaces. */
function normalize(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, "");
}

function isWellFormed(code: string): boolean {
  return code.length === codeLength && [...code].every((character) => alphabet.includes(character));
}

function recoveryCodesLocked(set: MfaRecoveryCodeSetRow, windowStart: Date): AppError {
  const minutes = minutesUntilUnlocked(set, windowStart);
  return new AppError("mfa_recovery_codes_locked", {
    message: `Too many wrong recovery codes were typed. Try again in ${minutes} minutes, or ask an owner to reset your two-step verification.`,
  });
}
