import type { UserRow } from "../../../db/schema";
import type { AuthAuditLog } from "./audit-log";
import type { AuthMailer, NoticeKind, NoticeMail } from "./auth-mailer";
import type { Caller, RequestContext } from "./session.service";

/**
 * Tells an account's address, after the fact, of a change to how it signs in (ADR 0015): a notice
 * with no link or code, only to a proven address. Queued in the background (the mail outbox, ADR
 * 0077): the change stands whatever the mail server does; `onSent` runs once the notice is queued.
 */
export function sendNotice(
  mailer: AuthMailer,
  to: Pick<UserRow, "email" | "email_confirmed_at" | "locale">,
  kind: NoticeKind,
  details: Omit<NoticeMail, "email">,
  onSent?: () => Promise<void>,
): void {
  if (!to.email_confirmed_at) return;
  void mailer
    .sendNotice(kind, { email: to.email, locale: to.locale, ...details })
    .then(onSent)
    .catch(() => undefined);
}

/** An audit entry for what a signed-in member did to their own account. */
export function recordByCaller(
  audit: AuthAuditLog,
  action: string,
  caller: Caller,
  detail: Record<string, unknown>,
  context?: RequestContext,
): Promise<void> {
  return audit.record({ action, actorId: caller.user.id, actorEmail: caller.user.email, ip: context?.ip ?? null, detail });
}

/** A change to an account that its address is told of afterwards. */
export type AnnouncedChange = { kind: "password_changed" } | { kind: "email_changed"; newEmail: string };

/**
 * What follows a change to an account, for the member-facing flows and the admin API alike: open
 * screens learn a new display name, and the account's address learns of a new password or address.
 */
export class AccountChanges {
  constructor(
    private readonly deps: {
      mailer: AuthMailer;
      audit: AuthAuditLog;
      /** Told after a member's display name changed, so open screens can show the new one. */
      onProfileChanged?: (userId: string) => void;
      now?: () => Date;
    },
  ) {}

  profileChanged(userId: string): void {
    this.deps.onProfileChanged?.(userId);
  }

  /**
   * Tells an account's address, after the fact, that its password or its address changed (ADR
   * 0015): a notice with no link or code, to the address the account had before the change. Only
   * a proven address is told. Sent in the background: the change stands whatever the mail server
   * does (the mailer logs a failure).
   */
  announce(before: UserRow, change: AnnouncedChange): void {
    sendNotice(
      this.deps.mailer,
      before,
      change.kind,
      { changedAt: this.deps.now?.() ?? new Date(), ...(change.kind === "email_changed" ? { newEmail: change.newEmail } : {}) },
      () => this.deps.audit.record({ action: `mail.${change.kind}_notice_sent`, actorId: before.id, actorEmail: before.email }),
    );
  }
}
