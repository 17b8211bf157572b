import { KeyObject, sign as signBytes } from "node:crypto";
import { calculateJwkThumbprint, errors, exportJWK, generateKeyPair, importJWK, jwtVerify } from "jose";
import type { CryptoKey, JWK, JWSHeaderParameters, JWTPayload, JWTVerifyOptions } from "jose";
import type { JwkObject } from "../../../config";
import { LRUCache } from "lru-cache";
import type { InstanceSettingsRepository } from "../../instance";
import { AppError } from "../../../errors";
import { isUuid } from "../../../lib/uuid";

export interface AmrEntry {
  method: string;
  timestamp: number;
}

/** The access token's claims, as the reference server (GoTrue) writes them. */
export interface AccessTokenClaims {
  sub: string;
  aud: string;
  exp: number;
  iat: number;
  iss: string;
  email: string;
  phone: string;
  role: string;
  aal: "aal1" | "aal2";
  amr: AmrEntry[];
  session_id: string;
  is_anonymous: boolean;
  app_metadata: Record<string, unknown>;
  user_metadata: Record<string, unknown>;
  /** On a session issued through an OAuth 2.1 client (ADR 0075): the client and its granted scopes. */
  client_id?: string;
  scope?: string;
}

/** The only algorithms auth-js can verify locally (`getClaims()`), so the only ones we sign with. */
type SigningAlgorithm = "RS256" | "ES256";
const keyTypes: Record<SigningAlgorithm, "RSA" | "EC"> = { RS256: "RSA", ES256: "EC" };
const asymmetricAlgorithms: SigningAlgorithm[] = ["RS256", "ES256"];

// Members copied explicitly, so configured extras (`key_ops`, `use`, `ext`, …) can neither
// restrict the imported key nor leak a private member into the JWKS.
const publicMembers: Record<SigningAlgorithm, string[]> = { RS256: ["kty", "n", "e"], ES256: ["kty", "crv", "x", "y"] };
const privateMembers: Record<SigningAlgorithm, string[]> = { RS256: ["d", "p", "q", "dp", "dq", "qi"], ES256: ["d"] };

const generatedKeySetting = "auth.generated_signing_key";
const adminRoles = new Set(["service_role", "supabase_admin"]);
const clockToleranceSeconds = 30;
/** Verified access tokens remembered: one per signed-in device, each used for up to an hour. */
const verifiedTokenCacheSize = 1000;
const tenYearsInSeconds = 10 * 365 * 24 * 60 * 60;

interface KeyPair {
  kid: string;
  alg: SigningAlgorithm;
  /** The private key, for node:crypto's synchronous signing. */
  signingKey: KeyObject;
  publicKey: CryptoKey;
  publicJwk: Record<string, unknown>;
}

/**
 * The keys access tokens are signed and verified with. Verification only ever resolves keys
 * from this local set by `kid`, with the algorithm pinned to the key, so `alg: none`, HS256
 * made with a public key, and `jku`/`jwk`/`x5u` headers have nothing to work with.
 */
export class SigningKeys {
  private readonly byKid: ReadonlyMap<string, KeyPair>;
  /**
   * Access tokens whose signature and claims were verified, by their exact text: a client sends
   * the same token with every request until it refreshes, and an ECDSA or RSA verification costs
   * more than the rest of a cached list request. Only the time checks are made again.
   */
  private readonly verifiedAccessTokens = new LRUCache<string, AccessTokenClaims>({ max: verifiedTokenCacheSize });

  private constructor(
    private readonly signer: KeyPair,
    pairs: KeyPair[],
    /** Only for admin tokens; absent unless an HS256 secret is configured. */
    private readonly hsSecret: Uint8Array | undefined,
    private readonly issuer: string,
  ) {
    this.byKid = new Map(pairs.map((pair) => [pair.kid, pair]));
  }

  /** Loads configured private JWKs (RS256/ES256, each with kid; the FIRST signs, all verify). With none configured, uses a generated ES256 key persisted (as a private JWK JSON) in instance_settings under key "auth.generated_signing_key" via putIfAbsent, so all processes sharing a database agree on one key and restarts keep it. */
  static async load(options: {
    keys: JwkObject[];
    hsSecret: string | undefined;
    issuer: string;
    settings: InstanceSettingsRepository;
  }): Promise<SigningKeys> {
    const pairs =
      options.keys.length > 0
        ? await Promise.all(options.keys.map((jwk) => importKeyPair(jwk, describeKid(jwk.kid))))
        : [await loadGeneratedKey(options.settings)];
    const seen = new Set<string>();
    for (const pair of pairs) {
      if (seen.has(pair.kid)) throw new Error(`JWT signing keys: ${describeKid(pair.kid)} is configured twice`);
      seen.add(pair.kid);
    }
    const [signer] = pairs;
    if (!signer) throw new Error("JWT signing keys: no key to sign with");
    const hsSecret = options.hsSecret ? new TextEncoder().encode(options.hsSecret) : undefined;
    return new SigningKeys(signer, pairs, hsSecret, options.issuer);
  }

