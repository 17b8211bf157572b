import type { Kysely, Transaction } from "kysely";
import type { Database, NewUserRow, UserRow, UserRowUpdate } from "../../db/schema";

type Executor = Kysely<Database> | Transaction<Database>;

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
