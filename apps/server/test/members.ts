import type { TestApp } from "./test-app";
import { openDatabase } from "../src/db/database";
import { InvitationsRepository } from "../src/modules/invitations/invitations.repository";
import { serviceRoleToken } from "./service-token";

export interface TestMember {
  userId: string;
  email: string;
  accessToken: string;
  refreshToken: string;
  /** `{ authorization: "Bearer …" }` for inject. */
  headers: { authorization: string };
}

/** The password every test member signs in with. */
export const memberPassword = "correct horse battery";

const operatorTokens = new WeakMap<TestApp, Promise<string>>();

/**
 * An invited member with a confirmed account, signed in through the real auth API: the operator
 * creates the account (the admin API, as if the member had confirmed their address by e-mail),
 * the invitation is marked used, and the member signs in with the password grant.
 */
export async function createMember(testApp: TestApp, email: string, fullName?: string): Promise<TestMember> {
  let operatorToken = operatorTokens.get(testApp);
  if (!operatorToken) {
    operatorToken = serviceRoleToken(testApp);
    operatorTokens.set(testApp, operatorToken);
  }
  const created = await testApp.app.inject({
    method: "POST",
    url: "/auth/v1/admin/users",
    headers: { authorization: `Bearer ${await operatorToken}`, "x-supabase-api-version": "2024-01-01" },
    payload: { email, password: memberPassword, email_confirm: true, user_metadata: fullName ? { full_name: fullName } : {} },
  });
  if (created.statusCode !== 200) throw new Error(`creating ${email} failed: ${created.body}`);
  const userId = created.json<{ id: string }>().id;
  const database = openDatabase(testApp.config.database);
  try {
    const invitations = new InvitationsRepository(database.db);
    const now = new Date().toISOString();
    await invitations.add([email], "test", now);
    await invitations.markUsed(email, userId, now);
  } finally {
    await database.destroy();
  }
  const response = await testApp.app.inject({
    method: "POST",
    url: "/auth/v1/token?grant_type=password",
    headers: { "x-supabase-api-version": "2024-01-01" },
    payload: { email, password: memberPassword },
  });
  if (response.statusCode !== 200) throw new Error(`sign-in of ${email} failed: ${response.body}`);
  const session = response.json<{ access_token: string; refresh_token: string }>();
  return {
    userId,
    email,
    accessToken: session.access_token,
    refreshToken: session.refresh_token,
    headers: { authorization: `Bearer ${session.access_token}` },
  };
}
