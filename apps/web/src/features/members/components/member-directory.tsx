import type { WebMessageId } from "@memory-box/messages/web";
import type { Member, MemberDirectory, PendingInvitation } from "@memory-box/contract";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { useRemoveMember, useResetSecondFactors, useRevokeInvitation, useSetRole } from "@/features/members/api/members";
import { formatDay, formatSince } from "@/lib/dates";
import { ApiError } from "@/lib/api-client";
import { notify } from "@/lib/notify";
import { useIntl } from "@/lib/intl";

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
  const intl = useIntl();
  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="members-heading" className="flex flex-col gap-2">
        <h2 id="members-heading" className="text-base font-semibold">
          {intl.formatMessage({ id: "members.heading" }, { count: directory.members.length })}
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
            {intl.formatMessage({ id: "members.waiting" }, { count: directory.invitations.length })}
          </h2>
          <ul className="flex flex-col divide-y rounded-lg border bg-card">
            {directory.invitations.map((invitation) => (
              <InvitationRow key={invitation.email} invitation={invitation} />
            ))}
          </ul>
        </section>
      )}
      {!owner && <p className="text-sm text-muted-foreground">{intl.formatMessage({ id: "members.onlyOwner" })}</p>}
    </div>
  );
}

function MemberRow({ member, you, canManage }: { member: Member; you: boolean; canManage: boolean }) {
  const name = member.display_name ?? member.email;
  const setRole = useSetRole();
  const remove = useRemoveMember();
  const resetSecondFactors = useResetSecondFactors();
  const intl = useIntl();
  const refused = (failed: WebMessageId) => (error: Error) =>
    notify.error(
      intl.formatMessage({ id: "toast.error" }),
      error instanceof ApiError && error.status < 500 ? error.message : intl.formatMessage({ id: failed }),
    );
  const details = [
    member.joined_at ? intl.formatMessage({ id: "members.joined" }, { date: formatDay(member.joined_at) }) : null,
    member.invited_by ? intl.formatMessage({ id: "members.invitedBy" }, { name: member.invited_by }) : null,
    member.last_active_at === undefined
      ? null
      : member.last_active_at
        ? intl.formatMessage({ id: "members.active" }, { since: formatSince(member.last_active_at) })
        : intl.formatMessage({ id: "members.signedOut" }),
  ].filter(Boolean);

  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between" aria-label={name}>
      <div className="flex min-w-0 flex-col gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <bdi className="font-medium break-words">{name}</bdi>
          {member.role === "owner" && <Badge variant="secondary">{intl.formatMessage({ id: "members.badge.owner" })}</Badge>}
          {you && <Badge variant="outline">{intl.formatMessage({ id: "members.badge.you" })}</Badge>}
          {member.two_step_verification && <Badge variant="outline">{intl.formatMessage({ id: "members.badge.twoStep" })}</Badge>}
        </div>
        <span className="text-sm break-all text-muted-foreground">
          <bdi>{member.email}</bdi>
        </span>
        {details.length > 0 && <span className="text-sm text-muted-foreground">{details.join(" · ")}</span>}
      </div>
      {canManage && (
        <div className="flex flex-wrap gap-2">
          {member.role === "owner" ? (
            <ConfirmDialog
              trigger={
                <Button variant="outline" size="sm" disabled={setRole.isPending}>
                  {you ? intl.formatMessage({ id: "members.stepDown" }) : intl.formatMessage({ id: "members.makeMember" })}
                </Button>
              }
              title={
                you
                  ? intl.formatMessage({ id: "members.stepDown.title" })
                  : intl.formatMessage({ id: "members.makeMember.title" }, { name })
              }
              description={
                you
                  ? intl.formatMessage({ id: "members.stepDown.description" })
                  : intl.formatMessage({ id: "members.makeMember.description" }, { name })
              }
              confirmLabel={
                you ? intl.formatMessage({ id: "members.stepDown.confirm" }) : intl.formatMessage({ id: "members.makeMember" })
              }
              onConfirm={() =>
                setRole.mutate(
                  { id: member.id, role: "member" },
                  {
                    onSuccess: () =>
                      notify.success(
                        intl.formatMessage({ id: "members.roleChanged" }),
                        intl.formatMessage({ id: "members.nowMember" }, { name }),
                      ),
                    onError: refused("members.failed.role"),
                  },
                )
              }
            />
          ) : (
            <ConfirmDialog
              trigger={
                <Button variant="outline" size="sm" disabled={setRole.isPending}>
                  {intl.formatMessage({ id: "members.makeOwner" })}
                </Button>
              }
              title={intl.formatMessage({ id: "members.makeOwner.title" }, { name })}
              description={intl.formatMessage({ id: "members.makeOwner.description" }, { name })}
              confirmLabel={intl.formatMessage({ id: "members.makeOwner" })}
              onConfirm={() =>
                setRole.mutate(
                  { id: member.id, role: "owner" },
                  {
                    onSuccess: () =>
                      notify.success(
                        intl.formatMessage({ id: "members.roleChanged" }),
                        intl.formatMessage({ id: "members.nowOwner" }, { name }),
                      ),
                    onError: refused("members.failed.role"),
                  },
                )
              }
            />
          )}
          {member.two_step_verification && !you && (
            <ConfirmDialog
              trigger={
                <Button variant="outline" size="sm" disabled={resetSecondFactors.isPending}>
                  {intl.formatMessage({ id: "members.twoStepOff" })}
                </Button>
              }
              title={intl.formatMessage({ id: "members.twoStepOff.title" }, { name })}
              description={intl.formatMessage({ id: "members.twoStepOff.description" }, { name })}
              confirmLabel={intl.formatMessage({ id: "members.twoStepOff.confirm" })}
              destructive
              onConfirm={() =>
                resetSecondFactors.mutate(member.id, {
                  onSuccess: () =>
                    notify.success(
                      intl.formatMessage({ id: "members.twoStepOff.done" }),
                      intl.formatMessage({ id: "members.twoStepOff.doneDetail" }, { name }),
                    ),
                  onError: refused("members.failed.twoStep"),
                })
              }
            />
          )}
          {!you && (
            <ConfirmDialog
              trigger={
                <Button variant="outline" size="sm" disabled={remove.isPending}>
                  {intl.formatMessage({ id: "members.remove" })}
                </Button>
              }
              title={intl.formatMessage({ id: "members.remove.title" }, { name })}
              description={intl.formatMessage({ id: "members.remove.description" }, { name })}
              confirmLabel={intl.formatMessage({ id: "members.remove" })}
              destructive
              onConfirm={() =>
                remove.mutate(member.id, {
                  onSuccess: () =>
                    notify.success(
                      intl.formatMessage({ id: "members.removed" }),
                      intl.formatMessage({ id: "members.removedDetail" }, { name }),
                    ),
                  onError: refused("members.failed.remove"),
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
  const intl = useIntl();
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between" aria-label={invitation.email}>
      <div className="flex min-w-0 flex-col gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium break-all">
            <bdi>{invitation.email}</bdi>
          </span>
          {invitation.role === "owner" && <Badge variant="secondary">{intl.formatMessage({ id: "members.badge.owner" })}</Badge>}
        </div>
        <span className="text-sm text-muted-foreground">
          {invitation.invited_by
            ? intl.formatMessage(
                { id: "members.invitedOnBy" },
                { date: formatDay(invitation.invited_at), name: invitation.invited_by },
              )
            : intl.formatMessage({ id: "members.invited" }, { date: formatDay(invitation.invited_at) })}
        </span>
      </div>
      <Button
        variant="outline"
        size="sm"
        disabled={revoke.isPending}
        onClick={() =>
          revoke.mutate(invitation.email, {
            onSuccess: () =>
              notify.success(
                intl.formatMessage({ id: "members.takenBack" }),
                intl.formatMessage({ id: "members.takenBackDetail" }, { email: invitation.email }),
              ),
            onError: () =>
              notify.error(intl.formatMessage({ id: "toast.error" }), intl.formatMessage({ id: "members.takeBack.failed" })),
          })
        }
      >
        {intl.formatMessage({ id: "members.takeBack" })}
      </Button>
    </li>
  );
}