  /** Public halves only (kty, crv/x/y or n/e, kid, alg, use:"sig", key_ops:["verify"]); never `d` or other private members. */
  jwks(): { keys: Record<string, unknown>[] } {
    return { keys: [...this.byKid.values()].map((pair) => ({ ...pair.publicJwk, key_ops: ["verify"] })) };
  }

  /** Signs an access token: header {alg, typ:"JWT", kid}; iat = now, exp = iat + ttlSeconds, iss = issuer. */
  async signAccessToken(
    claims: Omit<AccessTokenClaims, "iat" | "exp" | "iss">,
    ttlSeconds: number,
    now = new Date(),
  ): Promise<{ token: string; expiresAt: number }> {
    const iat = Math.floor(now.getTime() / 1000);
    const expiresAt = iat + ttlSeconds;
    const token = await this.sign({ ...claims, iss: this.issuer, iat, exp: expiresAt });
    return { token, expiresAt };
  }

  /** Verifies a user access token signed by one of OUR asymmetric keys: alg allow-list RS256/ES256 matched to the key found by kid (only in our local key set; no kid → reject; never honour jku/jwk/x5u), issuer must equal ours, audience "authenticated", exp/nbf with 30 s tolerance, required claims present (sub a UUID, session_id a string). Throws AppError("bad_jwt", "invalid JWT: unable to parse or verify signature, …") on any failure (keep messages generic; never echo the token). */
  async verifyAccessToken(token: string, now = new Date()): Promise<AccessTokenClaims> {
    const verified = this.verifiedAccessTokens.get(token);
    if (verified) {
      assertWithinLifetime(verified, now);
      return verified;
    }
    const payload = await this.verify(token, now, false, {
      issuer: this.issuer,
      audience: "authenticated",
      typ: "JWT",
      requiredClaims: ["exp", "iat"],
    });
    if (typeof payload.sub !== "string" || !isUuid(payload.sub) || typeof payload.session_id !== "string") {
      throw badJwt(invalidClaimsReason);
    }
    const claims = payload as unknown as AccessTokenClaims;
    this.verifiedAccessTokens.set(token, claims);
    return claims;
  }

  /** For admin endpoints: accepts a JWT signed by one of our keys, or HS256 with the configured hsSecret (only if set; HS256 is never accepted when no secret is configured), whose role claim is "service_role" or "supabase_admin" (issuer/audience NOT required for these, as Supabase service keys carry iss "supabase"). Bad signature/format → AppError("bad_jwt"); valid but other role → AppError("not_admin"). Returns the payload. */
  async verifyAdminToken(token: string, now = new Date()): Promise<{ role: string; sub?: string; session_id?: string }> {
    const payload = await this.verify(token, now, true, {});
    if (typeof payload.role !== "string" || !adminRoles.has(payload.role)) throw new AppError("not_admin");
    return { ...payload, role: payload.role, sub: optionalString(payload.sub), session_id: optionalString(payload.session_id) };
  }

  /** A service-role JWT signed with our signing key, for the operator CLI: {role:"service_role", iss, iat, exp = iat + ttlSeconds (default 10 years)}. */
  async signServiceRoleToken(ttlSeconds = tenYearsInSeconds, now = new Date()): Promise<string> {
    const iat = Math.floor(now.getTime() / 1000);
    return this.sign({ role: "service_role", iss: this.issuer, iat, exp: iat + ttlSeconds });
  }

  /**
   * A compact JWS (RFC 7515) signed with node:crypto's synchronous `sign`: jose signs through
   * WebCrypto, a thread-pool job that costs three times as long per token, and every refresh
   * signs one. jose still verifies every token, and the start-up check proves each key signs
   * what jose accepts.
   */
  private async sign(payload: JWTPayload): Promise<string> {
    return signCompactJws({ alg: this.signer.alg, typ: "JWT", kid: this.signer.kid }, payload, this.signer);
  }

  private async verify(
    token: string,
    now: Date,
    allowHs256: boolean,
    checks: JWTVerifyOptions,
  ): Promise<JWTPayload & Record<string, unknown>> {
    const hsSecret = allowHs256 ? this.hsSecret : undefined;
    const algorithms: string[] = hsSecret ? [...asymmetricAlgorithms, "HS256"] : asymmetricAlgorithms;
    // Only `alg` and `kid` are read from the header; the key always comes from our own set.
    const resolveKey = (header: JWSHeaderParameters): CryptoKey | Uint8Array => {
      if (header.alg === "HS256" && hsSecret) return hsSecret;
      const pair = typeof header.kid === "string" ? this.byKid.get(header.kid) : undefined;
      if (!pair || pair.alg !== header.alg) throw new errors.JWKSNoMatchingKey();
      return pair.publicKey;
    };
    try {
      const { payload } = await jwtVerify(token, resolveKey, {
        ...checks,
        algorithms,
        currentDate: now,
        clockTolerance: clockToleranceSeconds,
      });
      return payload;
    } catch (error) {
      throw badJwt(reasonFor(error));
    }
  }
}

