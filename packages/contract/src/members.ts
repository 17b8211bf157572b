import { z } from "zod";

/** What a member may do: owners manage who is in; members keep memories. */
export const MemberRole = z.enum(["owner", "member"]);
export type MemberRole = z.infer<typeof MemberRole>;

/**
 * Someone who is in: their account and the invitation it used. Every member sees `id`, `email`,
 * `display_name` and `role`; the dates and who invited them are filled in for owners only.
 */
export const Member = z.object({
  id: z.uuid(),
  email: z.string(),
  display_name: z.string().nullable(),
  role: MemberRole,
  /** When the invitation was used, i.e. the account joined the collection. */
  joined_at: z.string().nullable().optional(),
  invited_at: z.string().optional(),
  /** The inviting member's display name (or address); "command line" for the operator; null when unknown. */
  invited_by: z.string().nullable().optional(),
  /** The newest sign-in or token refresh of any of their devices; null when none is signed in. */
  last_active_at: z.string().nullable().optional(),
  /** Whether signing in also asks for a code from an authenticator app (owners only). */
  two_step_verification: z.boolean().optional(),
});
export type Member = z.infer<typeof Member>;

/** An address on the list whose owner has not signed up yet. */
export const PendingInvitation = z.object({
  email: z.string(),
  role: MemberRole,
  invited_at: z.string(),
  invited_by: z.string().nullable(),
});
export type PendingInvitation = z.infer<typeof PendingInvitation>;

/** `GET /api/v1/members`: who is in; pending invitations are listed to owners only (empty for others). */
export const MemberDirectory = z.object({
  /** The caller's own role, so a client knows which actions to offer. */
  your_role: MemberRole,
  members: z.array(Member),
  invitations: z.array(PendingInvitation),
});
export type MemberDirectory = z.infer<typeof MemberDirectory>;

/** `POST /api/v1/members/invitations`. */
export const InvitationInput = z.object({ email: z.string().max(320) }).strict();
export type InvitationInput = z.infer<typeof InvitationInput>;

/** The answer to an invitation: the link to share, and whether it was e-mailed. */
export const InvitationSent = PendingInvitation.extend({
  /** Opens the Sign Up tab with the address filled in; grants nothing by itself. */
  link: z.string(),
  /** False when the server has no SMTP server: the link is to be passed on by hand. */
  emailed: z.boolean(),
});
export type InvitationSent = z.infer<typeof InvitationSent>;

/** `PUT /api/v1/members/:id/role`. */
export const RoleInput = z.object({ role: MemberRole }).strict();
export type RoleInput = z.infer<typeof RoleInput>;
