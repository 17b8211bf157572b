import type { Kysely, Transaction } from "kysely";
import type { Database, IdentityRow, OauthStateRow } from "../../../db/schema";

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * Provider identities linked to accounts. Every change rewrites the account's summary
 * (`users.linked_identities`) in the same executor, so the user object never disagrees with the table.
 */
export class IdentitiesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  findByProviderSubject(provider: string, subject: string, executor: Executor = this.db): Promise<IdentityRow | undefined> {
    return executor
      .selectFrom("identities")
      .selectAll()
      .where("provider", "=", provider)
      .where("provider_id", "=", subject)
      .executeTakeFirst();
  }

  listOfUser(userId: string, executor: Executor = this.db): Promise<IdentityRow[]> {
    return executor
      .selectFrom("identities")
      .selectAll()
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
  }

  /** False when the provider's subject is linked already (to anyone): nothing is written then. */
  async insert(identity: IdentityRow, executor: Executor): Promise<boolean> {
    const result = await executor
      .insertInto("identities")
      .values(identity)
      .onConflict((conflict) => conflict.columns(["provider", "provider_id"]).doNothing())
      .executeTakeFirst();
    if (!result.numInsertedOrUpdatedRows) return false;
    await this.summarize(identity.user_id, executor);
    return true;
  }

  /** A sign-in with the identity: what the provider says now, and when. */
  async recordSignIn(
    identity: Pick<IdentityRow, "id" | "user_id" | "email" | "identity_data">,
    now: string,
    executor: Executor,
  ): Promise<void> {
    await executor
      .updateTable("identities")
      .set({ email: identity.email, identity_data: identity.identity_data, last_sign_in_at: now, updated_at: now })
      .where("id", "=", identity.id)
      .execute();
    await this.summarize(identity.user_id, executor);
  }

  /** True when the identity was the user's and is gone. */
  async deleteOfUser(userId: string, identityId: string, executor: Executor): Promise<boolean> {
    const result = await executor
      .deleteFrom("identities")
      .where("id", "=", identityId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    if (result.numDeletedRows === 0n) return false;
    await this.summarize(userId, executor);
    return true;
  }

  private async summarize(userId: string, executor: Executor): Promise<void> {
    const identities = await this.listOfUser(userId, executor);
    const summary = identities.map((identity) => ({
      identity_id: identity.id,
      id: identity.provider_id,
      user_id: identity.user_id,
      identity_data: parseJson(identity.identity_data),
      provider: identity.provider,
      last_sign_in_at: identity.last_sign_in_at ?? identity.created_at,
      created_at: identity.created_at,
      updated_at: identity.updated_at,
      email: identity.email ?? "",
    }));
    await executor
      .updateTable("users")
      .set({ linked_identities: JSON.stringify(summary) })
      .where("id", "=", userId)
      .execute();
  }

  // Sign-ins under way at a provider.

  /** Stores a new one; those that expired (anyone's) are dropped on the way. */
  async createState(state: OauthStateRow, executor: Executor = this.db): Promise<void> {
    await executor.deleteFrom("oauth_states").where("expires_at", "<", state.created_at).execute();
    await executor.insertInto("oauth_states").values(state).execute();
  }

  /** Takes the state out: only one callback gets it, so a replayed callback finds nothing. */
  async consumeState(id: string, executor: Executor = this.db): Promise<OauthStateRow | undefined> {
    const state = await executor.selectFrom("oauth_states").selectAll().where("id", "=", id).executeTakeFirst();
    if (!state) return undefined;
    const result = await executor.deleteFrom("oauth_states").where("id", "=", id).executeTakeFirst();
    return result.numDeletedRows > 0n ? state : undefined;
  }

  /** Records an ID token as used; false when it already was (a replay). */
  useIdToken(tokenHash: string, expiresAt: string, now: string, executor: Executor = this.db): Promise<boolean> {
    return this.useOnce(tokenHash, expiresAt, now, executor);
  }

  /**
   * Records a credential that works once (an ID token, a signed wallet message) by its hash until it
   * expires; false when it was recorded already (a replay). Expired records are dropped on the way.
   */
  async useOnce(tokenHash: string, expiresAt: string, now: string, executor: Executor = this.db): Promise<boolean> {
    await executor.deleteFrom("used_id_tokens").where("expires_at", "<", now).execute();
    const result = await executor
      .insertInto("used_id_tokens")
      .values({ token_hash: tokenHash, expires_at: expiresAt })
      .onConflict((conflict) => conflict.column("token_hash").doNothing())
      .executeTakeFirst();
    return Boolean(result.numInsertedOrUpdatedRows);
  }
}

function parseJson(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return {};
  }
}
