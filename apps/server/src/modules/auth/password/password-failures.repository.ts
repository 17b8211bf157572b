import type { Kysely, Transaction } from "kysely";
import type { Database } from "../../../db/schema";

type Executor = Kysely<Database> | Transaction<Database>;

/** Password attempts per address (a hash of it) that were not proven right; see PasswordFailuresTable. */
export class PasswordFailuresRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Counts one attempt for the address, unless it must wait (`retry_at` after `now`): then writes
   * nothing and returns undefined. Otherwise returns the attempts of the current run, this one
   * included; a run whose last attempt was at or before `runStart` starts again at 1. One
   * statement, so attempts racing each other are all counted.
   */
  async countAttempt(
    addressHash: string,
    now: string,
    runStart: string,
    executor: Executor = this.db,
  ): Promise<number | undefined> {
    const row = await executor
      .insertInto("password_failures")
      .values({ address_hash: addressHash, failures: 1, last_failed_at: now, retry_at: null })
      .onConflict((conflict) =>
        conflict
          .column("address_hash")
          .doUpdateSet((eb) => ({
            failures: eb
              .case()
              .when("password_failures.last_failed_at", "<=", runStart)
              .then(1)
              .else(eb("password_failures.failures", "+", 1))
              .end(),
            last_failed_at: now,
          }))
          .where((eb) => eb.or([eb("password_failures.retry_at", "is", null), eb("password_failures.retry_at", "<=", now)])),
      )
      .returning("failures")
      .executeTakeFirst();
    return row?.failures;
  }

  async setRetryAt(addressHash: string, retryAt: string, executor: Executor = this.db): Promise<void> {
    await executor.updateTable("password_failures").set({ retry_at: retryAt }).where("address_hash", "=", addressHash).execute();
  }

  async findRetryAt(addressHash: string): Promise<string | null> {
    const row = await this.db
      .selectFrom("password_failures")
      .select("retry_at")
      .where("address_hash", "=", addressHash)
      .executeTakeFirst();
    return row?.retry_at ?? null;
  }

  /** A right password: the address starts afresh. */
  async clear(addressHash: string): Promise<void> {
    await this.db.deleteFrom("password_failures").where("address_hash", "=", addressHash).execute();
  }

  /** Forgets runs whose last attempt was before `before` (their wait, at most 15 minutes, is long over). */
  async deleteEndedBefore(before: string, executor: Executor = this.db): Promise<void> {
    await executor.deleteFrom("password_failures").where("last_failed_at", "<", before).execute();
  }
}
