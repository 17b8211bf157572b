import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";

/** The members an archive lists (its memories come from the memories module's `pageById`). */
export class ArchiveRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Every account with its display name; no password hash, token or key. */
  members(): Promise<{ id: string; email: string; display_name: string | null }[]> {
    return this.db
      .selectFrom("users")
      .leftJoin("profiles", "profiles.user_id", "users.id")
      .select(["users.id", "users.email", "profiles.display_name"])
      .orderBy("users.created_at")
      .orderBy("users.id")
      .execute();
  }
}
