import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { newUser } from "../auth/core/account-rules";

// Shared by the invitation and CLI tests only; nothing in the server imports this file.

/** A member with one live session and its refresh token, written straight to the tables. */
export async function insertMemberWithSession(
  db: Kysely<Database>,
  email: string,
): Promise<{ userId: string; sessionId: string }> {
  const now = new Date().toISOString();
  const userId = randomUUID();
  const sessionId = randomUUID();
  await db
    .insertInto("users")
    .values({ ...newUser(email, null, {}, now), id: userId, email_confirmed_at: now, last_sign_in_at: now })
    .execute();
  await db
    .insertInto("sessions")
    .values({
      id: sessionId,
      user_id: userId,
      aal: "aal1",
      amr: "[]",
      user_agent: null,
      ip: null,
      created_at: now,
      updated_at: now,
      refreshed_at: null,
    })
    .execute();
  await db
    .insertInto("refresh_tokens")
    .values({
      id: randomUUID(),
      token_hash: randomUUID(),
      session_id: sessionId,
      parent_id: null,
      revoked_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { userId, sessionId };
}

/** Empties what these tests write, children first, so each test starts from a clean list. */
export async function clearInvitationData(db: Kysely<Database>): Promise<void> {
  for (const table of ["audit_log", "invitations", "refresh_tokens", "sessions", "users"] as const)
    await db.deleteFrom(table).execute();
}
