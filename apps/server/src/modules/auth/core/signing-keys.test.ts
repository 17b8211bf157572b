import { createHmac, createPublicKey, generateKeyPairSync, randomBytes, randomUUID } from "node:crypto";
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, SignJWT } from "jose";
import type { CryptoKey, JWTHeaderParameters, JWTPayload } from "jose";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openMigratedTestDatabase, testEngines } from "../../../../test/test-database";
import type { JwkObject } from "../../../config";
import { AppError } from "../../../errors";
import { InstanceSettingsRepository } from "../../instance/instance-settings.repository";
import { SigningKeys, type AccessTokenClaims } from "./signing-keys";

const issuer = "https://memories.example.org/auth/v1";
const hsSecret = "a-configured-hs256-secret-of-at-least-32-chars";
const generatedKeySetting = "auth.generated_signing_key";
const now = new Date("2026-03-01T12:00:00Z");
const nowSeconds = Math.floor(now.getTime() / 1000);
const privateMembers = ["d", "p", "q", "dp", "dq", "qi", "k"];

// Cases that configure their keys must never reach the database.
const unusedSettings = new Proxy(
  {},
  {
    get: () => {
      throw new Error("settings must not be used when keys are configured");
    },
  },
) as InstanceSettingsRepository;

const loadConfigured = (keys: JwkObject[], secret?: string) =>
  SigningKeys.load({ keys, hsSecret: secret, issuer, settings: unusedSettings });

async function privateJwk(alg: "RS256" | "ES256", kid: string): Promise<JwkObject> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg } as JwkObject;
}

