import type { InvitationSent, Member, MemberDirectory, MemberRole } from "@memory-box/contract";
import { AppError } from "../../errors";
import { messagesFor } from "../../lib/languages";
import { hasVerifiedFactor } from "../auth";
import { type Mailer, renderInvitation } from "../mail";
import { type InvitationCaller, type InvitationsService, normalizeEmail } from "./invitations.service";
import type { MemberRecord, MembersRepository } from "./members.repository";

export interface MembersServiceDeps {
  members: MembersRepository;
  invitations: InvitationsService;
  mailer: Mailer;
  /** False when mail goes to the outbox folder: the invitation link is then shown to copy. */
  mailLeavesTheServer: boolean;
  /** Where the web app is served; invitation links open its sign-up form. */
  siteUrl: string;
  log: { error(obj: object, msg: string): void };
  /** Removes every second factor of an account and tells its owner by e-mail; returns how many there were. */
  resetSecondFactors: (userId: string, resetBy: string) => Promise<number>;
}

/** What `invited_by` holds when the operator's command line invited the address. */
const commandLine = "cli";

/**
 * Members and owners (ADR 0021): everyone sees who is in; owners invite, revoke, remove and name
 * other owners. Every rule is checked here, whatever client calls.
 */
export class MembersService {
  constructor(private readonly deps: MembersServiceDeps) {}

  async directory(caller: InvitationCaller): Promise<MemberDirectory> {
    const role = await this.roleOf(caller);
    const records = await this.deps.members.list();
    if (role !== "owner") {
      const members = records.map(({ id, email, display_name, role: memberRole }) => ({
        id,
        email,
        display_name,
        role: memberRole,
      }));
      return { your_role: role, members, invitations: [] };
    }
    const pending = await this.deps.members.pending();
    return {
      your_role: role,
      members: records.map(presentMember),
      invitations: pending.map((row) => ({
        email: row.email,
        role: row.role,
        invited_at: row.invited_at,
        invited_by: inviterName(row.invited_by, row.inviter_name),
      })),
    };
  }

  /**
   * Puts the address on the list and e-mails it a link to the sign-up form. An address invited
   * before and not joined yet gets the link again; a member's address is refused.
   */
  async invite(caller: InvitationCaller, rawEmail: string): Promise<InvitationSent> {
    await this.requireOwner(caller);
    const email = normalizeEmail(rawEmail);
    let invitation = await this.deps.invitations.get(email);
    if (invitation?.used_at) throw new AppError("already_member", { message: `${email} is already a member.` });
    if (!invitation) {
      await this.deps.invitations.invite([email], caller.userId);
      invitation = await this.deps.invitations.get(email);
      if (!invitation) throw new AppError("invitation_not_found");
    }
    const link = `${this.deps.siteUrl}/auth?view=signup&email=${encodeURIComponent(email)}`;
    const callerName = (await this.deps.members.find(caller.userId))?.display_name ?? caller.email;
    return {
      email,
      role: invitation.role,
      invited_at: invitation.invited_at,
      invited_by: inviterName(invitation.invited_by, invitation.invited_by === caller.userId ? callerName : null),
      link,
      emailed: await this.mailInvitation(email, link, callerName),
    };
  }

  /** Takes a pending invitation back; a member's is refused (removing the member does that). */
  async revokeInvitation(caller: InvitationCaller, rawEmail: string): Promise<void> {
    await this.requireOwner(caller);
    const email = normalizeEmail(rawEmail);
    const invitation = await this.deps.invitations.get(email);
    if (invitation?.used_at)
      throw new AppError("already_member", { message: `${email} is a member now: remove the member instead.` });
    await this.deps.invitations.revoke(email, caller.userId);
  }

  /**
   * Ends a member's access: their invitation goes and every session with it, at once. Their account
   * and memories stay, still under their display name. The last owner cannot be removed.
   */
  async remove(caller: InvitationCaller, userId: string): Promise<void> {
    await this.requireOwner(caller);
    const member = await this.memberById(userId);
    await this.deps.invitations.revoke(member.email, caller.userId);
  }

  /** For a member who lost their authenticator app: signing in needs only their password again. */
  async resetSecondFactors(caller: InvitationCaller, userId: string): Promise<void> {
    await this.requireOwner(caller);
    const member = await this.memberById(userId);
    await this.deps.resetSecondFactors(member.id, caller.userId);
  }

  async setRole(caller: InvitationCaller, userId: string, role: MemberRole): Promise<Member> {
    await this.requireOwner(caller);
    const member = await this.memberById(userId);
    await this.deps.invitations.setRole(member.email, role, caller.userId);
    return presentMember(await this.memberById(userId));
  }

  private async memberById(userId: string): Promise<MemberRecord> {
    const member = await this.deps.members.find(userId);
    if (!member) throw new AppError("member_not_found");
    return member;
  }

  private async roleOf(caller: InvitationCaller): Promise<MemberRole> {
    return (await this.deps.invitations.get(caller.email))?.role ?? "member";
  }

  /** Throws 403 `owner_only` unless the caller is an owner. */
  async requireOwner(caller: InvitationCaller): Promise<void> {
    if ((await this.roleOf(caller)) !== "owner") throw new AppError("owner_only");
  }

  /** True when the mail was handed to the SMTP server; a failure is logged and the link still shown. */
  private async mailInvitation(email: string, link: string, inviter: string): Promise<boolean> {
    try {
      // The invited person has no account, so no choice: the language the inviting request asked for.
      await this.deps.mailer.send({
        to: email,
        link,
        ...renderInvitation({ email, link, inviterName: inviter }, messagesFor(undefined)),
      });
      return this.deps.mailLeavesTheServer;
    } catch (error) {
      this.deps.log.error({ err: error, to: email }, "invitation e-mail not sent");
      return false;
    }
  }
}

function presentMember(record: MemberRecord): Member {
  return {
    id: record.id,
    email: record.email,
    display_name: record.display_name,
    role: record.role,
    joined_at: record.joined_at,
    invited_at: record.invited_at,
    invited_by: inviterName(record.invited_by, record.inviter_name),
    last_active_at: record.last_active_at,
    two_step_verification: hasVerifiedFactor(record.mfa_factors),
  };
}

function inviterName(invitedBy: string | null, displayName: string | null): string | null {
  if (displayName !== null) return displayName;
  return invitedBy === commandLine ? "command line" : null;
}
