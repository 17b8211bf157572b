import type { UserRow } from "../../../db/schema";
import type { AuditLogRepository } from "../../audit";
import { type Mailer, type NoticeData, type NoticeKind, renderNotice } from "../../mail";
import type { Caller, RequestContext } from "./session.service";

/**
 * Tells an account's address, after the fact, of a change to how it signs in (ADR 0015): a notice
 * with no link or code, only to a proven address. Sent in the background: the change stands
 * whatever the mail server does (the mailer logs a failure); `onSent` runs once it was accepted.
 */
export function sendNotice(
  mailer: Mailer,
  to: Pick<UserRow, "email" | "email_confirmed_at">,
  kind: NoticeKind,
  details: Omit<NoticeData, "email">,
  onSent?: () => Promise<void>,
): void {
  if (!to.email_confirmed_at) return;
  const mail = renderNotice(kind, { email: to.email, ...details });
  void mailer
    .send({ to: to.email, ...mail })
    .then(onSent)
    .catch(() => undefined);
}

/** An audit entry for what a signed-in member did to their own account. */
export function recordByCaller(
  audit: AuditLogRepository,
  action: string,
  caller: Caller,
  detail: Record<string, unknown>,
  context?: RequestContext,
): Promise<void> {
  return audit.record({ action, actorId: caller.user.id, actorEmail: caller.user.email, ip: context?.ip ?? null, detail });
}
