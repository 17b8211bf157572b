import type { Kysely, Transaction } from "kysely";
import type { Database, PasskeyRow, WebauthnChallengeRow } from "../../../db/schema";

type Executor = Kysely<Database> | Transaction<Database>;

/** Passkeys and the one-use challenges of their ceremonies. */
export class PasskeysRepository {
  constructor(private readonly db: Kysely<Database>) {}

  listOfUser(userId: string, executor: Executor = this.db): Promise<PasskeyRow[]> {
    return executor.selectFrom("passkeys").selectAll().where("user_id", "=", userId).orderBy("created_at").execute();
  }

  findByCredentialId(credentialId: string): Promise<PasskeyRow | undefined> {
    return this.db.selectFrom("passkeys").selectAll().where("credential_id", "=", credentialId).executeTakeFirst();
  }

  /** False when the authenticator is already registered (its credential id is taken). */
  async insert(passkey: PasskeyRow, executor: Executor): Promise<boolean> {
    const inserted = await executor
      .insertInto("passkeys")
      .values(passkey)
      .onConflict((conflict) => conflict.column("credential_id").doNothing())
      .executeTakeFirst();
    return (inserted.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }

  rename(userId: string, passkeyId: string, friendlyName: string, now: string): Promise<PasskeyRow | undefined> {
    return this.db
      .updateTable("passkeys")
      .set({ friendly_name: friendlyName, updated_at: now })
      .where("id", "=", passkeyId)
      .where("user_id", "=", userId)
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * Records a sign-in: the authenticator's new counter and when. Guarded by the counter read
   * before the check, so two sign-ins racing with one assertion cannot both count.
   */
  async recordUse(passkey: PasskeyRow, newCounter: number, now: string, executor: Executor): Promise<boolean> {
    const result = await executor
      .updateTable("passkeys")
      .set({ sign_count: newCounter, last_used_at: now, updated_at: now })
      .where("id", "=", passkey.id)
      .where("sign_count", "=", passkey.sign_count)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Deletes the account's passkeys with these ids, or all of them; returns those deleted. */
  delete(userId: string, passkeyIds: readonly string[] | "all", executor: Executor = this.db): Promise<PasskeyRow[]> {
    let query = executor.deleteFrom("passkeys").where("user_id", "=", userId);
    if (passkeyIds !== "all") {
      if (passkeyIds.length === 0) return Promise.resolve([]);
      query = query.where("id", "in", passkeyIds);
    }
    return query.returningAll().execute();
  }

  /** Stores a ceremony's challenge, and drops those that expired (they can never be answered). */
  async addChallenge(challenge: WebauthnChallengeRow): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom("webauthn_challenges").where("expires_at", "<", challenge.created_at).execute();
      await trx.insertInto("webauthn_challenges").values(challenge).execute();
    });
  }

  /**
   * Takes a challenge for answering: it is deleted in the same statement, so it answers once
   * whatever the outcome. `userId` null takes only sign-in challenges, which belong to nobody.
   */
  takeChallenge(
    id: string,
    purpose: WebauthnChallengeRow["purpose"],
    userId: string | null,
  ): Promise<WebauthnChallengeRow | undefined> {
    return this.db
      .deleteFrom("webauthn_challenges")
      .where("id", "=", id)
      .where("purpose", "=", purpose)
      .where((eb) => (userId === null ? eb("user_id", "is", null) : eb("user_id", "=", userId)))
      .returningAll()
      .executeTakeFirst();
  }
}
