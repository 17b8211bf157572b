import type { TestApp } from "./test-app";
import { openDatabase } from "../src/db/database";
import { InvitationsRepository } from "../src/modules/invitations/invitations.repository";

export interface TestMember {
  userId: string;
  email: string;
  accessToken: string;
  refreshToken: string;
  /** `{ authorization: "Bearer …" }` for inject. */
  headers: { authorization: string };
}

/**
 * Invites the address and signs it up through the real auth API. The app must run with
 * AUTH_AUTOCONFIRM=true so the sign-up returns a session.
 */
export async function createMember(testApp: TestApp, email: string, fullName?: string): Promise<TestMember> {
  const database = openDatabase(testApp.config.database);
  try {
    await new InvitationsRepository(database.db).add([email], "test", new Date().toISOString());
  } finally {
    await database.destroy();
  }
  const response = await testApp.app.inject({
    method: "POST",
    url: "/auth/v1/signup",
    headers: { "x-supabase-api-version": "2024-01-01" },
    payload: { email, password: "correct horse battery", data: fullName ? { full_name: fullName } : {} },
  });
  if (response.statusCode !== 200) throw new Error(`sign-up of ${email} failed: ${response.body}`);
  const session = response.json<{ access_token: string; refresh_token: string; user: { id: string } }>();
  return {
    userId: session.user.id,
    email,
    accessToken: session.access_token,
    refreshToken: session.refresh_token,
    headers: { authorization: `Bearer ${session.access_token}` },
  };
}
