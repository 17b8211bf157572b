import { randomUUID } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import QRCode from "qrcode";
import type { Transaction } from "kysely";
import type { Database, MfaFactorRow, UserRow } from "../../../db/schema";
import { AppError } from "../../../errors";
import type { AuthAuditLog } from "../core/audit-log";
import type { AuthMailer } from "../core/auth-mailer";
import { recordByCaller, sendNotice } from "../core/account-notices";
import { lockedByWrongCodes, minutesUntilUnlocked } from "../core/failed-code-count";
import type { SessionJson } from "../core/auth.presenter";
import { provedSecondStepRecently, staleSecondStep } from "../core/factor-summary";
import type { FactorSecrets } from "./factor-secrets";
import type { FactorsRepository } from "./factors.repository";
import type { RecoveryCodesRepository } from "./recovery-codes.repository";
import type { RelyingParty, StoredCredential } from "../passkeys/relying-party";
import type { Caller, RequestContext, SessionService } from "../core/session.service";
import type { SessionsRepository } from "../core/sessions.repository";
import type { UsersRepository } from "../core/users.repository";
import { isUuid } from "../../../lib/uuid";

/** Supabase Auth's limits: factors per account, and how long a challenge and an unfinished enrolment live. */
const maxFactors = 10;
const challengeSeconds = 300;
/** Wrong codes a challenge takes before it dies and a new one must be asked for. */
const maxWrongCodes = 5;
/**
 * Wrong authenticator codes for one factor within `lockWindowMs`, from any challenges and
 * addresses, before the factor refuses codes until the window passes (the e-mailed codes' account
 * limit, in email/, for the second step): 5 in 15 minutes. A right code starts the count again.
 */
export const maxWrongCodesPerFactor = 5;
export const lockWindowMs = 15 * 60_000;

interface RelyingPartyNamed {
  rpId?: string | undefined;
  rpOrigins?: string[] | undefined;
}

export interface VerifyInput {
  challenge_id: string;
  code: string;
  webauthn?: (RelyingPartyNamed & { type: "create" | "request"; credential_response?: unknown }) | undefined;
}

/** A second factor proven, to be recorded in the transaction that raises the session; false if it was used already. */
interface Proof {
  record(trx: Transaction<Database>): Promise<boolean>;
}

export interface EnrollInput {
  factor_type: string;
  friendly_name?: string | undefined;
  issuer?: string | undefined;
}

/**
 * Second factors on the wire of Supabase Auth: authenticator apps (TOTP, ADR 0022) and security
 * keys (WebAuthn, ADR 0025). Enrol, challenge, verify (the session becomes aal2), unenrol; and the
 * operator's view of them.
 */
