import { FRAME_CLIENT_ID } from "@memory-box/contract";
import type { Kysely, Transaction } from "kysely";
import { relaxedDurabilityTransaction } from "../../../db/relaxed-transaction";
import { preparedQuery } from "../../../db/prepared-query";
import type { Database, RefreshTokenRow, SessionRow, UserRow } from "../../../db/schema";

type Executor = Kysely<Database> | Transaction<Database>;

export interface NewSession {
  id: string;
  userId: string;
  aal: string;
  amr: string;
  userAgent: string | null;
  ip: string | null;
  /** Issued through an OAuth 2.1 client (ADR 0075): which, with what scopes, from which authorization. */
  oauth?: { clientId: string; scope: string; authorizationId: string | null };
}

/** Sessions and their refresh-token chains. Deleting a session deletes its tokens (cascade). */
export class SessionsRepository {
  /** The refresh grant's statements, built once: a member's devices refresh every hour or so. */
  private readonly rotation;

  constructor(private readonly db: Kysely<Database>) {
    const selectForRotation = preparedQuery((tokenHash: string) =>
      db
        .selectFrom("refresh_tokens")
        .innerJoin("sessions", "sessions.id", "refresh_tokens.session_id")
        .innerJoin("users", "users.id", "sessions.user_id")
        .leftJoin("invitations", "invitations.email", "users.email")
        .selectAll("users")
        .select([
          "refresh_tokens.id as token_id",
          "refresh_tokens.token_hash",
          "refresh_tokens.session_id",
          "refresh_tokens.parent_id",
          "refresh_tokens.revoked_at as token_revoked_at",
          "refresh_tokens.created_at as token_created_at",
          "refresh_tokens.updated_at as token_updated_at",
          "sessions.amr",
          "sessions.aal",
          "sessions.oauth_client_id",
          "sessions.scope",
          "invitations.email as invited_email",
        ])
        .where("refresh_tokens.token_hash", "=", tokenHash),
    );
    this.rotation = {
      select: selectForRotation,
      insertToken: preparedQuery((id: string, tokenHash: string, sessionId: string, parentId: string | null, now: string) =>
        db.insertInto("refresh_tokens").values({
          id,
          token_hash: tokenHash,
          session_id: sessionId,
          parent_id: parentId,
          revoked_at: null,
          created_at: now,
          updated_at: now,
        }),
      ),
      revokeToken: preparedQuery((id: string, now: string) =>
        db
          .updateTable("refresh_tokens")
          .set({ revoked_at: now, updated_at: now })
          .where("id", "=", id)
          .where("revoked_at", "is", null),
      ),
      markRefreshed: preparedQuery((sessionId: string, ip: string | null, userAgent: string | null, now: string) =>
        db
          .updateTable("sessions")
          .set({ refreshed_at: now, updated_at: now, ip, user_agent: userAgent })
          .where("id", "=", sessionId),
      ),
    };
  }

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** For rotations and new sessions only: see relaxedDurabilityTransaction. */
  bookkeepingTransaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return relaxedDurabilityTransaction(this.db, work);
  }

  async create(session: NewSession, now: string, executor: Executor = this.db): Promise<void> {
    await executor
      .insertInto("sessions")
      .values({
        id: session.id,
        user_id: session.userId,
        aal: session.aal,
        amr: session.amr,
        user_agent: session.userAgent,
        ip: session.ip,
        created_at: now,
        updated_at: now,
        refreshed_at: null,
        oauth_client_id: session.oauth?.clientId ?? null,
        scope: session.oauth?.scope ?? null,
        oauth_authorization_id: session.oauth?.authorizationId ?? null,
      })
      .execute();
  }

  findById(id: string, executor: Executor = this.db): Promise<SessionRow | undefined> {
    return executor.selectFrom("sessions").selectAll().where("id", "=", id).executeTakeFirst();
  }

  async addRefreshToken(
    token: { id: string; tokenHash: string; sessionId: string; parentId: string | null },
    now: string,
    executor: Executor = this.db,
  ): Promise<void> {
    await this.rotation.insertToken(executor, token.id, token.tokenHash, token.sessionId, token.parentId, now);
  }

  /**
   * Everything a refresh needs to decide, in one query: the token, its session's methods, the
   * owner's account and whether the owner's address is still invited. Tokens die with their
   * session and sessions with their user (cascades), so a token found here always has both.
   */
  async findForRotation(tokenHash: string): Promise<
    | {
        token: RefreshTokenRow;
        amr: string;
        aal: string;
        oauth: { clientId: string; scope: string } | null;
        user: UserRow;
        invited: boolean;
      }
    | undefined
  > {
    const [row] = (await this.rotation.select(this.db, tokenHash)).rows;
    if (!row) return undefined;
    const {
      token_id,
      token_hash,
      session_id,
      parent_id,
      token_revoked_at,
      token_created_at,
      token_updated_at,
      amr,
      aal,
      oauth_client_id,
      scope,
      invited_email,
      ...user
    } = row;
    const token = {
      id: token_id,
      token_hash,
      session_id,
      parent_id,
      revoked_at: token_revoked_at,
      created_at: token_created_at,
      updated_at: token_updated_at,
    };
    const oauth = oauth_client_id === null ? null : { clientId: oauth_client_id, scope: scope ?? "" };
    return { token, amr, aal, oauth, user, invited: invited_email !== null };
  }

  /** Revokes the token unless someone else already did; true when this call revoked it. */
  async revokeRefreshToken(id: string, now: string, executor: Executor = this.db): Promise<boolean> {
    const result = await this.rotation.revokeToken(executor, id, now);
    return (result.numAffectedRows ?? 0n) > 0n;
  }

  /** The session's newest token that is still usable. */
  findActiveRefreshToken(sessionId: string, executor: Executor = this.db): Promise<RefreshTokenRow | undefined> {
    return executor
      .selectFrom("refresh_tokens")
      .selectAll()
      .where("session_id", "=", sessionId)
      .where("revoked_at", "is", null)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .executeTakeFirst();
  }

  async markRefreshed(
    sessionId: string,
    details: { ip: string | null; userAgent: string | null },
    now: string,
    executor: Executor = this.db,
  ): Promise<void> {
    await this.rotation.markRefreshed(executor, sessionId, details.ip, details.userAgent, now);
  }

  async delete(id: string, executor: Executor = this.db): Promise<void> {
    await executor.deleteFrom("sessions").where("id", "=", id).execute();
  }

  /**
   * A second factor verified in this session: it is at `aal2` with the new method first in its
   * `amr`, its refresh tokens are replaced by `newToken`, and the account's other sessions still
   * at aal1 end (a device that never proved the second factor stays out), but for its frames'.
   */
  async raiseToAal2(
    session: { id: string; userId: string; amr: string },
    newToken: { id: string; tokenHash: string },
    now: string,
    executor: Executor,
  ): Promise<void> {
    await executor
      .updateTable("sessions")
      .set({ aal: "aal2", amr: session.amr, updated_at: now })
      .where("id", "=", session.id)
      .execute();
    await executor
      .updateTable("refresh_tokens")
      .set({ revoked_at: now, updated_at: now })
      .where("session_id", "=", session.id)
      .where("revoked_at", "is", null)
      .execute();
    await this.addRefreshToken({ ...newToken, sessionId: session.id, parentId: null }, now, executor);
    await executor
      .deleteFrom("sessions")
      .where("user_id", "=", session.userId)
      .where("id", "!=", session.id)
      .where("aal", "=", "aal1")
      // A paired frame's session never acts as the member (ADR 0076): a member's sign-in with a
      // second factor must not take their frames off the wall.
      .where((eb) => eb.or([eb("oauth_client_id", "is", null), eb("oauth_client_id", "!=", FRAME_CLIENT_ID)]))
      .execute();
  }

  /** The account has no verified second factor left: its sessions are back at aal1. */
  async lowerAllToAal1(userId: string, now: string, executor: Executor): Promise<void> {
    await executor.updateTable("sessions").set({ aal: "aal1", updated_at: now }).where("user_id", "=", userId).execute();
  }

  listOfUser(userId: string): Promise<SessionRow[]> {
    return this.db.selectFrom("sessions").selectAll().where("user_id", "=", userId).execute();
  }

  /** Ends the session if it is one of the user's own devices (not an app's or a frame's); true when it did. */
  async deleteOfUsersDevice(userId: string, sessionId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom("sessions")
      .where("id", "=", sessionId)
      .where("user_id", "=", userId)
      .where("oauth_client_id", "is", null)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** Ends every session of the user, or every one but `keepSessionId`. */
  async deleteAllOfUser(userId: string, options: { keepSessionId?: string } = {}, executor: Executor = this.db): Promise<void> {
    let query = executor.deleteFrom("sessions").where("user_id", "=", userId);
    if (options.keepSessionId) query = query.where("id", "!=", options.keepSessionId);
    await query.execute();
  }
}
