import { type Kysely, type SqlBool, sql, type Transaction } from "kysely";
import type { Engine } from "../../db/database";
import { preparedQuery } from "../../db/prepared-query";
import type { CollectionStats, Database, NewUserRow, UserRow, UserRowUpdate } from "../../db/schema";
import { SharedReads } from "../../lib/shared-reads";

type Executor = Kysely<Database> | Transaction<Database>;

/** The columns that record when the last mail of each kind went out. */
export type MailSentColumn =
  "confirmation_sent_at" | "invited_at" | "recovery_sent_at" | "email_change_sent_at" | "reauthentication_sent_at";

/** What the member check reads: the account, its session and invitation, and the collection's stats. */
export interface MemberCheck {
  user: UserRow;
  /** False when the session has ended; the rest is then not read (the request is refused). */
  hasSession: boolean;
  invited: boolean;
  /** Undefined only if the `memory_stats` row was removed by hand. */
  collection: CollectionStats | undefined;
}

/** Accounts and their profiles. E-mails are stored lower-case, so lookups compare exactly. */
export class UsersRepository {
  /** The member check's query, built once: it runs on every authenticated request. */
  private readonly selectForSessions;
  private readonly memberChecks = new SharedReads<string, MemberCheck>((sessionIds) => this.readLiveSessions(sessionIds));

  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: Engine,
  ) {
    // A list of session ids as one value: a text array on PostgreSQL, a JSON array on SQLite.
    const inSessions = (ids: string[] | string) =>
      engine === "postgres"
        ? sql<SqlBool>`${sql.ref("sessions.id")} = any(${ids}::text[])`
        : sql<SqlBool>`${sql.ref("sessions.id")} in (select value from json_each(${ids}))`;
    this.selectForSessions = preparedQuery((ids: string[] | string) =>
      db
        .selectFrom("sessions")
        .innerJoin("users", "users.id", "sessions.user_id")
        .leftJoin("invitations", "invitations.email", "users.email")
        .leftJoin("memory_stats", (join) => join.on("memory_stats.id", "=", 1))
        .selectAll("users")
        .select([
          "sessions.id as session_id",
          "invitations.email as invited_email",
          "memory_stats.total as collection_total",
          "memory_stats.generation as collection_generation",
        ])
        .where(inSessions(ids)),
    );
  }

  findById(id: string, executor: Executor = this.db): Promise<UserRow | undefined> {
    return executor.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /**
   * The member check: the account with whether the session belongs to it and whether its address
   * is invited, and the collection's `memory_stats`, which list requests need next; one query,
   * and one round trip per request at most. Requests that arrive together share one read of all
   * their sessions, sent after each of them arrived (`SharedReads`), so a sign-out or a revoked
   * invitation still counts from the very next request.
   */
  async findForSession(userId: string, sessionId: string): Promise<MemberCheck | undefined> {
    const live = await this.memberChecks.read(sessionId);
    if (live && live.user.id === userId) return live;
    // No such session of this account (it ended): whether the account exists decides the error.
    const user = await this.findById(userId);
    return user && { user, hasSession: false, invited: false, collection: undefined };
  }

  /** The live sessions among `sessionIds`, with their accounts, invitations and the collection's stats. */
  private async readLiveSessions(sessionIds: string[]): Promise<Map<string, MemberCheck>> {
    const { rows } = await this.selectForSessions(this.db, this.engine === "postgres" ? sessionIds : JSON.stringify(sessionIds));
    const checks = new Map<string, MemberCheck>();
    for (const row of rows) {
      const {
        session_id: sessionId,
        invited_email: invitedEmail,
        collection_total: total,
        collection_generation: generation,
        ...user
      } = row;
      const collection =
        total === null || generation === null ? undefined : { total: Number(total), generation: Number(generation) };
      checks.set(sessionId, { user, hasSession: true, invited: invitedEmail !== null, collection });
    }
    return checks;
  }

  findByEmail(email: string, executor: Executor = this.db): Promise<UserRow | undefined> {
    return executor.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
  }

  /** Creates the account and its profile together. */
  async create(user: NewUserRow, displayName: string, executor: Executor = this.db): Promise<void> {
    await executor.insertInto("users").values(user).execute();
    await executor
      .insertInto("profiles")
      .values({ user_id: user.id, display_name: displayName, created_at: user.created_at, updated_at: user.updated_at })
      .execute();
  }

  /**
   * Creates the account and its profile unless the address is taken meanwhile (two sign-ups of
   * one address at once): then writes nothing and returns false, instead of failing on the
   * unique index.
   */
  async createIfEmailFree(user: NewUserRow, displayName: string, executor: Executor = this.db): Promise<boolean> {
    const result = await executor
      .insertInto("users")
      .values(user)
      .onConflict((conflict) => conflict.column("email").doNothing())
      .executeTakeFirst();
    if (!result.numInsertedOrUpdatedRows) return false;
    await executor
      .insertInto("profiles")
      .values({ user_id: user.id, display_name: displayName, created_at: user.created_at, updated_at: user.updated_at })
      .execute();
    return true;
  }

  /**
   * Records that a mail goes out now, unless one of the same kind (`column`) went out after
   * `since`; true when the caller may send. One statement, so requests racing each other cannot
   * all pass the minimum interval.
   */
  async claimMailSlot(
    userId: string,
    column: MailSentColumn,
    now: string,
    since: string,
    executor: Executor = this.db,
  ): Promise<boolean> {
    const result = await executor
      .updateTable("users")
      .set({ [column]: now })
      .where("id", "=", userId)
      .where((eb) => eb.or([eb(column, "is", null), eb(column, "<=", since)]))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async update(id: string, patch: UserRowUpdate, executor: Executor = this.db): Promise<void> {
    await executor.updateTable("users").set(patch).where("id", "=", id).execute();
  }

  async setDisplayName(userId: string, displayName: string, now: string, executor: Executor = this.db): Promise<void> {
    await executor
      .updateTable("profiles")
      .set({ display_name: displayName, updated_at: now })
      .where("user_id", "=", userId)
      .execute();
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom("users").where("id", "=", id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** One page, oldest first, optionally filtered by a substring of the e-mail or the display name. */
  async page(options: { offset: number; limit: number; filter?: string }): Promise<{ users: UserRow[]; total: number }> {
    let query = this.db.selectFrom("users").leftJoin("profiles", "profiles.user_id", "users.id");
    if (options.filter) {
      const pattern = `%${options.filter.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where((eb) =>
        eb.or([eb("users.email", "like", pattern), eb(eb.fn("lower", ["profiles.display_name"]), "like", pattern)]),
      );
    }
    const [users, count] = await Promise.all([
      query
        .selectAll("users")
        .orderBy("users.created_at")
        .orderBy("users.id")
        .offset(options.offset)
        .limit(options.limit)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow(),
    ]);
    return { users, total: Number(count.total) };
  }
}