function userClaims(): Omit<AccessTokenClaims, "iat" | "exp" | "iss"> {
  return {
    sub: randomUUID(),
    aud: "authenticated",
    email: "ada@example.org",
    phone: "",
    role: "authenticated",
    aal: "aal1",
    amr: [{ method: "password", timestamp: nowSeconds }],
    session_id: randomUUID(),
    is_anonymous: false,
    app_metadata: { provider: "email", providers: ["email"] },
    user_metadata: { name: "Ada" },
  };
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

function hs256(header: Record<string, unknown>, payload: JWTPayload, secret: string | Buffer): string {
  const signingInput = `${base64url({ ...header, alg: "HS256" })}.${base64url(payload)}`;
  return `${signingInput}.${createHmac("sha256", secret).update(signingInput).digest("base64url")}`;
}

const signWith = (key: CryptoKey, header: JWTHeaderParameters, payload: JWTPayload) =>
  new SignJWT(payload).setProtectedHeader(header).sign(key);

async function expectAuthError(promise: Promise<unknown>, code: "bad_jwt" | "not_admin"): Promise<void> {
  await expect(promise).rejects.toMatchObject({ name: "AppError", statusCode: 403, code });
}

describe.each(testEngines())("SigningKeys persistence on %s", (engine) => {
  let database: Awaited<ReturnType<typeof openMigratedTestDatabase>>;
  let settings: InstanceSettingsRepository;
  beforeEach(async () => {
    database = await openMigratedTestDatabase(engine);
    settings = new InstanceSettingsRepository(database.db);
  });
  afterEach(() => database.close());

  const loadGenerated = () => SigningKeys.load({ keys: [], hsSecret: undefined, issuer, settings });

  it("generates one ES256 key per database and keeps it across loads", async () => {
    const first = await loadGenerated();
    const second = await loadGenerated();
    expect(second.jwks()).toEqual(first.jwks());
    const { token } = await first.signAccessToken(userClaims(), 3600);
    await expect(second.verifyAccessToken(token)).resolves.toMatchObject({ iss: issuer });
    const stored = JSON.parse((await settings.get(generatedKeySetting)) ?? "{}") as Record<string, unknown>;
    expect(stored).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", kid: first.jwks().keys[0]?.kid });
    expect(typeof stored.d).toBe("string");
  });

  it("lets processes starting at once agree on one key", async () => {
    const loaded = await Promise.all([loadGenerated(), loadGenerated(), loadGenerated()]);
    const kids = loaded.map((keys) => keys.jwks().keys.map((key) => key.kid));
    expect(new Set(kids.flat()).size).toBe(1);
    const { token } = await loaded[2].signAccessToken(userClaims(), 3600);
    for (const keys of loaded) await expect(keys.verifyAccessToken(token)).resolves.toBeDefined();
  });

  it("publishes only the public half of the generated key", async () => {
    const { keys } = (await loadGenerated()).jwks();
    expect(keys).toHaveLength(1);
    expect(Object.keys(keys[0] ?? {}).sort()).toEqual(["alg", "crv", "key_ops", "kid", "kty", "use", "x", "y"]);
    expect(keys[0]).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig", key_ops: ["verify"] });
    expect(keys[0]?.kid).toMatch(/^[\w-]{43}$/);
  });

  it("signs with the first configured key, verifies with every one, and stores nothing", async () => {
    const rsa = await privateJwk("RS256", "rsa-2026");
    const ec = await privateJwk("ES256", "ec-2026");
    const rsaFirst = await SigningKeys.load({ keys: [rsa, ec], hsSecret: undefined, issuer, settings });
    const ecFirst = await SigningKeys.load({ keys: [ec, rsa], hsSecret: undefined, issuer, settings });

    const fromRsa = await rsaFirst.signAccessToken(userClaims(), 3600);
    const fromEc = await ecFirst.signAccessToken(userClaims(), 3600);
    expect(decodeProtectedHeader(fromRsa.token)).toMatchObject({ alg: "RS256", kid: "rsa-2026" });
    expect(decodeProtectedHeader(fromEc.token)).toMatchObject({ alg: "ES256", kid: "ec-2026" });
    await expect(rsaFirst.verifyAccessToken(fromEc.token)).resolves.toBeDefined();
    await expect(ecFirst.verifyAccessToken(fromRsa.token)).resolves.toBeDefined();

    const published = rsaFirst.jwks().keys;
    expect(published.map((key) => [key.kid, key.kty, key.alg, key.use, key.key_ops])).toEqual([
      ["rsa-2026", "RSA", "RS256", "sig", ["verify"]],
      ["ec-2026", "EC", "ES256", "sig", ["verify"]],
    ]);
    expect(published[0]).toMatchObject({ n: rsa.n, e: rsa.e });
    expect(published[1]).toMatchObject({ crv: "P-256", x: ec.x, y: ec.y });
    for (const key of published) for (const member of privateMembers) expect(key).not.toHaveProperty(member);
    expect(await settings.get(generatedKeySetting)).toBeUndefined();
  });
});

describe("SigningKeys access tokens", () => {
  it("round-trips the claims with typ, kid and exp = iat + ttl", async () => {
    const keys = await loadConfigured([await privateJwk("ES256", "round-trip")]);
    const claims = userClaims();
    const { token, expiresAt } = await keys.signAccessToken(claims, 900, now);
    expect(decodeProtectedHeader(token)).toEqual({ alg: "ES256", typ: "JWT", kid: "round-trip" });
    const verified = await keys.verifyAccessToken(token, now);
    expect(verified).toEqual({ ...claims, iss: issuer, iat: nowSeconds, exp: nowSeconds + 900 });
    expect(verified.exp - verified.iat).toBe(900);
    expect(expiresAt).toBe(verified.exp);
  });
});

describe.each(["ES256", "RS256"] as const)("SigningKeys rejects forged and invalid tokens (%s)", (alg) => {
  const kid = "our-key";
  let keys: SigningKeys;
  let ourPrivateKey: CryptoKey;
  let ourPublicJwk: Record<string, unknown>;
  let foreignKey: CryptoKey;
  let foreignPublicJwk: Record<string, unknown>;
  beforeAll(async () => {
    const jwk = await privateJwk(alg, kid);
    keys = await loadConfigured([jwk]);
    ourPrivateKey = (await importJWK(jwk, alg)) as CryptoKey;
    ourPublicJwk = keys.jwks().keys[0]!;
    const foreign = await generateKeyPair("ES256");
    foreignKey = foreign.privateKey;
    foreignPublicJwk = await exportJWK(foreign.publicKey);
  });

  const validPayload = (): JWTPayload => ({ ...userClaims(), iss: issuer, iat: nowSeconds, exp: nowSeconds + 3600 });
  const ourHeader = (): JWTHeaderParameters => ({ alg, typ: "JWT", kid });
  const expectRejected = (token: string, at = now) => expectAuthError(keys.verifyAccessToken(token, at), "bad_jwt");

  it("accepts a well-formed token made here (the control for the forgeries below)", async () => {
    await expect(keys.verifyAccessToken(await signWith(ourPrivateKey, ourHeader(), validPayload()), now)).resolves.toBeDefined();
  });

  // Every signature-level forgery must fail for user and admin tokens alike, even though the
  // payload asks for the service role.
  const forgeries: [string, () => Promise<string>][] = [
    ["alg none", async () => `${base64url({ alg: "none", typ: "JWT", kid })}.${base64url(adminPayload())}.`],
    ["HS256 keyed with our public JWK", async () => hs256({ typ: "JWT", kid }, adminPayload(), JSON.stringify(ourPublicJwk))],
    ["HS256 keyed with our PEM public key", async () => hs256({ typ: "JWT", kid }, adminPayload(), publicPem())],
    ["a foreign key using our kid", () => signWith(foreignKey, { alg: "ES256", typ: "JWT", kid }, adminPayload())],
    ["an unknown kid", () => signWith(ourPrivateKey, { ...ourHeader(), kid: "someone-elses" }, adminPayload())],
    ["no kid", () => signWith(ourPrivateKey, { alg, typ: "JWT" }, adminPayload())],
    ["a path in kid", () => signWith(ourPrivateKey, { ...ourHeader(), kid: `../../${kid}` }, adminPayload())],
    ["SQL in kid", () => signWith(ourPrivateKey, { ...ourHeader(), kid: `${kid}' OR '1'='1` }, adminPayload())],
    ["a 10 KB kid", () => signWith(ourPrivateKey, { ...ourHeader(), kid: "k".repeat(10_240) }, adminPayload())],
    [
      "jku/jwk/x5u pointing elsewhere",
      () =>
        signWith(
          foreignKey,
          {
            alg: "ES256",
            typ: "JWT",
            jku: "https://evil.example/jwks.json",
            jwk: foreignPublicJwk,
            x5u: "https://evil.example/cert.pem",
          },
          adminPayload(),
        ),
    ],
    [
      "jku/jwk/x5u with our kid",
      async () =>
        signWith(
          foreignKey,
          { alg: "ES256", typ: "JWT", kid, jku: "https://evil.example/jwks.json", x5u: "https://evil.example/cert.pem" },
          adminPayload(),
        ),
    ],
  ];
  const adminPayload = (): JWTPayload => ({ ...validPayload(), role: "service_role" });
  const publicPem = () =>
    createPublicKey({ key: ourPublicJwk, format: "jwk" }).export({ type: "spki", format: "pem" }).toString();

  it.each(forgeries)("rejects %s", async (_name, forge) => {
    const token = await forge();
    await expectRejected(token);
    await expectAuthError(keys.verifyAdminToken(token, now), "bad_jwt");
  });

  it("rejects HS256 keyed with our public key even when an HS256 secret is configured", async () => {
    const withSecret = await loadConfigured([await privateJwk(alg, kid)], hsSecret);
    const token = hs256({ typ: "JWT", kid }, adminPayload(), JSON.stringify(withSecret.jwks().keys[0]));
    await expectAuthError(withSecret.verifyAdminToken(token, now), "bad_jwt");
    await expectAuthError(withSecret.verifyAccessToken(token, now), "bad_jwt");
  });

  it("tolerates a token expired by 29 s but not by 31 s", async () => {
    const { token } = await keys.signAccessToken(userClaims(), 60, now);
    await expect(keys.verifyAccessToken(token, new Date(now.getTime() + 89_000))).resolves.toBeDefined();
    await expectRejected(token, new Date(now.getTime() + 91_000));
  });

  it("checks the time again when a token verified before comes back (verified tokens are remembered)", async () => {
    const { token } = await keys.signAccessToken(userClaims(), 60, now);
    await expect(keys.verifyAccessToken(token, now)).resolves.toBeDefined();
    await expect(keys.verifyAccessToken(token, new Date(now.getTime() + 89_000))).resolves.toBeDefined();
    await expectRejected(token, new Date(now.getTime() + 91_000));
    const early = await signWith(ourPrivateKey, ourHeader(), { ...validPayload(), nbf: nowSeconds + 30 });
    await expect(keys.verifyAccessToken(early, now)).resolves.toBeDefined();
    await expectRejected(early, new Date(now.getTime() - 2_000));
  });

  it("tolerates nbf 30 s ahead but not 31 s", async () => {
    const early = await signWith(ourPrivateKey, ourHeader(), { ...validPayload(), nbf: nowSeconds + 30 });
    await expect(keys.verifyAccessToken(early, now)).resolves.toBeDefined();
    await expectRejected(await signWith(ourPrivateKey, ourHeader(), { ...validPayload(), nbf: nowSeconds + 31 }));
  });

  it.each<[string, (payload: JWTPayload) => JWTPayload]>([
    ["a wrong iss", (payload) => ({ ...payload, iss: "https://other.example.org/auth/v1" })],
    ["no iss", ({ iss: _iss, ...payload }) => payload],
    ["a wrong aud", (payload) => ({ ...payload, aud: "service" })],
    ["no exp", ({ exp: _exp, ...payload }) => payload],
    ["no session_id", ({ session_id: _sessionId, ...payload }) => payload],
    ["a session_id that is not a string", (payload) => ({ ...payload, session_id: 42 })],
    ["a sub that is not a UUID", (payload) => ({ ...payload, sub: "../admin" })],
  ])("rejects a token signed by our key with %s", async (_name, change) => {
    await expectRejected(await signWith(ourPrivateKey, ourHeader(), change(validPayload())));
  });

  it("rejects a token whose payload was altered after signing", async () => {
    const token = await signWith(ourPrivateKey, ourHeader(), validPayload());
    const [header = "", payload = "", signature = ""] = token.split(".");
    const flipped = Buffer.from(payload, "base64url");
    flipped[10] = flipped[10]! ^ 0x01;
    await expectRejected(`${header}.${flipped.toString("base64url")}.${signature}`);
    const promoted = base64url({ ...decodeJwt(token), role: "service_role" });
    await expectRejected(`${header}.${promoted}.${signature}`);
    await expectAuthError(keys.verifyAdminToken(`${header}.${promoted}.${signature}`, now), "bad_jwt");
  });

  it.each(["", "a.b", "a.b.c", "..", [0, 0, 0].map(() => randomBytes(24).toString("base64url")).join("."), "not a jwt at all"])(
    "rejects the garbage %j",
    async (garbage) => {
      await expectRejected(garbage);
      await expectAuthError(keys.verifyAdminToken(garbage, now), "bad_jwt");
    },
  );

  it("keeps error messages generic", async () => {
    const token = await signWith(foreignKey, { alg: "ES256", typ: "JWT", kid }, validPayload());
    const error = await keys.verifyAccessToken(token, now).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as Error).message).toMatch(/^invalid JWT: unable to parse or verify signature, /);
    expect((error as Error).message).not.toContain(token.split(".")[1]);
  });
});

