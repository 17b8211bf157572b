import type { Transaction } from "kysely";
import type { Database } from "../../../db/schema";

/*
 * What auth asks of the audit log. Auth declares it and app.ts hands it the audit module's
 * repository; auth itself never imports the audit module (ADR 0037).
 */

export interface AuthAuditEvent {
  /** What happened, as `noun.verb`: `user.signed_up`, `token.refreshed`, … */
  action: string;
  actorId?: string | null;
  actorEmail?: string | null;
  ip?: string | null;
  /** Extra facts; never a password, token or key. */
  detail?: Record<string, unknown>;
}

export interface AuthAuditLog {
  /** Appends an entry; with `executor`, it commits (or not) with that transaction. */
  record(event: AuthAuditEvent, now?: Date, executor?: Transaction<Database>): Promise<void>;
}
