import type { Kysely, Transaction } from "kysely";
import { preparedQuery } from "../../db/prepared-query";
import type { CollectionStats, Database, NewUserRow, UserRow, UserRowUpdate } from "../../db/schema";
import { SharedReads } from "../../lib/shared-reads";

type Executor = Kysely<Database> | Transaction<Database>;

/** The columns that record when the last mail of each kind went out. */
export type MailSentColumn = "confirmation_sent_at" | "invited_at" | "recovery_sent_at" | "email_change_sent_at" | "reauthentication_sent_at";

/** What the member check reads: the account, its session and invitation, and the collection's stats. */
export interface MemberCheck {
  user: UserRow;
  hasSession: boolean;
  invited: boolean;
  /** Undefined only if the `memory_stats` row was removed by hand. */
  collection: CollectionStats | undefined;
}

/** Accounts and their profiles. E-mails are stored lower-case, so lookups compare exactly. */
export class UsersRepository {
  /** The member check's query, built once: it runs on every authenticated request. */
  private readonly selectForSession;
  private readonly sessionChecks = new SharedReads<MemberCheck | undefined>();

  constructor(private readonly db: Kysely<Database>) {
    this.selectForSession = preparedQuery((userId: string, sessionId: string) =>
      db
        .selectFrom("users")
        .leftJoin("sessions", (join) => join.onRef("sessions.user_id", "=", "users.id").on("sessions.id", "=", sessionId))
        .leftJoin("invitations", "invitations.email", "users.email")
        .leftJoin("memory_stats", (join) => join.on("memory_stats.id", "=", 1))
        .selectAll("users")
        .select(["sessions.id as session_id", "invitations.email as invited_email", "memory_stats.total as collection_total", "memory_stats.generation as collection_generation"])
        .where("users.id", "=", userId),
    );
  }

  findById(id: string, executor: Executor = this.db): Promise<UserRow | undefined> {
    return executor.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /**
   * The account with whether the session belongs to it and whether its address is invited, in
   * one query: this runs on every authenticated request. The same query reads the collection's
   * `memory_stats`, which list requests need next: one round trip per request. Requests of one
   * session that arrive together share a read sent after each of them arrived (`SharedReads`),
   * so a sign-out or a revoked invitation still counts from the very next request.
   */
  findForSession(userId: string, sessionId: string): Promise<MemberCheck | undefined> {
    return this.sessionChecks.read(`${userId} ${sessionId}`, () => this.readForSession(userId, sessionId));
  }

  private async readForSession(userId: string, sessionId: string): Promise<MemberCheck | undefined> {
    const [row] = (await this.selectForSession(this.db, userId, sessionId)).rows;
    if (!row) return undefined;
    const { session_id: joinedSession, invited_email: invitedEmail, collection_total: total, collection_generation: generation, ...user } = row;
    const collection = total === null || generation === null ? undefined : { total: Number(total), generation: Number(generation) };
    return { user, hasSession: joinedSession !== null, invited: invitedEmail !== null, collection };
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
  async claimMailSlot(userId: string, column: MailSentColumn, now: string, since: string, executor: Executor = this.db): Promise<boolean> {
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
    await executor.updateTable("profiles").set({ display_name: displayName, updated_at: now }).where("user_id", "=", userId).execute();
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
      query = query.where((eb) => eb.or([eb("users.email", "like", pattern), eb(eb.fn("lower", ["profiles.display_name"]), "like", pattern)]));
    }
    const [users, count] = await Promise.all([
      query.selectAll("users").orderBy("users.created_at").orderBy("users.id").offset(options.offset).limit(options.limit).execute(),
      query.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow(),
    ]);
    return { users, total: Number(count.total) };
  }
}
