import { randomUUID } from "node:crypto";
import type { PasskeyRow, UserRow } from "../../../db/schema";
import { AppError } from "../../../errors";
import type { AuthAuditLog } from "../core/audit-log";
import type { AuthMailer } from "../core/auth-mailer";
import { recordByCaller, sendNotice } from "../core/account-notices";
import { displayNameFor } from "../core/account-rules";
import type { SessionJson } from "../core/auth.presenter";
import { describeUserAgent } from "../core/user-agent";
import { hasVerifiedFactor, provedSecondStepRecently, staleSecondStep } from "../core/factor-summary";
import type { PasskeysRepository } from "./passkeys.repository";
import { ceremonySeconds, type RelyingParty, type StoredCredential, userHandleOf } from "./relying-party";
import type { Caller, RequestContext, SessionService } from "../core/session.service";
import type { SessionsRepository } from "../core/sessions.repository";
import type { UsersRepository } from "../core/users.repository";
import { isUuid } from "../../../lib/uuid";

/** Passkeys one account may keep (phones, laptops, a password manager, a spare key…). */
const maxPasskeys = 10;
const maxNameLength = 120;

export interface CeremonyOptions<Options> {
  challenge_id: string;
  options: Options;
  expires_at: number;
}

/**
 * Passkeys (ADR 0025) on the routes and shapes of Supabase Auth's passkey API: a member registers
 * one while signed in, then signs in with it without an address or password; lists, renames and
 * removes them; the operator lists and removes them. Each ceremony's challenge answers once.
 */
