import type { Kysely, Transaction } from "kysely";
import type { Database, OauthDeviceCodeRow } from "../../../db/schema";

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * The device grant's pairings under way (RFC 8628, ADR 0076). Every change of a pairing's state is
 * a compare-and-set on the state it was read in, so two answers, or two exchanges, cannot both win.
 */
export class DeviceCodesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async insert(row: OauthDeviceCodeRow): Promise<void> {
    await this.db.insertInto("oauth_device_codes").values(row).execute();
  }

  /** Pairings whose ten minutes ended before `before`: nothing can be answered or exchanged with them any more. */
  async deleteExpiredBefore(before: string): Promise<void> {
    await this.db.deleteFrom("oauth_device_codes").where("expires_at", "<", before).execute();
  }

  findByDeviceCodeHash(hash: string): Promise<OauthDeviceCodeRow | undefined> {
    return this.db.selectFrom("oauth_device_codes").selectAll().where("device_code_hash", "=", hash).executeTakeFirst();
  }

  /** The pairing a member may still answer: pending and within its ten minutes. */
  findAnswerable(userCode: string, now: string): Promise<OauthDeviceCodeRow | undefined> {
    return this.db
      .selectFrom("oauth_device_codes")
      .selectAll()
      .where("user_code", "=", userCode)
      .where("status", "=", "pending")
      .where("expires_at", ">", now)
      .executeTakeFirst();
  }

  /** The member's answer to a pending pairing within its time; true when this call gave it. */
  async answer(
    userCode: string,
    now: string,
    answer: { status: "approved"; userId: string; frameId: string } | { status: "denied"; userId: string },
    executor: Executor = this.db,
  ): Promise<boolean> {
    const result = await executor
      .updateTable("oauth_device_codes")
      .set({
        status: answer.status,
        answered_by: answer.userId,
        frame_id: answer.status === "approved" ? answer.frameId : null,
      })
      .where("user_code", "=", userCode)
      .where("status", "=", "pending")
      .where("expires_at", ">", now)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** A poll of a pending pairing: when it came, and the interval from now on. */
  async recordPoll(id: string, at: string, intervalSeconds: number): Promise<void> {
    await this.db
      .updateTable("oauth_device_codes")
      .set({ last_polled_at: at, interval_seconds: intervalSeconds })
      .where("id", "=", id)
      .execute();
  }

  /** The approved device code is exchanged; true when this call did (a second exchange is a replay). */
  async markUsed(id: string, at: string, executor: Executor): Promise<boolean> {
    const result = await executor
      .updateTable("oauth_device_codes")
      .set({ used_at: at })
      .where("id", "=", id)
      .where("status", "=", "approved")
      .where("used_at", "is", null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** The session the exchange started, for a replay to end. */
  async recordSession(id: string, sessionId: string, executor: Executor): Promise<void> {
    await executor.updateTable("oauth_device_codes").set({ session_id: sessionId }).where("id", "=", id).execute();
  }

  /** Ends the session a device code gave (it was presented again). */
  async deleteSessionOf(id: string): Promise<void> {
    const row = await this.db.selectFrom("oauth_device_codes").select("session_id").where("id", "=", id).executeTakeFirst();
    if (row?.session_id) await this.db.deleteFrom("sessions").where("id", "=", row.session_id).execute();
  }
}
