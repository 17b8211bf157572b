import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";

/** Key/value settings of this installation that must survive restarts. */
export class InstanceSettingsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async get(key: string): Promise<string | undefined> {
    const row = await this.db.selectFrom("instance_settings").select("value").where("key", "=", key).executeTakeFirst();
    return row?.value;
  }

  async put(key: string, value: string, now = new Date()): Promise<void> {
    const updatedAt = now.toISOString();
    await this.db
      .insertInto("instance_settings")
      .values({ key, value, updated_at: updatedAt })
      .onConflict((conflict) => conflict.column("key").doUpdateSet({ value, updated_at: updatedAt }))
      .execute();
  }

  /**
   * Stores `value` only if the key is still unset and returns whichever value won, so two
   * processes starting at once agree on one value (for example one generated key).
   */
  async putIfAbsent(key: string, value: string, now = new Date()): Promise<string> {
    await this.db
      .insertInto("instance_settings")
      .values({ key, value, updated_at: now.toISOString() })
      .onConflict((conflict) => conflict.column("key").doNothing())
      .execute();
    return (await this.get(key)) ?? value;
  }
}
