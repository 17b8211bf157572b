import type { Transaction } from "kysely";
import type { Database, InvitationRow } from "../../db/schema";
import { AppError } from "../../errors";
import { parseEmail } from "../../lib/email";
import type { AuditLogRepository } from "../audit";
import type { Executor, InvitationsRepository, Role } from "./invitations.repository";

export interface InviteResult {
  email: string;
  /** False when the address was already on the list. */
  added: boolean;
}

/** A signed-in member, as far as invitations care. */
export interface InvitationCaller {
  userId: string;
  email: string;
}

/** Trims and lower-cases an address; throws 400 `invalid_email` when it is not one. */
export function normalizeEmail(raw: string): string {
  const email = parseEmail(raw);
  if (email === null) throw new AppError("invalid_email", { message: `"${raw.trim()}" is not a valid e-mail address` });
  return email;
}

/** Who may have an account: adding, listing and revoking invitations, and recording their use. */
export class InvitationsService {
  constructor(
    private readonly deps: {
      invitations: InvitationsRepository;
      audit: AuditLogRepository;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** Adds the addresses in the order given. One invalid address rejects the whole batch, so nothing is half-done. */
  async invite(emails: string[], invitedBy: string | null, role: Role = "member"): Promise<InviteResult[]> {
    const normalized = [...new Set(emails.map(normalizeEmail))];
    const now = this.now();
    const added = new Set(await this.deps.invitations.add(normalized, invitedBy, now.toISOString(), role));
    for (const email of added) {
      await this.deps.audit.record({ action: "invitation.created", detail: { email, invitedBy, role } }, now);
    }
    return normalized.map((email) => ({ email, added: added.has(email) }));
  }

  get(rawEmail: string): Promise<InvitationRow | undefined> {
    return this.deps.invitations.get(normalizeEmail(rawEmail));
  }

  /**
   * Gives the address's invitation another role. Taking the role from the last owner who has joined
   * is refused with 409 `last_owner`: someone must always be able to invite.
   */
  async setRole(rawEmail: string, role: Role, changedBy: string | null): Promise<void> {
    const email = normalizeEmail(rawEmail);
    const changed = await this.deps.invitations.transaction(async (trx) => {
      const invitation = await this.deps.invitations.get(email, trx);
      if (!invitation) throw new AppError("invitation_not_found", { message: `${email} is not on the invitation list` });
      if (invitation.role === role) return false;
      if (role !== "owner") await this.keepAnOwner(email, trx);
      await this.deps.invitations.setRole(email, role, trx);
      return true;
    });
    if (changed) await this.deps.audit.record({ action: "member.role_changed", detail: { email, role, changedBy } }, this.now());
  }

  list(): Promise<InvitationRow[]> {
    return this.deps.invitations.list();
  }

  /**
   * Takes the address off the list and ends the member's sessions in one transaction, so no
   * session outlives the invitation. The account itself stays; it simply cannot sign in.
   */
  async revoke(rawEmail: string, revokedBy: string | null): Promise<{ email: string; sessionsEnded: number }> {
    const email = normalizeEmail(rawEmail);
    const sessionsEnded = await this.deps.invitations.transaction(async (trx) => {
      await this.keepAnOwner(email, trx);
      if (!(await this.deps.invitations.remove(email, trx)))
        throw new AppError("invitation_not_found", { message: `${email} is not on the invitation list` });
      return this.deps.invitations.deleteSessionsOfUserWithEmail(email, trx);
    });
    await this.deps.audit.record({ action: "invitation.revoked", detail: { email, revokedBy, sessionsEnded } }, this.now());
    return { email, sessionsEnded };
  }

  /** Refuses, inside the transaction that would do it, a change that leaves no joined owner but `email`. */
  private async keepAnOwner(email: string, trx: Executor): Promise<void> {
    const owners = await this.deps.invitations.joinedOwners(trx);
    if (owners.length === 1 && owners[0] === email) throw new AppError("last_owner");
  }

  /** Answers false for anything that is not an address: callers want a yes or no, not an error. */
  async isInvited(rawEmail: string): Promise<boolean> {
    const email = parseEmail(rawEmail);
    return email !== null && (await this.deps.invitations.get(email)) !== undefined;
  }

  async isOwner(rawEmail: string): Promise<boolean> {
    const email = parseEmail(rawEmail);
    return email !== null && (await this.deps.invitations.get(email))?.role === "owner";
  }

  /** Records that the account `userId` used the invitation; a no-op once used or when not invited. */
  async markUsed(rawEmail: string, userId: string, trx?: Transaction<Database>): Promise<void> {
    await this.deps.invitations.markUsed(normalizeEmail(rawEmail), userId, this.now().toISOString(), trx);
  }

  /**
   * A member's address changed (a confirmed e-mail change): the invitation goes with it, role
   * included, so the old address cannot be used to sign up a new account. Inside the caller's
   * transaction, which also writes the new address.
   */
  async transferAddress(rawOldEmail: string, rawNewEmail: string, userId: string, trx: Transaction<Database>): Promise<void> {
    const [oldEmail, newEmail] = [normalizeEmail(rawOldEmail), normalizeEmail(rawNewEmail)];
    const old = await this.deps.invitations.get(oldEmail, trx);
    // An owner's own new address needs no invitation (ADR 0067): her invitation moves to it.
    if (old && oldEmail !== newEmail && !(await this.deps.invitations.get(newEmail, trx))) {
      await this.deps.invitations.rename(oldEmail, newEmail, trx);
      return;
    }
    await this.deps.invitations.markUsed(newEmail, userId, this.now().toISOString(), trx);
    if (!old || oldEmail === newEmail) return;
    if (old.role === "owner") await this.deps.invitations.setRole(newEmail, "owner", trx);
    await this.deps.invitations.remove(oldEmail, trx);
  }

  /** Members may mark only their own address, so no one can spend another person's invitation. */
  async markOwnAddressUsed(caller: InvitationCaller, rawEmail: string): Promise<void> {
    if (normalizeEmail(rawEmail) !== caller.email.trim().toLowerCase())
      throw new AppError("forbidden", { message: "You can only mark your own address" });
    await this.markUsed(caller.email, caller.userId);
  }
}