describe("SigningKeys admin tokens", () => {
  let keys: SigningKeys;
  let withSecret: SigningKeys;
  beforeAll(async () => {
    const jwk = await privateJwk("ES256", "admin-test");
    keys = await loadConfigured([jwk]);
    withSecret = await loadConfigured([jwk], hsSecret);
  });

  // Shaped like a legacy Supabase service_role key: HS256, no kid, iss "supabase", no aud.
  const supabaseServiceKey = (secret: string, role = "service_role") =>
    new SignJWT({ role, iss: "supabase", iat: nowSeconds, exp: nowSeconds + 3600 })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .sign(new TextEncoder().encode(secret));

  it("accepts the operator's service-role token, valid for ten years by default", async () => {
    const token = await keys.signServiceRoleToken(undefined, now);
    const payload = decodeJwt(token);
    expect(payload).toEqual({ role: "service_role", iss: issuer, iat: nowSeconds, exp: nowSeconds + 10 * 365 * 24 * 3600 });
    expect(decodeProtectedHeader(token)).toEqual({ alg: "ES256", typ: "JWT", kid: "admin-test" });
    await expect(keys.verifyAdminToken(token, now)).resolves.toMatchObject({ role: "service_role" });
    // It is not a user access token.
    await expectAuthError(keys.verifyAccessToken(token, now), "bad_jwt");
  });

  it("rejects an expired service-role token", async () => {
    const token = await keys.signServiceRoleToken(60, now);
    await expectAuthError(keys.verifyAdminToken(token, new Date(now.getTime() + 91_000)), "bad_jwt");
  });

  it("accepts HS256 service-role and supabase_admin tokens made with the configured secret", async () => {
    await expect(withSecret.verifyAdminToken(await supabaseServiceKey(hsSecret), now)).resolves.toMatchObject({
      role: "service_role",
    });
    await expect(withSecret.verifyAdminToken(await supabaseServiceKey(hsSecret, "supabase_admin"), now)).resolves.toMatchObject({
      role: "supabase_admin",
    });
  });

  it("never accepts HS256 for user access tokens", async () => {
    const token = await new SignJWT({ ...userClaims(), iss: issuer, iat: nowSeconds, exp: nowSeconds + 3600 })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .sign(new TextEncoder().encode(hsSecret));
    await expectAuthError(withSecret.verifyAccessToken(token, now), "bad_jwt");
  });

  it("rejects HS256 when no secret is configured", async () => {
    await expectAuthError(keys.verifyAdminToken(await supabaseServiceKey(hsSecret), now), "bad_jwt");
  });

  it("rejects HS256 made with another secret", async () => {
    await expectAuthError(
      withSecret.verifyAdminToken(await supabaseServiceKey("another-secret-that-is-32-characters-long"), now),
      "bad_jwt",
    );
  });

  it("answers not_admin for a valid token of another role", async () => {
    const { token } = await keys.signAccessToken(userClaims(), 3600, now);
    await expectAuthError(keys.verifyAdminToken(token, now), "not_admin");
    await expectAuthError(withSecret.verifyAdminToken(await supabaseServiceKey(hsSecret, "anon"), now), "not_admin");
  });

  it("returns sub and session_id when the admin token carries them", async () => {
    const claims = { ...userClaims(), role: "service_role" };
    const { token } = await keys.signAccessToken(claims, 3600, now);
    await expect(keys.verifyAdminToken(token, now)).resolves.toMatchObject({
      role: "service_role",
      sub: claims.sub,
      session_id: claims.session_id,
    });
  });
});

