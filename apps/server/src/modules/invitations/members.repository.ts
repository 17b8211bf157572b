import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";
import type { Role } from "./invitations.repository";

/** A joined member as the directory shows them: account, profile and invitation in one row. */
export interface MemberRecord {
  id: string;
  email: string;
  display_name: string | null;
  role: Role;
  joined_at: string | null;
  invited_at: string;
  invited_by: string | null;
  inviter_name: string | null;
  last_active_at: string | null;
  /** The account's factor summary (JSON), to tell whether two-step verification is on. */
  mfa_factors: string;
}

/**
 * Who is in: accounts whose address is on the invitation list and whose invitation was used,
 * read in one query with their inviter and their newest session activity.
 */
export class MembersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(): Promise<MemberRecord[]> {
    return this.members().orderBy("invitations.used_at").orderBy("users.email").execute();
  }

  find(userId: string): Promise<MemberRecord | undefined> {
    return this.members().where("users.id", "=", userId).executeTakeFirst();
  }

  /** Addresses invited whose owner has not joined yet, oldest first, with the inviter's display name. */
  pending() {
    return this.db
      .selectFrom("invitations")
      .leftJoin("profiles as inviter", "inviter.user_id", "invitations.invited_by")
      .where("invitations.used_at", "is", null)
      .select([
        "invitations.email",
        "invitations.role",
        "invitations.invited_at",
        "invitations.invited_by",
        "inviter.display_name as inviter_name",
      ])
      .orderBy("invitations.invited_at")
      .orderBy("invitations.email")
      .execute();
  }

  private members() {
    return this.db
      .selectFrom("invitations")
      .innerJoin("users", "users.email", "invitations.email")
      .leftJoin("profiles", "profiles.user_id", "users.id")
      .leftJoin("profiles as inviter", "inviter.user_id", "invitations.invited_by")
      .where("invitations.used_at", "is not", null)
      .select((eb) => [
        "users.id",
        "users.email",
        "profiles.display_name",
        "invitations.role",
        "invitations.used_at as joined_at",
        "invitations.invited_at",
        "invitations.invited_by",
        "inviter.display_name as inviter_name",
        "users.mfa_factors",
        eb
          .selectFrom("sessions")
          .select((sessions) => sessions.fn.max(sessions.fn.coalesce("sessions.refreshed_at", "sessions.created_at")).as("at"))
          .whereRef("sessions.user_id", "=", "users.id")
          .as("last_active_at"),
      ]);
  }
}