export class PasskeysService {
  constructor(
    private readonly deps: {
      passkeys: PasskeysRepository;
      users: UsersRepository;
      sessionRows: SessionsRepository;
      sessions: SessionService;
      relyingParty: RelyingParty;
      audit: AuthAuditLog;
      /** Tells the member by e-mail whenever a passkey is added or removed. */
      mailer: AuthMailer;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /**
   * The creation options for a new passkey. With a second factor on the account, only a session
   * that proved it may add one: a passkey signs in at aal2, so a stolen password must not mint one.
   */
  async registrationOptions(caller: Caller) {
    await this.assertSecondFactorProven(caller);
    const existing = await this.deps.passkeys.listOfUser(caller.user.id);
    if (existing.length >= maxPasskeys) throw new AppError("too_many_passkeys");
    const options = await this.deps.relyingParty.registrationOptions(
      {
        id: caller.user.id,
        email: caller.user.email,
        displayName: displayNameFor(caller.user.email, JSON.parse(caller.user.user_metadata) as Record<string, unknown>),
      },
      existing.map(storedCredential),
      "passkey",
    );
    return this.saveChallenge(caller.user.id, "passkey_registration", options);
  }

  async verifyRegistration(caller: Caller, input: { challenge_id: string; credential: unknown }, context: RequestContext) {
    const challenge = await this.takeChallenge(input.challenge_id, "passkey_registration", caller.user.id);
    await this.assertSecondFactorProven(caller);
    const credential = await this.deps.relyingParty.verifyRegistration(input.credential, challenge, "passkey");
    const now = this.now().toISOString();
    const { browser, system } = describeUserAgent(context.userAgent);
    const passkey: PasskeyRow = {
      id: randomUUID(),
      user_id: caller.user.id,
      credential_id: credential.id,
      public_key: credential.publicKey,
      sign_count: credential.counter,
      transports: JSON.stringify(credential.transports),
      // Named after where it was made, so a list of several tells them apart; the member can rename it.
      friendly_name: [browser, system].filter(Boolean).join(" on ") || "Passkey",
      created_at: now,
      updated_at: now,
      last_used_at: null,
    };
    await this.deps.sessionRows.transaction(async (trx) => {
      if ((await this.deps.passkeys.listOfUser(caller.user.id, trx)).length >= maxPasskeys)
        throw new AppError("too_many_passkeys");
      if (!(await this.deps.passkeys.insert(passkey, trx))) throw new AppError("webauthn_credential_exists");
    });
    await this.record("passkey.added", caller, { passkey_id: passkey.id }, context);
    this.notify(caller.user, "passkey_added");
    return presentPasskey(passkey);
  }

  /** Options any passkey of this site may answer: the browser offers the member's own. */
  async authenticationOptions() {
    const options = await this.deps.relyingParty.authenticationOptions([], "passkey");
    return this.saveChallenge(null, "passkey_authentication", options);
  }

  /**
   * Signs in with a passkey's assertion. Every refusal after the challenge is
   * `webauthn_verification_failed`, so the answer never tells whether a credential is known.
   */
  async verifyAuthentication(
    input: { challenge_id: string; credential: unknown },
    context: RequestContext,
  ): Promise<SessionJson> {
    const challenge = await this.takeChallenge(input.challenge_id, "passkey_authentication", null);
    const failed = new AppError("webauthn_verification_failed", { message: "This passkey is not registered here" });
    const passkey = await this.deps.passkeys.findByCredentialId(this.deps.relyingParty.credentialIdOf(input.credential));
    const handle = await userHandleOf(input.credential);
    if (!passkey || (handle !== undefined && handle !== passkey.user_id)) {
      await this.deps.audit.record({ action: "passkey.sign_in_failed", ip: context.ip });
      throw failed;
    }
    const newCounter = await this.deps.relyingParty.verifyAuthentication(
      input.credential,
      challenge,
      storedCredential(passkey),
      "passkey",
    );
    const user = await this.deps.users.findById(passkey.user_id);
    if (!user) throw failed;
    await this.deps.sessions.assertMaySignIn(user);
    // The passkey verified the person on their device: with a second factor on the account, that is it.
    const aal = hasVerifiedFactor(user.mfa_factors) ? "aal2" : "aal1";
    const now = this.now().toISOString();
    const session = await this.deps.sessionRows.transaction(async (trx) => {
      if (!(await this.deps.passkeys.recordUse(passkey, newCounter, now, trx))) throw failed;
      return this.deps.sessions.start(user, "passkey", context, trx, aal);
    });
    await this.deps.audit.record({
      action: "user.signed_in",
      actorId: user.id,
      actorEmail: user.email,
      ip: context.ip,
      detail: { method: "passkey", passkey_id: passkey.id },
    });
    return session;
  }

  async list(caller: Caller) {
    return (await this.deps.passkeys.listOfUser(caller.user.id)).map(presentPasskey);
  }

  async rename(caller: Caller, passkeyId: string, friendlyName: string) {
    const name = friendlyName.trim();
    if (name === "" || name.length > maxNameLength)
      throw new AppError("validation_failed", { message: `A passkey's name needs 1 to ${maxNameLength} characters` });
    const renamed = isUuid(passkeyId)
      ? await this.deps.passkeys.rename(caller.user.id, passkeyId, name, this.now().toISOString())
      : undefined;
    if (!renamed) throw new AppError("webauthn_credential_not_found");
    return presentPasskey(renamed);
  }

  /**
   * Removing one, like adding one, needs the second factor proven when the account has one, and
   * proven in the last ten minutes.
   */
  async remove(caller: Caller, passkeyId: string): Promise<void> {
    await this.assertSecondFactorProven(caller);
    if (hasVerifiedFactor(caller.user.mfa_factors) && !provedSecondStepRecently(caller.claims.amr, this.now()))
      throw staleSecondStep();
    const [removed] = isUuid(passkeyId) ? await this.deps.passkeys.delete(caller.user.id, [passkeyId]) : [];
    if (!removed) throw new AppError("webauthn_credential_not_found");
    await this.record("passkey.removed", caller, { passkey_id: removed.id });
    this.notify(caller.user, "passkey_removed");
  }

  /** The operator's view of an account's passkeys. */
  async listForAdmin(userId: string) {
    return (await this.deps.passkeys.listOfUser(userId)).map(presentPasskey);
  }

  async removeForAdmin(userId: string, passkeyId: string): Promise<void> {
    const [removed] = isUuid(passkeyId) ? await this.deps.passkeys.delete(userId, [passkeyId]) : [];
    if (!removed) throw new AppError("webauthn_credential_not_found");
    await this.deps.audit.record({ action: "passkey.removed_by_admin", detail: { user_id: userId, passkey_id: removed.id } });
    const user = await this.deps.users.findById(userId);
    if (user) this.notify(user, "passkey_removed");
  }

  private async saveChallenge<Options extends { challenge: string }>(
    userId: string | null,
    purpose: "passkey_registration" | "passkey_authentication",
    options: Options,
  ): Promise<CeremonyOptions<Options>> {
    const now = this.now();
    const expiresAt = new Date(now.getTime() + ceremonySeconds * 1000);
    const id = randomUUID();
    await this.deps.passkeys.addChallenge({
      id,
      user_id: userId,
      purpose,
      challenge: options.challenge,
      created_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
    });
    return { challenge_id: id, options, expires_at: Math.floor(expiresAt.getTime() / 1000) };
  }

  /** The challenge a ceremony answers, taken so that it cannot be answered again. */
  private async takeChallenge(
    id: string,
    purpose: "passkey_registration" | "passkey_authentication",
    userId: string | null,
  ): Promise<string> {
    const challenge = isUuid(id) ? await this.deps.passkeys.takeChallenge(id, purpose, userId) : undefined;
    if (!challenge) throw new AppError("webauthn_challenge_not_found");
    if (Date.parse(challenge.expires_at) < this.now().getTime()) throw new AppError("webauthn_challenge_expired");
    return challenge.challenge;
  }

  private async assertSecondFactorProven(caller: Caller): Promise<void> {
    if (caller.claims.aal !== "aal2" && hasVerifiedFactor(caller.user.mfa_factors))
      throw new AppError("insufficient_aal", { text: { id: "errorText.passkeysSecondStep" } });
  }

  private notify(user: UserRow, kind: "passkey_added" | "passkey_removed"): void {
    sendNotice(this.deps.mailer, user, kind, { changedAt: this.now() });
  }

  private record(action: string, caller: Caller, detail: Record<string, unknown>, context?: RequestContext): Promise<void> {
    return recordByCaller(this.deps.audit, action, caller, detail, context);
  }
}

export function storedCredential(
  passkey: Pick<PasskeyRow, "credential_id" | "public_key" | "sign_count" | "transports">,
): StoredCredential {
  return {
    id: passkey.credential_id,
    publicKey: passkey.public_key,
    counter: passkey.sign_count,
    transports: JSON.parse(passkey.transports) as string[],
  };
}

/** A passkey as its owner and the operator see it: never its key material. */
function presentPasskey(passkey: PasskeyRow) {
  return {
    id: passkey.id,
    friendly_name: passkey.friendly_name,
    created_at: passkey.created_at,
    ...(passkey.last_used_at ? { last_used_at: passkey.last_used_at } : {}),
  };
}
