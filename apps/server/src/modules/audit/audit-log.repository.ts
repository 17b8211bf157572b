import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import { preparedQuery } from "../../db/prepared-query";
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
  /** Built once: every sign-in and token refresh writes an entry. */
  private readonly insert;

  constructor(private readonly db: Kysely<Database>) {
    this.insert = preparedQuery(
      (
        id: string,
        createdAt: string,
        action: string,
        actorId: string | null,
        actorEmail: string | null,
        ip: string | null,
        detail: string | null,
      ) =>
        db
          .insertInto("audit_log")
          .values({ id, created_at: createdAt, action, actor_id: actorId, actor_email: actorEmail, ip, detail }),
    );
  }

  /** With `executor`, the entry commits (or not) with the caller's transaction. */
  async record(event: AuditEvent, now = new Date(), executor: Kysely<Database> | Transaction<Database> = this.db): Promise<void> {
    const detail = event.detail ? JSON.stringify(event.detail) : null;
    await this.insert(
      executor,
      randomUUID(),
      now.toISOString(),
      event.action,
      event.actorId ?? null,
      event.actorEmail ?? null,
      event.ip ?? null,
      detail,
    );
  }

  /** Newest first. */
  async list(limit = 100): Promise<{ action: string; actor_email: string | null; created_at: string; detail: string | null }[]> {
    return this.db
      .selectFrom("audit_log")
      .select(["action", "actor_email", "created_at", "detail"])
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(limit)
      .execute();
  }
}
