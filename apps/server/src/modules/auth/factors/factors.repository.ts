import type { Kysely, Transaction } from "kysely";
import type { Database, MfaChallengeRow, MfaFactorRow } from "../../../db/schema";
import { countOneMoreFailedCode } from "../core/failed-code-count";

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * Second factors and their challenges. Every change rewrites the account's factor summary
 * (`users.mfa_factors`) in the same executor, so the user object never disagrees with the table.
 */
export class FactorsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  listOfUser(userId: string, executor: Executor = this.db): Promise<MfaFactorRow[]> {
    return executor.selectFrom("mfa_factors").selectAll().where("user_id", "=", userId).orderBy("created_at").execute();
  }

  find(userId: string, factorId: string, executor: Executor = this.db): Promise<MfaFactorRow | undefined> {
    return executor
      .selectFrom("mfa_factors")
      .selectAll()
      .where("id", "=", factorId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
  }

  async insert(factor: MfaFactorRow, executor: Executor): Promise<void> {
    await executor.insertInto("mfa_factors").values(factor).execute();
    await this.summarize(factor.user_id, executor);
  }

  /**
   * Records the time step of an accepted code, unless one of that step or a later one was already
   * accepted; true when this call recorded it (a code counts once, even raced).
   */
  async useStep(factorId: string, step: number, executor: Executor): Promise<boolean> {
    const result = await executor
      .updateTable("mfa_factors")
      .set({ last_used_step: step })
      .where("id", "=", factorId)
      .where((eb) => eb.or([eb("last_used_step", "is", null), eb("last_used_step", "<", step)]))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Authenticator secrets not yet stored sealed (their text does not start with `sealedPrefix`). */
  async secretsNotSealed(sealedPrefix: string): Promise<{ id: string; secret: string }[]> {
    const rows = await this.db
      .selectFrom("mfa_factors")
      .select(["id", "secret"])
      .where("secret", "is not", null)
      .where("secret", "not like", `${sealedPrefix}%`)
      .execute();
    return rows.flatMap((row) => (row.secret === null ? [] : [{ id: row.id, secret: row.secret }]));
  }

  /** Replaces a factor's stored secret if it still holds `previous`. True when this call replaced it. */
  async replaceSecret(factorId: string, previous: string, next: string): Promise<boolean> {
    const result = await this.db
      .updateTable("mfa_factors")
      .set({ secret: next })
      .where("id", "=", factorId)
      .where("secret", "=", previous)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Stores a security key's credential (JSON), if the factor still holds `previous`: a key's
   * answer counts once even when two arrive together. True when this call stored it.
   */
  async setCredential(factorId: string, previous: string | null, next: string, executor: Executor): Promise<boolean> {
    const result = await executor
      .updateTable("mfa_factors")
      .set({ webauthn_credential: next })
      .where("id", "=", factorId)
      .where((eb) => (previous === null ? eb("webauthn_credential", "is", null) : eb("webauthn_credential", "=", previous)))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async markVerified(factor: MfaFactorRow, now: string, executor: Executor): Promise<void> {
    await executor.updateTable("mfa_factors").set({ status: "verified", updated_at: now }).where("id", "=", factor.id).execute();
    // Enrolments of the same kind left unfinished are dropped, as Supabase Auth does.
    await executor
      .deleteFrom("mfa_factors")
      .where("user_id", "=", factor.user_id)
      .where("factor_type", "=", factor.factor_type)
      .where("status", "=", "unverified")
      .where("id", "!=", factor.id)
      .execute();
    await this.summarize(factor.user_id, executor);
  }

  /** Deletes the account's factors with these ids, or all of them; returns those deleted. */
  async delete(userId: string, factorIds: readonly string[] | "all", executor: Executor): Promise<MfaFactorRow[]> {
    let query = executor.deleteFrom("mfa_factors").where("user_id", "=", userId);
    if (factorIds !== "all") {
      if (factorIds.length === 0) return [];
      query = query.where("id", "in", factorIds);
    }
    const deleted = await query.returningAll().execute();
    await this.summarize(userId, executor);
    return deleted;
  }

  /** Unfinished enrolments older than `before`: removed before a new one is counted. */
  async deleteUnverifiedOlderThan(userId: string, before: string, executor: Executor): Promise<void> {
    await executor
      .deleteFrom("mfa_factors")
      .where("user_id", "=", userId)
      .where("status", "=", "unverified")
      .where("created_at", "<", before)
      .execute();
    await this.summarize(userId, executor);
  }

  async addChallenge(challenge: Omit<MfaChallengeRow, "failed_attempts">, executor: Executor): Promise<void> {
    await executor.insertInto("mfa_challenges").values(challenge).execute();
    await executor
      .updateTable("mfa_factors")
      .set({ last_challenged_at: challenge.created_at })
      .where("id", "=", challenge.factor_id)
      .execute();
  }

  findChallenge(factorId: string, challengeId: string, executor: Executor = this.db): Promise<MfaChallengeRow | undefined> {
    return executor
      .selectFrom("mfa_challenges")
      .selectAll()
      .where("id", "=", challengeId)
      .where("factor_id", "=", factorId)
      .executeTakeFirst();
  }

  /**
   * One more wrong code for the factor: counted from 1 again when the last count began before
   * `windowStart`. Answers the count, so the code that reaches the limit is known (and told once).
   */
  async countFailedCode(factorId: string, now: string, windowStart: string): Promise<number> {
    const row = await this.db
      .updateTable("mfa_factors")
      .set(countOneMoreFailedCode(now, windowStart))
      .where("id", "=", factorId)
      .returning("failed_codes")
      .executeTakeFirst();
    return row?.failed_codes ?? 0;
  }

  async clearFailedCodes(factorId: string, executor: Executor): Promise<void> {
    await executor
      .updateTable("mfa_factors")
      .set({ failed_codes: 0, failed_codes_since: null })
      .where("id", "=", factorId)
      .execute();
  }

  async countWrongCode(challengeId: string): Promise<void> {
    await this.db
      .updateTable("mfa_challenges")
      .set((eb) => ({ failed_attempts: eb("failed_attempts", "+", 1) }))
      .where("id", "=", challengeId)
      .execute();
  }

  /** True when this call verified it (a challenge answers once). */
  async markChallengeVerified(challengeId: string, now: string, executor: Executor): Promise<boolean> {
    const result = await executor
      .updateTable("mfa_challenges")
      .set({ verified_at: now })
      .where("id", "=", challengeId)
      .where("verified_at", "is", null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  private async summarize(userId: string, executor: Executor): Promise<void> {
    const factors = await this.listOfUser(userId, executor);
    const summary = factors.map((factor) => ({
      id: factor.id,
      friendly_name: factor.friendly_name,
      factor_type: factor.factor_type,
      status: factor.status,
      created_at: factor.created_at,
      updated_at: factor.updated_at,
      ...(factor.last_challenged_at ? { last_challenged_at: factor.last_challenged_at } : {}),
    }));
    await executor
      .updateTable("users")
      .set({ mfa_factors: JSON.stringify(summary) })
      .where("id", "=", userId)
      .execute();
  }
}
