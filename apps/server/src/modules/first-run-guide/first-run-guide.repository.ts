import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";

/** The member's `users.guide_dismissed_at` and their role, as the first-run guide reads them (ADR 0066). */
export class FirstRunGuideRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async find(userId: string): Promise<{ dismissed_at: string | null; role: "owner" | "member" | null } | undefined> {
    return this.db
      .selectFrom("users")
      .leftJoin("invitations", "invitations.email", "users.email")
      .select(["users.guide_dismissed_at as dismissed_at", "invitations.role as role"])
      .where("users.id", "=", userId)
      .executeTakeFirst();
  }

  /** Closes the member's guide at `now`, keeping the first time when it was already closed. */
  async dismiss(userId: string, now: string): Promise<void> {
    await this.db
      .updateTable("users")
      .set({ guide_dismissed_at: now })
      .where("id", "=", userId)
      .where("guide_dismissed_at", "is", null)
      .execute();
  }

  /** Shows the member's guide again on their next visit to home. */
  async reset(userId: string): Promise<void> {
    await this.db.updateTable("users").set({ guide_dismissed_at: null }).where("id", "=", userId).execute();
  }
}
