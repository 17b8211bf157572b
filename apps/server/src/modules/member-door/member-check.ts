import { type Kysely, type SqlBool, sql } from "kysely";
import type { Engine } from "../../db/database";
import { preparedQuery } from "../../db/prepared-query";
import type { CollectionStats, Database } from "../../db/schema";
import { SharedReads } from "../../lib/shared-reads";
import type { LiveSession, SessionLookup } from "../auth";

/** A live session as the member check reads it: with the collection's stats, which list requests need next. */
export interface MemberSession extends LiveSession {
  /** The session's assurance level: `aal2` once a second factor was proven in it. */
  aal: string;
  /** Undefined only if the `memory_stats` row was removed by hand. */
  collection: CollectionStats | undefined;
}

/** How long one shared read may take before its callers fail and the next read starts. */
export const memberCheckTimeoutMs = 10_000;

/**
 * The read every authenticated request makes: the session, if it is still live, with its account,
 * whether the account's address is invited, and the collection's `memory_stats` (a join on its one
 * row) — one query, one round trip per request at most. Requests that arrive together share one
 * read of all their sessions, sent after each of them arrived (`SharedReads`, ADR 0011), so a
 * sign-out or a revoked invitation still counts from the very next request.
 *
 * The auth service applies its rules to what this finds (`SessionLookup`), for its own routes and
 * for the product API's door (`member-auth.ts`).
 */
export class MemberCheck implements SessionLookup<MemberSession> {
  private readonly selectForSessions;
  private readonly reads: SharedReads<string, MemberSession>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: Engine,
    timeoutMs = memberCheckTimeoutMs,
  ) {
    // A list of session ids as one value: a text array on PostgreSQL, a JSON array on SQLite.
    const inSessions = (ids: string[] | string) =>
      engine === "postgres"
        ? sql<SqlBool>`${sql.ref("sessions.id")} = any(${ids}::text[])`
        : sql<SqlBool>`${sql.ref("sessions.id")} in (select value from json_each(${ids}))`;
    // Built once: it runs on every authenticated request.
    this.selectForSessions = preparedQuery((ids: string[] | string) =>
      db
        .selectFrom("sessions")
        .innerJoin("users", "users.id", "sessions.user_id")
        .leftJoin("invitations", "invitations.email", "users.email")
        .leftJoin("memory_stats", (join) => join.on("memory_stats.id", "=", 1))
        .selectAll("users")
        .select([
          "sessions.id as session_id",
          "sessions.aal as session_aal",
          "sessions.oauth_client_id as session_oauth_client_id",
          "invitations.email as invited_email",
          "memory_stats.total as collection_total",
          "memory_stats.generation as collection_generation",
          "memory_stats.responses as collection_responses",
        ])
        .where(inSessions(ids)),
    );
    this.reads = new SharedReads((sessionIds) => this.readLiveSessions(sessionIds), {
      timeoutMs,
      describe: "member check",
    });
  }

  findLive(sessionId: string): Promise<MemberSession | undefined> {
    return this.reads.read(sessionId);
  }

  private async readLiveSessions(sessionIds: string[]): Promise<Map<string, MemberSession>> {
    const { rows } = await this.selectForSessions(this.db, this.engine === "postgres" ? sessionIds : JSON.stringify(sessionIds));
    const found = new Map<string, MemberSession>();
    for (const row of rows) {
      const {
        session_id: sessionId,
        session_aal: aal,
        session_oauth_client_id: oauthClientId,
        invited_email: invitedEmail,
        collection_total: total,
        collection_generation: generation,
        collection_responses: responses,
        ...user
      } = row;
      const collection =
        total === null || generation === null || responses === null
          ? undefined
          : { total: Number(total), generation: Number(generation), responses: Number(responses) };
      found.set(sessionId, { user, aal, oauthClientId, invited: invitedEmail !== null, collection });
    }
    return found;
  }
}
