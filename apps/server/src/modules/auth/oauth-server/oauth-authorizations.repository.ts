import type { Kysely, Transaction } from "kysely";
import type { Database, OauthAuthorizationRow, OauthConsentRow } from "../../../db/schema";

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * The authorization code flow's rows (ADR 0075): authorizations, consents, and the sessions a
 * client holds. Every change of an authorization's state is a compare-and-set on the state it
 * was read in, so two requests racing on one authorization cannot both win.
 */
export class OauthAuthorizationsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async insert(row: OauthAuthorizationRow): Promise<void> {
    await this.db.insertInto("oauth_authorizations").values(row).execute();
  }

  findByAuthorizationId(authorizationId: string, executor: Executor = this.db): Promise<OauthAuthorizationRow | undefined> {
    return executor
      .selectFrom("oauth_authorizations")
      .selectAll()
      .where("authorization_id", "=", authorizationId)
      .executeTakeFirst();
  }

  findByCodeHash(codeHash: string, executor: Executor = this.db): Promise<OauthAuthorizationRow | undefined> {
    return executor
      .selectFrom("oauth_authorizations")
      .selectAll()
      .where("authorization_code_hash", "=", codeHash)
      .executeTakeFirst();
  }

  /** Binds a pending, unbound authorization to the member; true when this call did. */
  async bindUser(id: string, userId: string, executor: Executor = this.db): Promise<boolean> {
    const result = await executor
      .updateTable("oauth_authorizations")
      .set({ user_id: userId })
      .where("id", "=", id)
      .where("user_id", "is", null)
      .where("status", "=", "pending")
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** The member's pending authorization becomes approved with a code's hash, or denied; true when this call did. */
  async decide(
    id: string,
    userId: string,
    decision: { status: "approved"; codeHash: string; at: string } | { status: "denied" },
    executor: Executor = this.db,
  ): Promise<boolean> {
    const result = await executor
      .updateTable("oauth_authorizations")
      .set(
        decision.status === "approved"
          ? { status: "approved", authorization_code_hash: decision.codeHash, approved_at: decision.at }
          : { status: "denied" },
      )
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .where("status", "=", "pending")
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async markExpired(id: string): Promise<void> {
    await this.db
      .updateTable("oauth_authorizations")
      .set({ status: "expired" })
      .where("id", "=", id)
      .where("status", "=", "pending")
      .execute();
  }

  /** The approved code is exchanged; true when this call did (a second exchange is a replay). */
  async markUsed(id: string, at: string, executor: Executor): Promise<boolean> {
    const result = await executor
      .updateTable("oauth_authorizations")
      .set({ used_at: at })
      .where("id", "=", id)
      .where("status", "=", "approved")
      .where("used_at", "is", null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Ends the sessions a code gave (it was presented again: OAuth 2.1, 4.1.3). */
  async deleteSessionsOfAuthorization(id: string): Promise<void> {
    await this.db.deleteFrom("sessions").where("oauth_authorization_id", "=", id).execute();
  }

  findActiveConsent(userId: string, clientId: string, executor: Executor = this.db): Promise<OauthConsentRow | undefined> {
    return executor
      .selectFrom("oauth_consents")
      .selectAll()
      .where("user_id", "=", userId)
      .where("client_id", "=", clientId)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
  }

  /** Records that the member gave the client `scopes`: added to an active consent, or a new one. */
  async grantConsent(
    consent: { id: string; userId: string; clientId: string; scopes: string; at: string },
    executor: Executor,
  ): Promise<void> {
    const active = await this.findActiveConsent(consent.userId, consent.clientId, executor);
    if (active) {
      const scopes = [...new Set([...active.scopes.split(" "), ...consent.scopes.split(" ")])].filter(Boolean).join(" ");
      await executor.updateTable("oauth_consents").set({ scopes }).where("id", "=", active.id).execute();
      return;
    }
    await executor
      .insertInto("oauth_consents")
      .values({
        id: consent.id,
        user_id: consent.userId,
        client_id: consent.clientId,
        scopes: consent.scopes,
        granted_at: consent.at,
        revoked_at: null,
      })
      .execute();
  }

  /** The member's active consents, with their clients, newest first. */
  listActiveConsents(userId: string) {
    return this.db
      .selectFrom("oauth_consents")
      .innerJoin("oauth_clients", "oauth_clients.id", "oauth_consents.client_id")
      .select([
        "oauth_consents.client_id",
        "oauth_consents.scopes",
        "oauth_consents.granted_at",
        "oauth_clients.client_name",
        "oauth_clients.client_uri",
        "oauth_clients.logo_uri",
      ])
      .where("oauth_consents.user_id", "=", userId)
      .where("oauth_consents.revoked_at", "is", null)
      .orderBy("oauth_consents.granted_at", "desc")
      .execute();
  }

  /** Revokes the member's consent to the client and ends the client's sessions of the member; false when there was none. */
  revokeConsent(userId: string, clientId: string, at: string): Promise<boolean> {
    return this.transaction(async (trx) => {
      const result = await trx
        .updateTable("oauth_consents")
        .set({ revoked_at: at })
        .where("user_id", "=", userId)
        .where("client_id", "=", clientId)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return false;
      await trx.deleteFrom("sessions").where("user_id", "=", userId).where("oauth_client_id", "=", clientId).execute();
      return true;
    });
  }
}
