import type { TestApp } from "./test-app";
import { openDatabase } from "../src/db/database";
import { InvitationsRepository } from "../src/modules/invitations/invitations.repository";
import { multipartContentType, multipartPayload } from "./multipart";
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

/** Uploads a JPEG as `member` through the API, as the memory form does; the new photo's id. */
export async function uploadPhotoAs(testApp: TestApp, member: TestMember, data: Buffer): Promise<string> {
  const response = await testApp.app.inject({
    method: "POST",
    url: "/api/v1/photos",
    headers: { ...member.headers, "content-type": multipartContentType },
    payload: multipartPayload([{ name: "file", filename: "IMG_0001.JPG", contentType: "image/jpeg", data }]),
  });
  if (response.statusCode !== 201) throw new Error(`uploading a photo failed: ${response.body}`);
  return response.json<{ id: string }>().id;
}
