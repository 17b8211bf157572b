import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { decodeJwt, exportJWK, generateKeyPair } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, openMigratedTestDatabase, type TestDatabase, testEngines } from "../../test/test-database";
import { type Config, loadConfig } from "../config";
import type { DatabaseHandle } from "../db/database";
import { InstanceSettingsRepository } from "../modules/instance/instance-settings.repository";
import { SigningKeys } from "../modules/auth/core/signing-keys";
import { UsageError } from "./command";
import { runCli } from "./run-cli";
import { serviceTokenCommand } from "./service-token.command";

const day = 24 * 60 * 60;

describe.each(testEngines())("the service-token command on %s", (engine) => {
  let database: DatabaseHandle & { close(): Promise<void> };
  let config: Config;
  let lines: string[];

  const serviceToken = (...args: string[]) =>
    serviceTokenCommand.run({ args, db: database.db, out: (line) => lines.push(line), config });
  /** The server's own keys over the same database, as the admin API verifies with them. */
  const serverKeys = () =>
    SigningKeys.load({
      keys: config.auth.jwtKeys,
      hsSecret: undefined,
      issuer: config.auth.jwtIssuer,
      settings: new InstanceSettingsRepository(database.db),
    });

  beforeAll(async () => {
    database = await openMigratedTestDatabase(engine);
    config = loadConfig({ DATA_DIR: os.tmpdir(), PUBLIC_URL: "https://memories.example.org" });
  });
  afterAll(() => database.close());
  beforeEach(() => {
    lines = [];
  });

  it("prints only a service-role token, valid ten years, that the server accepts as admin", async () => {
    await serviceToken();
    expect(lines).toHaveLength(1);
    const token = lines[0]!;
    expect(await (await serverKeys()).verifyAdminToken(token)).toMatchObject({ role: "service_role" });
    const claims = decodeJwt(token);
    expect(claims.iss).toBe("https://memories.example.org/auth/v1");
    expect(claims.exp! - claims.iat!).toBe(3650 * day);
  });

  it("makes the token valid for --days N", async () => {
    await serviceToken("--days", "7");
    const claims = decodeJwt(lines[0]!);
    expect(claims.exp! - claims.iat!).toBe(7 * day);
  });

  it("signs with the first configured key when AUTH_JWT_KEYS is set", async () => {
    const { privateKey } = await generateKeyPair("ES256", { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), kid: "operator-key", alg: "ES256" };
    const configured = loadConfig({ DATA_DIR: os.tmpdir(), AUTH_JWT_KEYS: JSON.stringify([jwk]) });
    await serviceTokenCommand.run({ args: [], db: database.db, out: (line) => lines.push(line), config: configured });
    const keys = await SigningKeys.load({
      keys: configured.auth.jwtKeys,
      hsSecret: undefined,
      issuer: configured.auth.jwtIssuer,
      settings: new InstanceSettingsRepository(database.db),
    });
    expect(await keys.verifyAdminToken(lines[0]!)).toMatchObject({ role: "service_role" });
    await expect((await serverKeys()).verifyAdminToken(lines[0]!)).rejects.toMatchObject({ code: "bad_jwt" });
  });

  it.each([
    [["--days", "0"], /--days must be a whole number from 1 to 36500/],
    [["--days", "1.5"], /--days must be a whole number/],
    [["--days", "99999"], /--days must be a whole number/],
    [["--days"], /argument missing/],
    [["--bogus"], /Unknown option '--bogus'/],
    [["extra"], /takes no arguments/],
  ])("rejects the arguments %j as a usage error", async (args, message) => {
    const error: unknown = await serviceToken(...args).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toMatch(message);
    expect(lines).toEqual([]);
  });

  it("prints its usage for --help", async () => {
    await serviceToken("--help");
    expect(lines.join("\n")).toContain("service-token --days N");
  });
});

describe.each(testEngines())("runCli service-token on %s", (engine) => {
  let testDatabase: TestDatabase;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    testDatabase = await createTestDatabase(engine);
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-cli-"));
    const { config } = testDatabase;
    env = { DATA_DIR: dataDir, DATABASE_URL: config.engine === "sqlite" ? `sqlite:${config.file}` : config.url };
  });
  afterAll(async () => {
    await testDatabase.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it("migrates a fresh database and prints a token signed with the key it generates there", async () => {
    const out: string[] = [];
    const err: string[] = [];
    expect(
      await runCli(["service-token", "--days", "30"], { env, out: (line) => out.push(line), err: (line) => err.push(line) }),
    ).toBe(0);
    expect(err).toEqual([]);
    expect(out).toHaveLength(1);
    expect(decodeJwt(out[0]!)).toMatchObject({ role: "service_role" });
    // A second run reuses the stored key, so earlier tokens stay valid.
    const again: string[] = [];
    await runCli(["service-token"], { env, out: (line) => again.push(line), err: (line) => err.push(line) });
    const header = (token: string) => JSON.parse(Buffer.from(token.split(".")[0]!, "base64url").toString()) as { kid: string };
    expect(header(again[0]!).kid).toBe(header(out[0]!).kid);
  });

  it("exits 1 with the usage for bad arguments", async () => {
    const err: string[] = [];
    expect(await runCli(["service-token", "--days", "zero"], { env, out: () => undefined, err: (line) => err.push(line) })).toBe(
      1,
    );
    expect(err.join("\n")).toMatch(
      /--days must be a whole number[\s\S]*Usage:\n {2}node apps\/server\/dist\/cli\.js service-token/,
    );
  });
});
