import type { Insertable, Kysely, Transaction } from "kysely";
import type { Database, FlowStateRow, FlowStatesTable, OneTimeTokenRow } from "../../../db/schema";

type Executor = Kysely<Database> | Transaction<Database>;

/** E-mailed links and codes, and the PKCE flows they may belong to. */
export class OneTimeTokensRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores a token, replacing any earlier token of the same kind for the user: only the newest link works. */
  async replace(token: OneTimeTokenRow, executor: Executor = this.db): Promise<void> {
    await executor
      .deleteFrom("one_time_tokens")
      .where("user_id", "=", token.user_id)
      .where("token_type", "=", token.token_type)
      .execute();
    await executor.insertInto("one_time_tokens").values(token).execute();
  }

  /** Stores a token beside the others of its kind (each sign-up keeps its own link, bound to its browser). */
  async insert(token: OneTimeTokenRow, executor: Executor = this.db): Promise<void> {
    await executor.insertInto("one_time_tokens").values(token).execute();
  }

  findByTokenHash(tokenHash: string, types: string[], executor: Executor = this.db): Promise<OneTimeTokenRow | undefined> {
    return executor
      .selectFrom("one_time_tokens")
      .selectAll()
      .where("token_hash", "=", tokenHash)
      .where("token_type", "in", types)
      .executeTakeFirst();
  }

  findByOtpHash(otpHash: string, types: string[], executor: Executor = this.db): Promise<OneTimeTokenRow | undefined> {
    return executor
      .selectFrom("one_time_tokens")
      .selectAll()
      .where("otp_hash", "=", otpHash)
      .where("token_type", "in", types)
      .orderBy("created_at", "desc")
      .executeTakeFirst();
  }

  findLatest(userId: string, type: string, executor: Executor = this.db): Promise<OneTimeTokenRow | undefined> {
    return executor
      .selectFrom("one_time_tokens")
      .selectAll()
      .where("user_id", "=", userId)
      .where("token_type", "=", type)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .executeTakeFirst();
  }

  /** One more wrong code against the user's live codes of these kinds; those at `max` wrong guesses die. */
  async countWrongGuess(userId: string, types: string[], max: number, executor: Executor = this.db): Promise<void> {
    await executor
      .updateTable("one_time_tokens")
      .set((eb) => ({ failed_attempts: eb("failed_attempts", "+", 1) }))
      .where("user_id", "=", userId)
      .where("token_type", "in", types)
      .execute();
    await executor
      .deleteFrom("one_time_tokens")
      .where("user_id", "=", userId)
      .where("token_type", "in", types)
      .where("failed_attempts", ">=", max)
      .execute();
  }

  /** Deletes the token; true only for the one caller that got it, so a token works once even under a race. */
  async consume(id: string, executor: Executor = this.db): Promise<boolean> {
    const result = await executor.deleteFrom("one_time_tokens").where("id", "=", id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async deleteOfUser(userId: string, types: string[], executor: Executor = this.db): Promise<void> {
    await executor.deleteFrom("one_time_tokens").where("user_id", "=", userId).where("token_type", "in", types).execute();
  }

  async createFlowState(flow: Insertable<FlowStatesTable>, executor: Executor = this.db): Promise<void> {
    await executor.insertInto("flow_states").values(flow).execute();
  }

  findFlowState(id: string, executor: Executor = this.db): Promise<FlowStateRow | undefined> {
    return executor.selectFrom("flow_states").selectAll().where("id", "=", id).executeTakeFirst();
  }

  findFlowStateByAuthCode(authCodeHash: string, executor: Executor = this.db): Promise<FlowStateRow | undefined> {
    return executor.selectFrom("flow_states").selectAll().where("auth_code_hash", "=", authCodeHash).executeTakeFirst();
  }

  async issueAuthCode(flowStateId: string, authCodeHash: string, now: string, executor: Executor = this.db): Promise<void> {
    await executor
      .updateTable("flow_states")
      .set({ auth_code_hash: authCodeHash, auth_code_issued_at: now })
      .where("id", "=", flowStateId)
      .execute();
  }

  /**
   * Drops the sign-up choices every PKCE flow of the user holds, but those of `keptFlowId`: after
   * the mailbox is proven, at most the flow of the link that proved it keeps them (ADR 0046).
   */
  async dropPendingOfFlows(userId: string, keptFlowId: string | null, executor: Executor = this.db): Promise<void> {
    let query = executor
      .updateTable("flow_states")
      .set({ pending_password_hash: null, pending_user_metadata: null })
      .where("user_id", "=", userId)
      .where("pending_password_hash", "is not", null);
    if (keptFlowId) query = query.where("id", "!=", keptFlowId);
    await query.execute();
  }

  async dropPendingOfFlow(id: string, executor: Executor = this.db): Promise<void> {
    await executor
      .updateTable("flow_states")
      .set({ pending_password_hash: null, pending_user_metadata: null })
      .where("id", "=", id)
      .execute();
  }

  async deleteFlowState(id: string, executor: Executor = this.db): Promise<boolean> {
    const result = await executor.deleteFrom("flow_states").where("id", "=", id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
