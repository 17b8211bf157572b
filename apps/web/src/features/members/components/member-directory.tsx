import type { Member, MemberDirectory, PendingInvitation } from "@memory-box/contract";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { useRemoveMember, useResetSecondFactors, useRevokeInvitation, useSetRole } from "@/features/members/api/members";
import { formatDay, formatSince } from "@/lib/dates";
import { ApiError } from "@/lib/api-client";
import { notify } from "@/lib/notify";

export interface MemberDirectoryViewProps {
  directory: MemberDirectory;
  /** The signed-in member's account id, to mark "You". */
  yourId: string | undefined;
}

/**
 * Who is in. Owners see when each member joined, who invited them and when they were last
 * active, the pending invitations, and the actions; other members see names and roles only,
 * as the server answers them.
 */
export function MemberDirectoryView({ directory, yourId }: MemberDirectoryViewProps) {
  const owner = directory.your_role === "owner";
  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="members-heading" className="flex flex-col gap-2">
        <h2 id="members-heading" className="text-base font-semibold">
          Members ({directory.members.length})
        </h2>
        <ul className="flex flex-col divide-y rounded-lg border bg-card">
          {directory.members.map((member) => (
            <MemberRow key={member.id} member={member} you={member.id === yourId} canManage={owner} />
          ))}
        </ul>
      </section>
      {owner && directory.invitations.length > 0 && (
        <section aria-labelledby="invitations-heading" className="flex flex-col gap-2">
          <h2 id="invitations-heading" className="text-base font-semibold">
            Waiting to sign up ({directory.invitations.length})
          </h2>
          <ul className="flex flex-col divide-y rounded-lg border bg-card">
            {directory.invitations.map((invitation) => (
              <InvitationRow key={invitation.email} invitation={invitation} />
            ))}
          </ul>
        </section>
      )}
      {!owner && <p className="text-sm text-muted-foreground">Only an owner can invite or remove members.</p>}
    </div>
  );
}

function MemberRow({ member, you, canManage }: { member: Member; you: boolean; canManage: boolean }) {
  const name = member.display_name ?? member.email;
  const setRole = useSetRole();
  const remove = useRemoveMember();
  const resetSecondFactors = useResetSecondFactors();
  const refused = (action: string) => (error: Error) =>
    notify.error(
      "Error",
      error instanceof ApiError && error.status < 500 ? error.message : `Failed to ${action}. Please try again.`,
    );
  const details = [
    member.joined_at ? `Joined ${formatDay(member.joined_at)}` : null,
    member.invited_by ? `invited by ${member.invited_by}` : null,
    member.last_active_at === undefined
      ? null
      : member.last_active_at
        ? `active ${formatSince(member.last_active_at)}`
        : "signed out",
  ].filter(Boolean);

  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between" aria-label={name}>
      <div className="flex min-w-0 flex-col gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium break-words">{name}</span>
          {member.role === "owner" && <Badge variant="secondary">Owner</Badge>}
          {you && <Badge variant="outline">You</Badge>}
          {member.two_step_verification && <Badge variant="outline">Two-step on</Badge>}
        </div>
        <span className="text-sm break-all text-muted-foreground">{member.email}</span>
        {details.length > 0 && <span className="text-sm text-muted-foreground">{details.join(" · ")}</span>}
      </div>
      {canManage && (
        <div className="flex flex-wrap gap-2">
          {member.role === "owner" ? (
            <ConfirmDialog
              trigger={
                <Button variant="outline" size="sm" disabled={setRole.isPending}>
                  {you ? "Step down as owner" : "Make member"}
                </Button>
              }
              title={you ? "Step down as owner?" : `Make ${name} a member?`}
              description={
                you
                  ? "You will no longer be able to invite or remove members. Another owner can make you owner again."
                  : `${name} will no longer be able to invite or remove members.`
              }
              confirmLabel={you ? "Step down" : "Make member"}
              onConfirm={() =>
                setRole.mutate(
                  { id: member.id, role: "member" },
                  {
                    onSuccess: () => notify.success("Role changed", `${name} is a member now.`),
                    onError: refused("change the role"),
                  },
                )
              }
            />
          ) : (
            <ConfirmDialog
              trigger={
                <Button variant="outline" size="sm" disabled={setRole.isPending}>
                  Make owner
                </Button>
              }
              title={`Make ${name} an owner?`}
              description={`${name} will be able to invite and remove members, you included, and to name other owners.`}
              confirmLabel="Make owner"
              onConfirm={() =>
                setRole.mutate(
                  { id: member.id, role: "owner" },
                  {
                    onSuccess: () => notify.success("Role changed", `${name} is an owner now.`),
                    onError: refused("change the role"),
                  },
                )
              }
            />
          )}
          {member.two_step_verification && !you && (
            <ConfirmDialog
              trigger={
                <Button variant="outline" size="sm" disabled={resetSecondFactors.isPending}>
                  Turn off two-step
                </Button>
              }
              title={`Turn off ${name}'s two-step verification?`}
              description={`For when ${name} lost their authenticator app: signing in will need only their password, and they are told by email. They can add an app again in Settings.`}
              confirmLabel="Turn off"
              destructive
              onConfirm={() =>
                resetSecondFactors.mutate(member.id, {
                  onSuccess: () => notify.success("Two-step verification turned off", `${name} can sign in with their password.`),
                  onError: refused("turn off two-step verification"),
                })
              }
            />
          )}
          {!you && (
            <ConfirmDialog
              trigger={
                <Button variant="outline" size="sm" disabled={remove.isPending}>
                  Remove
                </Button>
              }
              title={`Remove ${name}?`}
              description={`${name} is signed out everywhere at once and can no longer open this Memory Box. The memories they added stay, under their name.`}
              confirmLabel="Remove"
              destructive
              onConfirm={() =>
                remove.mutate(member.id, {
                  onSuccess: () => notify.success("Member removed", `${name} no longer has access.`),
                  onError: refused("remove the member"),
                })
              }
            />
          )}
        </div>
      )}
    </li>
  );
}

function InvitationRow({ invitation }: { invitation: PendingInvitation }) {
  const revoke = useRevokeInvitation();
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between" aria-label={invitation.email}>
      <div className="flex min-w-0 flex-col gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium break-all">{invitation.email}</span>
          {invitation.role === "owner" && <Badge variant="secondary">Owner</Badge>}
        </div>
        <span className="text-sm text-muted-foreground">
          Invited {formatDay(invitation.invited_at)}
          {invitation.invited_by ? ` by ${invitation.invited_by}` : ""}
        </span>
      </div>
      <Button
        variant="outline"
        size="sm"
        disabled={revoke.isPending}
        onClick={() =>
          revoke.mutate(invitation.email, {
            onSuccess: () => notify.success("Invitation taken back", `${invitation.email} can no longer sign up.`),
            onError: () => notify.error("Error", "Failed to take the invitation back. Please try again."),
          })
        }
      >
        Take back
      </Button>
    </li>
  );
}
