import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "../../db/schema";

export interface AuditEvent {
  /** What happened, as `noun.verb`: `user.signed_up`, `token.refreshed`, `invitation.revoked`, … */
  action: string;
  actorId?: string | null;
  actorEmail?: string | null;
  ip?: string | null;
  /** Extra facts; never a password, token or key. */
  detail?: Record<string, unknown>;
}

/** Every auth event, append-only. */
export class AuditLogRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** With `executor`, the entry commits (or not) with the caller's transaction. */
  async record(event: AuditEvent, now = new Date(), executor: Kysely<Database> | Transaction<Database> = this.db): Promise<void> {
    await executor
      .insertInto("audit_log")
      .values({
        id: randomUUID(),
        created_at: now.toISOString(),
        action: event.action,
        actor_id: event.actorId ?? null,
        actor_email: event.actorEmail ?? null,
        ip: event.ip ?? null,
        detail: event.detail ? JSON.stringify(event.detail) : null,
      })
      .execute();
  }

  /** Newest first. */
  async list(limit = 100): Promise<{ action: string; actor_email: string | null; created_at: string; detail: string | null }[]> {
    return this.db.selectFrom("audit_log").select(["action", "actor_email", "created_at", "detail"]).orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();
  }
}
