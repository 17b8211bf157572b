import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../config";
import { type AuthTestServer, confirmedMember, startAuthServer } from "../../../../test/auth-fixtures";
import { createTestApp } from "../../../../test/test-app";
import { testEngines } from "../../../../test/test-database";
import { FactorSecrets, factorSecretsKeyFile, loadFactorSecretsKey } from "./factor-secrets";

// Authenticator secrets at rest (ADR 0041): sealed with AES-256-GCM under a key outside the
// database, the key file DATA_DIR/factor-secrets.key (0600) unless AUTH_FACTOR_SECRETS_KEY is set.
// Someone with the database alone (a dump, a backup, a copied file) finds no secret to make codes
// from, and a sealed secret moved into another factor's row does not open.

const headers = (accessToken: string) => ({ authorization: `Bearer ${accessToken}`, "x-supabase-api-version": "2024-01-01" });
type Injector = AuthTestServer["app"];

async function enrol(app: Injector, accessToken: string) {
  const enrolled = await app.inject({
    method: "POST",
    url: "/auth/v1/factors",
    headers: headers(accessToken),
    payload: { factor_type: "totp", friendly_name: "Phone" },
  });
  expect(enrolled.statusCode, enrolled.body).toBe(200);
  return enrolled.json<{ id: string; totp: { secret: string } }>();
}

async function tryCode(app: Injector, accessToken: string, factorId: string, secret: string) {
  const challenge = await app.inject({
    method: "POST",
    url: `/auth/v1/factors/${factorId}/challenge`,
    headers: headers(accessToken),
  });
  expect(challenge.statusCode, challenge.body).toBe(200);
  return app.inject({
    method: "POST",
    url: `/auth/v1/factors/${factorId}/verify`,
    headers: headers(accessToken),
    payload: {
      challenge_id: challenge.json<{ id: string }>().id,
      code: new TOTP({ secret: Secret.fromBase32(secret) }).generate(),
    },
  });
}

describe.each(testEngines)("Authenticator secrets at rest on %s", (engine) => {
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthServer(engine);
  });
  afterAll(async () => {
    await server?.close();
  });

  const storedSecret = async (factorId: string) =>
    (await server.db.selectFrom("mfa_factors").select("secret").where("id", "=", factorId).executeTakeFirstOrThrow()).secret!;

  it("stores the secret sealed, under a key in a 0600 file beside the database and nowhere in it", async () => {
    const member = await confirmedMember(server);
    const { id, totp } = await enrol(server.app, member.session.access_token);
    const stored = await storedSecret(id);
    expect(stored).toMatch(/^enc:v1:[\w-]+:[\w-]+$/);
    expect(stored).not.toContain(totp.secret);
    expect((await tryCode(server.app, member.session.access_token, id, totp.secret)).statusCode).toBe(200);

    const keyFile = path.join(server.testApp.config.dataDir, factorSecretsKeyFile);
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    const key = Buffer.from((await readFile(keyFile, "utf8")).trim(), "base64");
    expect(new FactorSecrets(key).open(id, stored)).toBe(totp.secret);
    const settings = await server.db.selectFrom("instance_settings").selectAll().execute();
    expect(JSON.stringify(settings)).not.toContain(key.toString("base64"));
    if (engine === "sqlite") expect(server.testApp.config.database).not.toMatchObject({ file: keyFile });
  });

  it("does not open a sealed secret copied into another factor's row (someone who can write the database)", async () => {
    const victim = await confirmedMember(server);
    const victimFactor = await enrol(server.app, victim.session.access_token);
    const attacker = await confirmedMember(server);
    const attackerFactor = await enrol(server.app, attacker.session.access_token);
    // The attacker cannot read the victim's secret; they move its sealed form to their own factor.
    await server.db
      .updateTable("mfa_factors")
      .set({ secret: await storedSecret(victimFactor.id) })
      .where("id", "=", attackerFactor.id)
      .execute();
    const answer = await tryCode(server.app, attacker.session.access_token, attackerFactor.id, victimFactor.totp.secret);
    expect(answer.statusCode).not.toBe(200);
    expect(answer.json()).toMatchObject({ code: "unexpected_failure" });
  });

  it("seals the secrets an earlier version stored in the clear when a server starts, and one with another key reads none", async () => {
    const keyText = randomBytes(32).toString("base64");
    const member = await confirmedMember(server);
    const { id, totp } = await enrol(server.app, member.session.access_token);
    // As an earlier version stored it.
    await server.db.updateTable("mfa_factors").set({ secret: totp.secret }).where("id", "=", id).execute();

    const next = await createTestApp(engine, {
      sharedDatabase: server.testApp.config.database,
      env: { AUTH_FACTOR_SECRETS_KEY: keyText, SMTP_URL: server.smtp.url, AUTH_RATE_LIMITS: "false", PUBLIC_URL: server.origin },
    });
    try {
      const stored = await storedSecret(id);
      expect(stored).toMatch(/^enc:v1:/);
      expect(new FactorSecrets(Buffer.from(keyText, "base64")).open(id, stored)).toBe(totp.secret);
      expect((await tryCode(next.app, member.session.access_token, id, totp.secret)).statusCode).toBe(200);
      // The first server, with its own key file, cannot open what the other key sealed.
      const other = await confirmedMember(server);
      const otherFactor = await enrol(server.app, other.session.access_token);
      expect((await tryCode(next.app, other.session.access_token, otherFactor.id, otherFactor.totp.secret)).statusCode).toBe(500);
    } finally {
      await next.close();
    }
  });
});

describe("AUTH_FACTOR_SECRETS_KEY", () => {
  it("takes 32 bytes in base64 and refuses anything else", () => {
    const key = randomBytes(32);
    expect(loadConfig({ AUTH_FACTOR_SECRETS_KEY: key.toString("base64") }).auth.factorSecretsKey).toEqual(key);
    expect(loadConfig({ AUTH_FACTOR_SECRETS_KEY: key.toString("base64url") }).auth.factorSecretsKey).toEqual(key);
    expect(loadConfig({}).auth.factorSecretsKey).toBeUndefined();
    for (const bad of ["short", randomBytes(16).toString("base64"), `${key.toString("base64")}xx`])
      expect(() => loadConfig({ AUTH_FACTOR_SECRETS_KEY: bad })).toThrow(/AUTH_FACTOR_SECRETS_KEY/);
  });
});

describe("the key file", () => {
  it("is one key for processes that start at the same moment, and only the key file is left", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "factor-key-"));
    try {
      const keys = await Promise.all(Array.from({ length: 8 }, () => loadFactorSecretsKey(undefined, dataDir)));
      for (const key of keys) expect(key).toEqual(keys[0]);
      expect(keys[0]).toHaveLength(32);
      expect(await readdir(dataDir)).toEqual([factorSecretsKeyFile]);
      expect((await stat(path.join(dataDir, factorSecretsKeyFile))).mode & 0o777).toBe(0o600);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