describe("SigningKeys refuses invalid configured keys", () => {
  async function expectLoadError(jwk: JwkObject): Promise<void> {
    const error = await loadConfigured([jwk]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toContain(JSON.stringify(jwk.kid));
    for (const value of Object.values(jwk)) {
      if (typeof value === "string" && value.length > 16) expect(message).not.toContain(value);
    }
  }

  it("refuses a key without its private part", async () => {
    const { publicKey } = await generateKeyPair("ES256", { extractable: true });
    await expectLoadError({ ...(await exportJWK(publicKey)), kid: "public-only", alg: "ES256" } as JwkObject);
  });

  it("refuses a key whose kty does not fit its alg", async () => {
    await expectLoadError({ ...(await privateJwk("ES256", "ec-as-rsa")), alg: "RS256" });
    await expectLoadError({ ...(await privateJwk("RS256", "rsa-as-ec")), alg: "ES256" });
  });

  it("refuses halves that do not belong together", async () => {
    const ours = await privateJwk("ES256", "mixed");
    const other = await privateJwk("ES256", "other");
    await expectLoadError({ ...ours, x: other.x, y: other.y });
  });

  it("refuses an RSA key under 2048 bits", async () => {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 1024 });
    await expectLoadError({ ...privateKey.export({ format: "jwk" }), kid: "short-rsa", alg: "RS256" } as JwkObject);
  });

  it("refuses a kid used twice", async () => {
    const jwk = await privateJwk("ES256", "twice");
    await expect(loadConfigured([jwk, { ...(await privateJwk("ES256", "x")), kid: "twice" }])).rejects.toThrow(/"twice"/);
  });
});