export class FactorsService {
  constructor(
    private readonly deps: {
      factors: FactorsRepository;
      /** The account's recovery codes, which go with its last verified factor (ADR 0042). */
      recoveryCodes: RecoveryCodesRepository;
      users: UsersRepository;
      sessionRows: SessionsRepository;
      sessions: SessionService;
      relyingParty: RelyingParty;
      audit: AuthAuditLog;
      /** The authenticator app's issuer when the client names none: the site's host. */
      defaultIssuer: string;
      /** Tells the member by e-mail whenever a factor is added or removed. */
      mailer: AuthMailer;
      /** Seals and opens the authenticator secrets (ADR 0041). */
      secrets: FactorSecrets;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /**
   * Starts a factor: a TOTP one answers its secret, otpauth URI and QR code; a WebAuthn one (a
   * security key) is registered by its first challenge and verify.
   */
  async enroll(caller: Caller, input: EnrollInput): Promise<Record<string, unknown>> {
    if (input.factor_type === "phone") throw new AppError("mfa_phone_enroll_not_enabled");
    if (input.factor_type !== "totp" && input.factor_type !== "webauthn")
      throw new AppError("validation_failed", { message: "factor_type needs to be totp, phone or webauthn" });
    const user = caller.user;
    const now = this.now();
    const issuer = input.issuer?.trim() || this.deps.defaultIssuer;
    const secret = input.factor_type === "totp" ? new Secret({ size: 20 }) : null;
    const id = randomUUID();
    const factor: MfaFactorRow = {
      id,
      user_id: user.id,
      friendly_name: input.friendly_name?.trim() ?? "",
      factor_type: input.factor_type,
      status: "unverified",
      // Sealed under a key outside the database (ADR 0041); the member sees it once, below.
      secret: secret ? this.deps.secrets.seal(id, secret.base32) : null,
      webauthn_credential: null,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      last_challenged_at: null,
      last_used_step: null,
      failed_codes: 0,
      failed_codes_since: null,
    };
    await this.deps.sessionRows.transaction(async (trx) => {
      await this.deps.factors.deleteUnverifiedOlderThan(
        user.id,
        new Date(now.getTime() - challengeSeconds * 1000).toISOString(),
        trx,
      );
      const existing = await this.deps.factors.listOfUser(user.id, trx);
      if (existing.some((other) => other.status === "verified") && caller.claims.aal !== "aal2")
        throw new AppError("insufficient_aal");
      if (existing.length >= maxFactors) throw new AppError("too_many_enrolled_mfa_factors");
      if (factor.friendly_name !== "" && existing.some((other) => other.friendly_name === factor.friendly_name))
        throw new AppError("mfa_factor_name_conflict", {
          message: `A factor with the friendly name "${factor.friendly_name}" for this user already exists`,
        });
      await this.deps.factors.insert(factor, trx);
    });
    await this.record("factor.enrolled", caller, { factor_id: factor.id, factor_type: factor.factor_type });
    if (!secret) return { id: factor.id, type: "webauthn", friendly_name: factor.friendly_name };
    const uri = new TOTP({ issuer, label: user.email, secret }).toString();
    return {
      id: factor.id,
      type: "totp",
      friendly_name: factor.friendly_name,
      totp: { qr_code: await qrCodeSvg(uri), secret: secret.base32, uri },
    };
  }

  /**
   * A challenge to answer within five minutes. For a security key it carries the WebAuthn options:
   * creation options while the factor is unverified (the key is registered by answering), request
   * options for the key registered once it is.
   */
  async challenge(
    caller: Caller,
    factorId: string,
    input: { webauthn?: RelyingPartyNamed | undefined },
    context: RequestContext,
  ): Promise<Record<string, unknown>> {
    const factor = await this.factorOf(caller, factorId);
    const now = this.now();
    const id = randomUUID();
    const webauthn = factor.factor_type === "webauthn" ? await this.webauthnOptions(caller, factor, input.webauthn) : null;
    await this.deps.sessionRows.transaction((trx) =>
      this.deps.factors.addChallenge(
        {
          id,
          factor_id: factor.id,
          ip: context.ip,
          created_at: now.toISOString(),
          verified_at: null,
          webauthn_challenge: webauthn?.credential_options.publicKey.challenge ?? null,
        },
        trx,
      ),
    );
    const expiresAt = Math.floor(now.getTime() / 1000) + challengeSeconds;
    return { id, type: factor.factor_type, expires_at: expiresAt, ...(webauthn ? { webauthn } : {}) };
  }

  private async webauthnOptions(caller: Caller, factor: MfaFactorRow, named: RelyingPartyNamed | undefined) {
    this.assertOurRelyingParty(named);
    const relyingParty = this.deps.relyingParty;
    if (factor.status === "verified") {
      const publicKey = await relyingParty.authenticationOptions([credentialOf(factor)], "security_key");
      return { type: "request" as const, credential_options: { publicKey } };
    }
    const keys = (await this.deps.factors.listOfUser(caller.user.id)).filter((other) => other.webauthn_credential);
    const publicKey = await relyingParty.registrationOptions(
      { id: caller.user.id, email: caller.user.email, displayName: factor.friendly_name || caller.user.email },
      keys.map(credentialOf),
      "security_key",
    );
    return { type: "create" as const, credential_options: { publicKey } };
  }

  /** The client names the relying party it runs at; a name other than ours is a page elsewhere. */
  private assertOurRelyingParty(named: RelyingPartyNamed | undefined): void {
    if (named?.rpId !== undefined && named.rpId !== this.deps.relyingParty.id)
      throw new AppError("validation_failed", { message: `rpId must be ${this.deps.relyingParty.id}` });
  }

  /**
   * Checks the code of an authenticator app against a live challenge from the same address. A
   * right code verifies the factor (the first time), raises the session to aal2 with a new refresh
   * token and ends the account's other aal1 sessions; a challenge answers once and dies after
   * five wrong codes.
   */
  async verify(caller: Caller, factorId: string, input: VerifyInput, context: RequestContext) {
    const factor = await this.factorOf(caller, factorId);
    const code = input.code.trim();
    if (factor.factor_type === "totp" && code === "")
      throw new AppError("validation_failed", { message: "Code needs to be non-empty" });
    const now = this.now();
    const windowStart = new Date(now.getTime() - lockWindowMs);
    // Before the code is looked at: while locked, the right code is refused too.
    if (guarded(factor) && lockedByWrongCodes(factor, maxWrongCodesPerFactor, windowStart))
      throw factorLocked(factor, windowStart);
    const challenge = await this.deps.factors.findChallenge(factor.id, input.challenge_id);
    if (!challenge)
      throw new AppError("mfa_factor_not_found", { status: 422, message: "MFA factor with the provided challenge ID not found" });
    if (challenge.verified_at !== null || challenge.ip !== context.ip) throw new AppError("mfa_ip_address_mismatch");
    const expired = Date.parse(challenge.created_at) + challengeSeconds * 1000 < now.getTime();
    if (expired || challenge.failed_attempts >= maxWrongCodes) throw new AppError("mfa_challenge_expired");

    const proof =
      factor.factor_type === "webauthn"
        ? await this.checkSecurityKey(factor, challenge.webauthn_challenge, input.webauthn)
        : this.checkCode(factor, code, now);
    if (!proof) {
      await this.deps.factors.countWrongCode(challenge.id);
      await this.record("factor.verification_failed", caller, { factor_id: factor.id }, context);
      if (guarded(factor)) {
        const wrong = await this.deps.factors.countFailedCode(factor.id, now.toISOString(), windowStart.toISOString());
        if (wrong === maxWrongCodesPerFactor) {
          await this.record("factor.locked", caller, { factor_id: factor.id }, context);
          this.notify(caller.user, "factor_locked");
        }
      }
      throw new AppError("mfa_verification_failed");
    }

    const answer = await this.deps.sessionRows.transaction(async (trx) => {
      if (!(await this.deps.factors.markChallengeVerified(challenge.id, now.toISOString(), trx)))
        throw new AppError("mfa_ip_address_mismatch");
      // A code already accepted (seen over a shoulder, or replayed) opens nothing a second time;
      // a key's signature counter only moves forward.
      if (!(await proof.record(trx)))
        throw new AppError("mfa_verification_failed", {
          message:
            factor.factor_type === "totp"
              ? "This code was already used; wait for the next one."
              : "This security key's answer was already used.",
        });
      if (factor.status !== "verified") await this.deps.factors.markVerified(factor, now.toISOString(), trx);
      if (factor.failed_codes > 0) await this.deps.factors.clearFailedCodes(factor.id, trx);
      const sessionJson = await this.deps.sessions.raiseToAal2(caller, factor.factor_type, trx);
      const user = await this.deps.users.findById(caller.user.id, trx);
      if (!user) throw new AppError("user_not_found");
      return { sessionJson, user };
    });
    await this.record("factor.verified", caller, { factor_id: factor.id }, context);
    if (factor.status !== "verified") this.notify(answer.user, "factor_added", factor.factor_type);
    return answer.sessionJson(answer.user) satisfies Promise<SessionJson>;
  }

  /** A right code from the authenticator app, recorded by its time step; undefined for a wrong one. */
  private checkCode(factor: MfaFactorRow, code: string, now: Date): Proof | undefined {
    const secret = factor.secret === null ? undefined : this.deps.secrets.open(factor.id, factor.secret);
    // A secret this server cannot open (another key, or a row altered) is the operator's problem,
    // not a wrong code: it is not counted against the member.
    if (secret === undefined)
      throw new AppError("unexpected_failure", {
        message: "This authenticator app's secret cannot be read with this server's key (AUTH_FACTOR_SECRETS_KEY).",
      });
    const totp = new TOTP({ secret: Secret.fromBase32(secret) });
    const delta = /^\d{6}$/.test(code) ? totp.validate({ token: code, timestamp: now.getTime(), window: 1 }) : null;
    if (delta === null) return undefined;
    const step = totp.counter({ timestamp: now.getTime() }) + delta;
    return { record: (trx) => this.deps.factors.useStep(factor.id, step, trx) };
  }

  /**
   * The security key's answer to this challenge: its registration while the factor is unverified,
   * a signature by the registered key after. Undefined when the answer does not verify.
   */
  private async checkSecurityKey(
    factor: MfaFactorRow,
    challenge: string | null,
    answer: VerifyInput["webauthn"],
  ): Promise<Proof | undefined> {
    if (!answer)
      throw new AppError("validation_failed", { message: "A WebAuthn factor is verified with webauthn.credential_response" });
    this.assertOurRelyingParty(answer);
    const expected = factor.status === "verified" ? "request" : "create";
    if (answer.type !== expected)
      throw new AppError("validation_failed", {
        message: `This factor's challenge expects a webauthn answer of type ${expected}`,
      });
    if (!challenge) return undefined;
    try {
      if (expected === "create") {
        const credential = await this.deps.relyingParty.verifyRegistration(answer.credential_response, challenge, "security_key");
        return { record: (trx) => this.deps.factors.setCredential(factor.id, null, JSON.stringify(credential), trx) };
      }
      const registered = credentialOf(factor);
      const counter = await this.deps.relyingParty.verifyAuthentication(
        answer.credential_response,
        challenge,
        registered,
        "security_key",
      );
      const next = JSON.stringify({ ...registered, counter });
      return { record: (trx) => this.deps.factors.setCredential(factor.id, factor.webauthn_credential, next, trx) };
    } catch (error) {
      if (error instanceof AppError && error.code === "webauthn_verification_failed") return undefined;
      throw error;
    }
  }

  /** A verified factor can be removed only from a session that proved a second factor, in the last ten minutes. */
  async unenroll(caller: Caller, factorId: string): Promise<{ id: string }> {
    const factor = await this.factorOf(caller, factorId);
    if (factor.status === "verified" && caller.claims.aal !== "aal2")
      throw new AppError("insufficient_aal", { status: 422, message: "AAL2 required to unenroll verified factor" });
    if (factor.status === "verified" && !provedSecondStepRecently(caller.claims.amr, this.now())) throw staleSecondStep();
    await this.remove(caller.user.id, [factor.id]);
    await this.record("factor.unenrolled", caller, { factor_id: factor.id });
    if (factor.status === "verified") this.notify(caller.user, "factors_removed");
    return { id: factor.id };
  }

  /** The operator's view: an account's factors, without their secrets. */
  async listForAdmin(userId: string): Promise<Record<string, unknown>[]> {
    return (await this.deps.factors.listOfUser(userId)).map(presentForAdmin);
  }

  /** The operator removes a factor (a member who lost their phone); 404 when the account has no such factor. */
  async removeForAdmin(userId: string, factorId: string): Promise<Record<string, unknown>> {
    const [factor] = await this.remove(userId, [factorId]);
    if (!factor) throw new AppError("mfa_factor_not_found");
    await this.deps.audit.record({ action: "factor.removed_by_admin", detail: { user_id: userId, factor_id: factor.id } });
    if (factor.status === "verified") await this.notifyAccount(userId, "factors_removed");
    return presentForAdmin(factor);
  }

  /**
   * Removes every second factor of the account (an owner or the operator helping a member who lost
   * their phone): signing in needs the password alone again, and the member is told by e-mail.
   * Returns how many factors there were.
   */
  async resetAll(userId: string, resetBy: string): Promise<number> {
    const removed = await this.remove(userId, "all");
    await this.deps.audit.record({
      action: "factor.reset",
      detail: { user_id: userId, reset_by: resetBy, count: removed.length },
    });
    if (removed.some((factor) => factor.status === "verified")) await this.notifyAccount(userId, "factors_removed");
    return removed.length;
  }

  /**
   * Deletes the factors in one transaction; with no verified factor left, the account's sessions
   * are back at aal1 and its recovery codes are gone. Returns the factors deleted.
   */
  private remove(userId: string, factorIds: readonly string[] | "all"): Promise<MfaFactorRow[]> {
    return this.deps.sessionRows.transaction(async (trx) => {
      const removed = await this.deps.factors.delete(userId, factorIds, trx);
      const left = await this.deps.factors.listOfUser(userId, trx);
      if (removed.length > 0 && !left.some((factor) => factor.status === "verified")) {
        await this.deps.sessionRows.lowerAllToAal1(userId, this.now().toISOString(), trx);
        // With no second step left there is nothing to recover: a new one comes with new codes.
        await this.deps.recoveryCodes.delete(userId, trx);
      }
      return removed;
    });
  }

  private async notifyAccount(userId: string, kind: "factors_removed"): Promise<void> {
    const user = await this.deps.users.findById(userId);
    if (user) this.notify(user, kind);
  }

  private notify(
    user: UserRow,
    kind: "factor_added" | "factors_removed" | "factor_locked",
    type?: MfaFactorRow["factor_type"],
  ): void {
    const factor = type === "webauthn" ? "security key" : "authenticator app";
    sendNotice(this.deps.mailer, user, kind, { changedAt: this.now(), factor });
  }

  private async factorOf(caller: Caller, factorId: string): Promise<MfaFactorRow> {
    const factor = isUuid(factorId) ? await this.deps.factors.find(caller.user.id, factorId) : undefined;
    if (!factor) throw new AppError("mfa_factor_not_found");
    return factor;
  }

  private record(action: string, caller: Caller, detail: Record<string, unknown>, context?: RequestContext): Promise<void> {
    return recordByCaller(this.deps.audit, action, caller, detail, context);
  }
}

/**
 * The QR code as raw SVG, which clients put after `data:image/svg+xml;utf-8,` unencoded: a `#`
 * there would end the URL, so the colours are named instead of hex.
 */
async function qrCodeSvg(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: "svg", margin: 1, color: { dark: "#000000", light: "#ffffff" } });
  return svg.replaceAll("#000000", "black").replaceAll("#ffffff", "white");
}

/** A factor as the admin API shows it: without its secret, key or last accepted time step. */
function presentForAdmin({
  secret: _secret,
  webauthn_credential: _credential,
  user_id: _user,
  last_used_step: _step,
  ...factor
}: MfaFactorRow) {
  return factor;
}

function credentialOf(factor: MfaFactorRow): StoredCredential {
  if (!factor.webauthn_credential) throw new AppError("mfa_factor_not_found");
  return JSON.parse(factor.webauthn_credential) as StoredCredential;
}

/**
 * The factors whose codes are counted: a verified authenticator app, the second step a guesser
 * with the password aims at. A code typed while setting one up comes from the member holding the
 * secret, whose session needs no second step yet.
 */
function guarded(factor: MfaFactorRow): boolean {
  return factor.factor_type === "totp" && factor.status === "verified";
}

/** Whether the factor is locked by wrong codes typed since `windowStart`. */
function factorLocked(factor: MfaFactorRow, windowStart: Date): AppError {
  const minutes = minutesUntilUnlocked(factor, windowStart);
  return new AppError("mfa_factor_locked", {
    message: `Too many wrong codes were typed for this authenticator app. Try again in ${minutes} minutes, or ask an owner to reset it.`,
  });
}
