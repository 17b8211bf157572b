import type { Kysely, Transaction } from "kysely";
import type { Database, MfaRecoveryCodeSetRow } from "../../../db/schema";
import { countOneMoreFailedCode } from "../core/failed-code-count";

type Executor = Kysely<Database> | Transaction<Database>;

/** An account's recovery codes (ADR 0042): the set, its codes as keyed hashes, the wrong codes counted. */
export class RecoveryCodesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findSet(userId: string, executor: Executor = this.db): Promise<MfaRecoveryCodeSetRow | undefined> {
    return executor.selectFrom("mfa_recovery_code_sets").selectAll().where("user_id", "=", userId).executeTakeFirst();
  }

  /** How many of the account's codes are still unused. */
  async countUnused(userId: string, executor: Executor = this.db): Promise<number> {
    const row = await executor
      .selectFrom("mfa_recovery_codes")
      .select((eb) => eb.fn.countAll<number | string | bigint>().as("count"))
      .where("user_id", "=", userId)
      .where("used_at", "is", null)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  /** Replaces the account's set, and every code in it, with new codes (their hashes). */
  async replace(
    userId: string,
    codes: readonly { id: string; codeHash: string }[],
    now: string,
    executor: Executor,
  ): Promise<void> {
    await this.delete(userId, executor);
    await executor.insertInto("mfa_recovery_code_sets").values({ user_id: userId, created_at: now }).execute();
    await executor
      .insertInto("mfa_recovery_codes")
      .values(codes.map((code) => ({ id: code.id, user_id: userId, code_hash: code.codeHash, created_at: now, used_at: null })))
      .execute();
  }

  /** The account's recovery codes are gone (its last second factor was removed). */
  async delete(userId: string, executor: Executor): Promise<void> {
    await executor.deleteFrom("mfa_recovery_codes").where("user_id", "=", userId).execute();
    await executor.deleteFrom("mfa_recovery_code_sets").where("user_id", "=", userId).execute();
  }

  /**
   * Marks the account's unused code with this hash as used; true when this call did (a code works
   * once, even when two requests bring it together).
   */
  async use(userId: string, codeHash: string, now: string, executor: Executor): Promise<boolean> {
    const result = await executor
      .updateTable("mfa_recovery_codes")
      .set({ used_at: now })
      .where("user_id", "=", userId)
      .where("code_hash", "=", codeHash)
      .where("used_at", "is", null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * One more wrong code for the account: counted from 1 again when the last count began before
   * `windowStart`. Answers the count, so the code that reaches the limit is known (and told once).
   */
  async countFailedCode(userId: string, now: string, windowStart: string): Promise<number> {
    const row = await this.db
      .updateTable("mfa_recovery_code_sets")
      .set(countOneMoreFailedCode(now, windowStart))
      .where("user_id", "=", userId)
      .returning("failed_codes")
      .executeTakeFirst();
    return row?.failed_codes ?? 0;
  }

  async clearFailedCodes(userId: string, executor: Executor): Promise<void> {
    await executor
      .updateTable("mfa_recovery_code_sets")
      .set({ failed_codes: 0, failed_codes_since: null })
      .where("user_id", "=", userId)
      .execute();
  }
}
