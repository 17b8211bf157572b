import type { Kysely, Transaction } from "kysely";
import { isPostgres } from "../../db/migrations/dialect";
import type { Database, InvitationRow } from "../../db/schema";

export type Role = InvitationRow["role"];

export type Executor = Kysely<Database> | Transaction<Database>;

/**
 * The invitation list. Addresses are stored trimmed and lower-cased and looked up the same way,
 * so "Ann@Example.org" and "ann@example.org" are one invitation whoever calls.
 */
export class InvitationsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** Inserts the addresses not on the list yet and returns those, leaving existing rows untouched. */
  async add(emails: string[], invitedBy: string | null, now: string, role: Role = "member"): Promise<string[]> {
    const unique = [...new Set(emails.map(storedForm))];
    if (unique.length === 0) return [];
    const inserted = await this.db
      .insertInto("invitations")
      .values(unique.map((email) => ({ email, invited_by: invitedBy, invited_at: now, used_at: null, used_by: null, role })))
      .onConflict((conflict) => conflict.column("email").doNothing())
      .returning("email")
      .execute();
    const added = new Set(inserted.map((row) => row.email));
    return unique.filter((email) => added.has(email));
  }

  list(): Promise<InvitationRow[]> {
    return this.db.selectFrom("invitations").selectAll().orderBy("invited_at").orderBy("email").execute();
  }

  get(email: string, executor: Executor = this.db): Promise<InvitationRow | undefined> {
    return executor.selectFrom("invitations").selectAll().where("email", "=", storedForm(email)).executeTakeFirst();
  }

  /** Moves an invitation, as it is (role, use), to another address that is not on the list. */
  async rename(email: string, newEmail: string, executor: Executor = this.db): Promise<void> {
    await executor
      .updateTable("invitations")
      .set({ email: storedForm(newEmail) })
      .where("email", "=", storedForm(email))
      .execute();
  }

  /** True when the address was on the list. */
  async remove(email: string, executor: Executor = this.db): Promise<boolean> {
    const result = await executor.deleteFrom("invitations").where("email", "=", storedForm(email)).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /**
   * Records the first use only, so the original sign-up stays on record; true when this call marked it.
   * On an instance without an owner (none named, none joined), the first account to join becomes it.
   */
  async markUsed(email: string, userId: string, now: string, executor: Executor = this.db): Promise<boolean> {
    const result = await executor
      .updateTable("invitations")
      .set({ used_at: now, used_by: userId })
      .where("email", "=", storedForm(email))
      .where("used_at", "is", null)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return false;
    await executor
      .updateTable("invitations")
      .set({ role: "owner" })
      .where("email", "=", storedForm(email))
      .where((eb) =>
        eb.not(eb.exists(eb.selectFrom("invitations as owners").select("owners.email").where("owners.role", "=", "owner"))),
      )
      .execute();
    return true;
  }

  async setRole(email: string, role: Role, executor: Executor = this.db): Promise<void> {
    await executor.updateTable("invitations").set({ role }).where("email", "=", storedForm(email)).execute();
  }

  /**
   * The addresses of the owners who have joined. Inside a transaction on PostgreSQL their rows stay
   * locked (in one order, so two callers queue rather than deadlock) until it ends: two owners
   * stepping down at once cannot both count the other as the one who stays. SQLite runs one write
   * transaction at a time anyway.
   */
  async joinedOwners(executor: Executor): Promise<string[]> {
    let query = executor
      .selectFrom("invitations")
      .select("email")
      .where("role", "=", "owner")
      .where("used_at", "is not", null)
      .orderBy("email");
    if (isPostgres(this.db)) query = query.forUpdate();
    return (await query.execute()).map((row) => row.email);
  }

  /** Ends every session of the account with this address (refresh tokens go by cascade); returns how many. */
  async deleteSessionsOfUserWithEmail(email: string, executor: Executor = this.db): Promise<number> {
    const result = await executor
      .deleteFrom("sessions")
      .where("user_id", "in", (eb) => eb.selectFrom("users").select("users.id").where("users.email", "=", storedForm(email)))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/** The form every address is stored and compared in. */
function storedForm(email: string): string {
  return email.trim().toLowerCase();
}
