import fs from "node:fs/promises";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AuthTestServer,
  codeIn,
  linkIn,
  password,
  signedInClient,
  startAuthServer,
  uniqueEmail,
} from "../../../../test/auth-fixtures";
import { testEngines } from "../../../../test/test-database";

// Secrets at rest (security checklist §6 check 7): the database holds only hashes of refresh
// tokens, link tokens, codes and auth codes, and an argon2id PHC string for the password, so a
// copy of it (a backup, a stolen disk) signs no one in.

const tables = [
  "users",
  "profiles",
  "invitations",
  "sessions",
  "refresh_tokens",
  "flow_states",
  "one_time_tokens",
  "audit_log",
  "instance_settings",
] as const;

describe.each(testEngines())("secrets at rest on %s", (engine) => {
  let server: AuthTestServer;

  beforeAll(async () => {
    // What is stored is the product's: argon2id at OWASP's minimum.
    server = await startAuthServer(engine, { productPasswordHashing: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Everything the database holds, as text: the file and its WAL for SQLite, every row for PostgreSQL. */
  async function databaseContents(): Promise<string> {
    const { database } = server.testApp.config;
    if (database.engine === "sqlite") {
      const parts = await Promise.all(
        [database.file, `${database.file}-wal`].map((file) => fs.readFile(file).catch(() => Buffer.alloc(0))),
      );
      return Buffer.concat(parts).toString("latin1");
    }
    const rows: string[] = [];
    for (const table of tables) {
      const result = await sql<{ row: string }>`select row_to_json(t)::text as row from ${sql.table(table)} t`.execute(server.db);
      rows.push(...result.rows.map((row) => row.row));
    }
    return rows.join("\n");
  }

  /** Fails naming the secret's kind, never printing the whole database. */
  function expectAbsent(contents: string, secrets: Record<string, string>) {
    for (const [kind, secret] of Object.entries(secrets)) {
      expect(secret.length, kind).toBeGreaterThanOrEqual(6);
      // Codes are digits: they must not stand alone, but may occur inside a longer number or hash.
      const found = /^\d+$/.test(secret) ? new RegExp(`(?<!\\d)${secret}(?!\\d)`).test(contents) : contents.includes(secret);
      expect(found, `${kind} is stored in the database`).toBe(false);
    }
  }

  it("stores no token, code, auth code or password, and the password as argon2id", async () => {
    const email = uniqueEmail("secret");
    await server.invite(email);
    const pkce = server.client("pkce");
    await pkce.auth.signUp({ email, password });
    const signUpMail = await server.smtp.waitForMail(email);
    const signUpLinkToken = new URL(linkIn(signUpMail)).searchParams.get("token")!;
    const signUpCode = codeIn(signUpMail);
    expectAbsent(await databaseContents(), { password, "sign-up link token": signUpLinkToken, "sign-up code": signUpCode });

    // Opening the PKCE link issues an auth code, which is stored only as a hash until exchanged.
    const authCode = (await pkce.openLink(linkIn(signUpMail))).query.get("code")!;
    expect(authCode).toBeTruthy();
    expectAbsent(await databaseContents(), { "PKCE auth code": authCode });
    const exchanged = await pkce.auth.exchangeCodeForSession(authCode);
    expect(exchanged.error).toBeNull();

    const { auth, session } = await signedInClient(server, email);
    const refreshed = await auth.refreshSession();
    expect(refreshed.error).toBeNull();

    await auth.resetPasswordForEmail(email);
    const recoveryMail = await server.smtp.waitForMail(email, { subject: /Reset your/ });
    await auth.reauthenticate();
    const nonceMail = await server.smtp.waitForMail(email, { subject: /confirmation code/ });

    const user = await server.db
      .selectFrom("users")
      .select("encrypted_password")
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    const contents = await databaseContents();
    // The control: what is stored in the clear is found, so the search does see the latest writes.
    expect(contents).toContain(email);
    expect(contents).toContain(user.encrypted_password);
    expectAbsent(contents, {
      password,
      "sign-up link token": signUpLinkToken,
      "sign-up code": signUpCode,
      "PKCE auth code": authCode,
      "PKCE session refresh token": exchanged.data.session!.refresh_token,
      "refresh token": session.refresh_token,
      "rotated refresh token": refreshed.data.session!.refresh_token,
      "access token": session.access_token,
      "recovery link token": new URL(linkIn(recoveryMail)).searchParams.get("token")!,
      "recovery code": codeIn(recoveryMail),
      "reauthentication nonce": codeIn(nonceMail),
    });

    expect(user.encrypted_password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
    // Refresh tokens carry 256 bits and only their SHA-256 is kept.
    expect(Buffer.from(session.refresh_token, "base64url")).toHaveLength(32);
    const stored = await server.db.selectFrom("refresh_tokens").select("token_hash").execute();
    for (const row of stored) expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