/** The ES256 key used when none is configured: generated once per database, then reused by every process. */
async function loadGeneratedKey(settings: InstanceSettingsRepository): Promise<KeyPair> {
  let stored = await settings.get(generatedKeySetting);
  if (stored === undefined) {
    const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
    const kid = await calculateJwkThumbprint(await exportJWK(publicKey));
    stored = await settings.putIfAbsent(
      generatedKeySetting,
      JSON.stringify({ ...(await exportJWK(privateKey)), kid, alg: "ES256" }),
    );
  }
  const label = `the generated JWT signing key (instance setting ${generatedKeySetting})`;
  let jwk: unknown;
  try {
    jwk = JSON.parse(stored);
  } catch {
    throw new Error(`${label} is not valid JSON`);
  }
  if (!isJwkObject(jwk)) throw new Error(`${label} is not a JWK with kid, alg and kty`);
  return importKeyPair(jwk, label);
}

/**
 * Checks and imports one private JWK. Messages name the key by its kid and never include key
 * material; the import error itself is dropped because its cause could echo parameters.
 */
async function importKeyPair(jwk: JwkObject, label: string): Promise<KeyPair> {
  const alg = jwk.alg as SigningAlgorithm;
  if (!asymmetricAlgorithms.includes(alg)) throw new Error(`${label}: alg must be RS256 or ES256`);
  if (jwk.kty !== keyTypes[alg]) throw new Error(`${label}: alg ${alg} needs a key of kty ${keyTypes[alg]}`);
  if (alg === "ES256" && jwk.crv !== "P-256") throw new Error(`${label}: alg ES256 needs the P-256 curve`);
  if (typeof jwk.d !== "string" || jwk.d === "") throw new Error(`${label}: the private part (d) is missing`);
  const publicJwk = pick(jwk, publicMembers[alg]);
  try {
    const privateKey = await importJWK({ ...publicJwk, ...pick(jwk, privateMembers[alg]) }, alg);
    const publicKey = await importJWK(publicJwk, alg);
    if (privateKey instanceof Uint8Array || publicKey instanceof Uint8Array) throw new TypeError("symmetric key");
    // A round trip catches halves that do not belong together and RSA keys under 2048 bits.
    const pair = {
      kid: jwk.kid,
      alg,
      signingKey: KeyObject.from(privateKey),
      publicKey,
      publicJwk: { ...publicJwk, kid: jwk.kid, alg, use: "sig" },
    };
    await jwtVerify(signCompactJws({ alg }, {}, pair), publicKey, { algorithms: [alg] });
    return pair;
  } catch {
    throw new Error(`${label} is not a valid ${alg} private key`);
  }
}

function signCompactJws(header: Record<string, unknown>, payload: JWTPayload, key: Pick<KeyPair, "alg" | "signingKey">): string {
  const input = `${Buffer.from(JSON.stringify(header)).toString("base64url")}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}`;
  // ES256 signatures are the raw r‖s pair in JWS, not DER.
  const signature = signBytes(
    "sha256",
    Buffer.from(input),
    key.alg === "ES256" ? { key: key.signingKey, dsaEncoding: "ieee-p1363" } : key.signingKey,
  );
  return `${input}.${signature.toString("base64url")}`;
}

function describeKid(kid: unknown): string {
  return typeof kid === "string" && kid !== "" ? `JWT signing key ${JSON.stringify(kid)}` : "a JWT signing key without a kid";
}

function pick(jwk: Record<string, unknown>, members: string[]): JWK {
  return Object.fromEntries(members.filter((member) => jwk[member] !== undefined).map((member) => [member, jwk[member]]));
}

function isJwkObject(value: unknown): value is JwkObject {
  if (typeof value !== "object" || value === null) return false;
  const { kid, alg, kty } = value as Record<string, unknown>;
  return typeof kid === "string" && kid !== "" && typeof alg === "string" && typeof kty === "string";
}

function optionalString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

const expiredReason = "token has invalid claims: token is expired";
const invalidClaimsReason = "token has invalid claims";

/** The time checks of a verified token again, as jose makes them (`exp` required, `nbf` optional, same tolerance). */
function assertWithinLifetime(claims: { exp: number; nbf?: unknown }, now: Date): void {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (claims.exp <= nowSeconds - clockToleranceSeconds) throw badJwt(expiredReason);
  if (typeof claims.nbf === "number" && claims.nbf > nowSeconds + clockToleranceSeconds) throw badJwt(invalidClaimsReason);
}

/** A coarse reason in the reference server's words; details stay out of responses. */
function reasonFor(error: unknown): string {
  if (error instanceof errors.JWTExpired) return expiredReason;
  if (error instanceof errors.JWTClaimValidationFailed) return invalidClaimsReason;
  if (error instanceof errors.JWSSignatureVerificationFailed) return "token signature is invalid";
  return "token is malformed or its key is unknown";
}

function badJwt(reason: string): AppError {
  return new AppError("bad_jwt", { message: `invalid JWT: unable to parse or verify signature, ${reason}` });
}
