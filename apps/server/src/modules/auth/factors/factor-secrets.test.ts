import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../config";
import { type AuthTestServer, confirmedMember, enrolTotp, startAuthServer, totpCode } from "../../../../test/auth-fixtures";
import { createTestApp } from "../../../../test/test-app";
import { testEngines } from "../../../../test/test-database";
import { FactorSecrets, factorSecretsKeyFile, loadFactorSecretsKey } from "./factor-secrets";

// Authenticator secrets at rest (ADR 0041): sealed with AES-256-GCM under a key outside the
// database, the key file DATA_DIR/factor-secrets.key (0600) unless AUTH_FACTOR_SECRETS_KEY is set.
// Someone with the database alone (a dump, a backup, a copied file) finds no secret to make codes
// from, and a sealed secret moved into another factor's row does not open.

const headers = (accessToken: string) => ({ authorization: `Bearer ${accessToken}`, "x-supabase-api-version": "2024-01-01" });
type Injector = AuthTestServer["app"];

/** A new challenge answered with the code of `secret` at `now`. */
async function tryCode(app: Injector, accessToken: string, factorId: string, secret: string, now: Date) {
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
      code: totpCode(secret, now),
    },
  });
}

describe.each(testEngines())("Authenticator secrets at rest on %s", (engine) => {
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
    // Enrolment verifies the factor with a code made from the secret: the sealed secret opens.
    const { factorId: id, secret } = await enrolTotp(server.app, member.session.access_token, { now: server.clock.now });
    const stored = await storedSecret(id);
    expect(stored).toMatch(/^enc:v1:[\w-]+:[\w-]+$/);
    expect(stored).not.toContain(secret);

    const keyFile = path.join(server.testApp.config.dataDir, factorSecretsKeyFile);
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    const key = Buffer.from((await readFile(keyFile, "utf8")).trim(), "base64");
    expect(new FactorSecrets(key).open(id, stored)).toBe(secret);
    const settings = await server.db.selectFrom("instance_settings").selectAll().execute();
    expect(JSON.stringify(settings)).not.toContain(key.toString("base64"));
    if (engine === "sqlite") expect(server.testApp.config.database).not.toMatchObject({ file: keyFile });
  });

  it("does not open a sealed secret copied into another factor's row (someone who can write the database)", async () => {
    const victim = await confirmedMember(server);
    const victimFactor = await enrolTotp(server.app, victim.session.access_token, { now: server.clock.now });
    const attacker = await confirmedMember(server);
    const attackerFactor = await enrolTotp(server.app, attacker.session.access_token, { now: server.clock.now });
    // The attacker cannot read the victim's secret; they move its sealed form to their own factor.
    await server.db
      .updateTable("mfa_factors")
      .set({ secret: await storedSecret(victimFactor.factorId) })
      .where("id", "=", attackerFactor.factorId)
      .execute();
    server.clock.advance(30);
    const answer = await tryCode(
      server.app,
      attacker.session.access_token,
      attackerFactor.factorId,
      victimFactor.secret,
      server.clock.now(),
    );
    expect(answer.statusCode).not.toBe(200);
    expect(answer.json()).toMatchObject({ code: "unexpected_failure" });
  });

  it("seals the secrets an earlier version stored in the clear when a server starts, and one with another key reads none", async () => {
    const keyText = randomBytes(32).toString("base64");
    const member = await confirmedMember(server);
    const { factorId: id, secret } = await enrolTotp(server.app, member.session.access_token, { now: server.clock.now });
    // As an earlier version stored it.
    await server.db.updateTable("mfa_factors").set({ secret }).where("id", "=", id).execute();

    const next = await createTestApp(engine, {
      sharedDatabase: server.testApp.config.database,
      now: server.clock.now,
      env: { AUTH_FACTOR_SECRETS_KEY: keyText, SMTP_URL: server.smtp.url, AUTH_RATE_LIMITS: "false", PUBLIC_URL: server.origin },
    });
    try {
      const stored = await storedSecret(id);
      expect(stored).toMatch(/^enc:v1:/);
      expect(new FactorSecrets(Buffer.from(keyText, "base64")).open(id, stored)).toBe(secret);
      // The enrolment's code was taken once; the next step's opens with the new key.
      server.clock.advance(30);
      expect((await tryCode(next.app, member.session.access_token, id, secret, server.clock.now())).statusCode).toBe(200);
      // The first server, with its own key file, cannot open what the other key sealed.
      const other = await confirmedMember(server);
      const otherFactor = await enrolTotp(server.app, other.session.access_token, { now: server.clock.now });
      server.clock.advance(30);
      const refused = await tryCode(
        next.app,
        other.session.access_token,
        otherFactor.factorId,
        otherFactor.secret,
        server.clock.now(),
      );
      expect(refused.statusCode).toBe(500);
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
