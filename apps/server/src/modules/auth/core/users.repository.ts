import type { Kysely, Transaction } from "kysely";
import type { Database, NewUserRow, UserRow, UserRowUpdate } from "../../../db/schema";

type Executor = Kysely<Database> | Transaction<Database>;

/** The columns that record when the last mail of each kind went out. */
export type MailSentColumn =
  "confirmation_sent_at" | "invited_at" | "recovery_sent_at" | "email_change_sent_at" | "reauthentication_sent_at";

/** Accounts and their profiles. E-mails are stored lower-case, so lookups compare exactly. */
export class UsersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findById(id: string, executor: Executor = this.db): Promise<UserRow | undefined> {
    return executor.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
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

  /** One more wrong e-mailed code for the account: counted from `now` when the last count began before `windowStart`. */
  async countFailedVerification(userId: string, now: string, windowStart: string, executor: Executor = this.db): Promise<void> {
    await executor
      .updateTable("users")
      .set((eb) => ({
        failed_verifications: eb
          .case()
          .when(eb.or([eb("failed_verifications_since", "is", null), eb("failed_verifications_since", "<=", windowStart)]))
          .then(1)
          .else(eb("failed_verifications", "+", 1))
          .end(),
        failed_verifications_since: eb
          .case()
          .when(eb.or([eb("failed_verifications_since", "is", null), eb("failed_verifications_since", "<=", windowStart)]))
          .then(now)
          .else(eb.ref("failed_verifications_since"))
          .end(),
      }))
      .where("id", "=", userId)
      .execute();
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
        // Newest first, as Supabase Auth lists them.
        .orderBy("users.created_at", "desc")
        .orderBy("users.id", "desc")
        .offset(options.offset)
        .limit(options.limit)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow(),
    ]);
    return { users, total: Number(count.total) };
  }
}
