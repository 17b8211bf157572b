import type { Transaction } from "kysely";
import type { Database, InvitationRow } from "../../../db/schema";

/*
 * Who is in, as auth asks it. Auth declares what it needs of the invitation list and app.ts hands it
 * the invitations module's service; auth itself never imports that module, so the invitations
 * module (and the member door above auth) may depend on auth without a circle.
 */

/** Whether an address may have an account (sign-in, refresh, every member check). */
export interface InvitationCheck {
  isInvited(email: string): Promise<boolean>;
  /** Whether the address is an owner's: an owner's own new address needs no invitation (ADR 0067). */
  isOwner(email: string): Promise<boolean>;
}

/** What the sign-up and address-change flows record on the list. */
export interface InvitationLedger extends InvitationCheck {
  markUsed(email: string, userId: string, trx?: Transaction<Database>): Promise<void>;
  transferAddress(oldEmail: string, newEmail: string, userId: string, trx: Transaction<Database>): Promise<void>;
}

/** What the admin API does on the list: accounts it creates or invites go on it, an address change moves the invitation. */
export interface InvitationAdministration extends InvitationLedger {
  get(email: string): Promise<Pick<InvitationRow, "role"> | undefined>;
  invite(emails: string[], invitedBy: string | null): Promise<unknown>;
  setRole(email: string, role: InvitationRow["role"], changedBy: string | null): Promise<void>;
  revoke(email: string, revokedBy: string | null): Promise<unknown>;
}
