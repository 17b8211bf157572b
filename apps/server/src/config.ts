import path from "node:path";
import { z } from "zod";
import packageJson from "../../../package.json" with { type: "json" };
import { parseStorageUrl } from "./lib/storage-url";

/**
 * The server's whole configuration, parsed from the environment in one place.
 * Every variable is documented in the configuration tables of docs/operating.md and docs/auth.md; keep them in step.
 */
export interface Config {
  host: string;
  port: number;
  /** Origin used in links the server writes (e-mails, redirects). */
  publicUrl: string;
  dataDir: string;
  database: DatabaseConfig;
  /** Unset: files under `{dataDir}/storage`. */
  storageUrl: string | undefined;
  /** Below this much free space (MB) where photos are stored, health reports `low_space`. */
  storageMinFreeMb: number;
  smtpUrl: string | undefined;
  /** Sender of every e-mail. */
  mailFrom: string;
  logLevel: LogLevel;
  /** Use X-Forwarded-For for client addresses (rate limits, audit log); only behind a proxy you run. */
  trustProxy: boolean;
  auth: AuthConfig;
  photos: PhotosConfig;
  videos: VideosConfig;
  backups: BackupsConfig;
  /** "On this day" takes memories dated this many days either side of the member's date. */
  onThisDayWindowDays: number;
  maps: MapsConfig;
  push: PushConfig;
  /** The built web app; served at `/` when it exists. */
  webDir: string;
  version: string;
}

/** Web Push notifications (ADR 0059). */
export interface PushConfig {
  /**
   * The VAPID key pair (PUSH_VAPID_PUBLIC_KEY, PUSH_VAPID_PRIVATE_KEY, base64url as web-push writes
   * them); unset: a pair generated at first start and kept in the instance settings.
   */
  vapidKeys: { publicKey: string; privateKey: string } | undefined;
  /** Who push services may contact about this server (PUSH_VAPID_SUBJECT): a mailto: or https: URL. */
  vapidSubject: string;
  /**
   * Subscriptions may name http:// endpoints and loopback or private addresses
   * (PUSH_ALLOW_INSECURE_ENDPOINTS): only for a push service on the operator's own network, or tests.
   */
  allowInsecureEndpoints: boolean;
}

/** The places map's basemap (ADR 0057). */
export interface MapsConfig {
  /** A MapLibre style (MAP_STYLE_URL); unset: the web app's embedded world map. */
  styleUrl: string | undefined;
  /**
   * Origins the page may fetch map content from (CSP connect-src and img-src): the style's own
   * and MAP_CONTENT_ORIGINS (tiles, glyphs and sprites on other hosts). Empty without a style.
   */
  contentOrigins: string[];
}

export interface AuthConfig {
  /** Only addresses on the invitation list may sign up or sign in. */
  inviteOnly: boolean;
  /**
   * `/otp` without account creation for an address no account uses: `refuse` answers 422
   * `otp_disabled` as Supabase Auth does; `hide` answers as for a member (ADR 0023).
   */
  otpUnknownAddress: "refuse" | "hide";
  /** New accounts are confirmed at once, without a confirmation e-mail. */
  autoconfirm: boolean;
  /**
   * `POST /signup` without an address signs in an anonymous account (ADR 0072), as Supabase Auth's
   * anonymous sign-ins: only for an open installation, and never a member of the collection.
   */
  anonymousSignIns: boolean;
  signupDisabled: boolean;
  passwordMinLength: number;
  /** Least zxcvbn score (0–4) a new password needs; 0 turns the guessability rule off (ADR 0015). */
  passwordMinStrength: number;
  accessTokenTtlSeconds: number;
  /** How long a rotated refresh token may still be presented (two tabs refreshing at once). */
  refreshTokenReuseIntervalSeconds: number;
  emailLinkTtlSeconds: number;
  /** The least time between two e-mails of one kind to one user. */
  emailMinIntervalSeconds: number;
  /** A password change in a session older than a day needs a nonce from /reauthenticate. */
  passwordChangeRequiresReauthentication: boolean;
  rateLimits: AuthRateLimits | false;
  /** Private JWKs (RS256/ES256, each with a kid); the first signs. Empty: a generated ES256 key. */
  jwtKeys: JwkObject[];
  /** Optional HS256 secret that service-role tokens may be signed with. */
  jwtSecret: string | undefined;
  /** The key (32 bytes) authenticator secrets are sealed with; unset: the key file in DATA_DIR (ADR 0041). */
  factorSecretsKey: Buffer | undefined;
  jwtIssuer: string;
  /** Where links send people by default. */
  siteUrl: string;
  /** Further allowed redirect targets; `*` matches within a path segment, `**` across segments. */
  redirectUrls: string[];
  /** Who passkeys and security keys are registered with (ADR 0025). */
  webauthn: WebauthnConfig;
  /** OpenID Connect providers members may sign in with (ADR 0034); empty: none. */
  oidcProviders: OidcProviderConfig[];
  /** Sign-in with a wallet a member connected (ADR 0035). */
  web3: Web3Config;
  /** SAML 2.0 single sign-on with identity providers registered through the admin API (ADR 0036). */
  samlEnabled: boolean;
  /**
   * Hosts an identity provider's metadata may be fetched from although they are, or resolve to,
   * loopback or private addresses; any other such address is refused (ADR 0045).
   */
  samlMetadataAllowedHosts: string[];
}

/** Which chains' wallets may sign in, and how long a signed message stays good (ADR 0035). */
export interface Web3Config {
  ethereum: boolean;
  solana: boolean;
  /** A message is refused this long after (or before) its `Issued At`, as Supabase Auth's maximum validity. */
  maxAgeSeconds: number;
}

/** One OpenID Connect provider of `AUTH_OIDC_PROVIDERS`. */
export interface OidcProviderConfig {
  /** The provider name clients use (`provider=google`), as Supabase Auth names its providers. */
  id: string;
  /** What the sign-in page's button says: "Continue with {name}". */
  name: string;
  issuer: string;
  clientId: string;
  /** Unset for a public client, which then proves itself with PKCE alone. */
  clientSecret: string | undefined;
  /** Always with `openid` and `email`: the e-mail address is what the invitation list is checked against. */
  scopes: string[];
}

/** The WebAuthn relying party: its id (a host name) and the origins its ceremonies may come from. */
export interface WebauthnConfig {
  rpId: string;
  rpName: string;
  origins: string[];
}

/** Requests per five minutes per client address. */
export interface AuthRateLimits {
  /** Every `POST /token` grant but `web3`, which has its own count, as in Supabase Auth. */
  token: number;
  web3: number;
  /** Single sign-on starts and answers (`POST /sso`, the assertion consumer), each counted apart. */
  sso: number;
  verify: number;
  email: number;
  inviteCheck: number;
}

export type JwkObject = Record<string, unknown> & { kid: string; alg: string; kty: string };

export interface PhotosConfig {
  maxUploadBytes: number;
  maxMegapixels: number;
  /** Key of the photo access cookies; unset: a generated key kept in the database. */
  urlSecret: string | undefined;
  /** Lifetime of a photo access cookie and of a browser's cached copy of a photo, in seconds. */
  accessTtlSeconds: number;
  /** Photo files no row names are removed once this old (ms). */
  orphanGraceMs: number;
}

export interface VideosConfig {
  /** Largest video file accepted, in bytes. */
  maxBytes: number;
  /** Longest video accepted, in seconds. */
  maxSeconds: number;
  /** The operator's own ffmpeg; unset: the binary of the `@ffmpeg-installer/ffmpeg` package (ADR 0053). */
  ffmpegPath: string | undefined;
  /** The operator's own ffprobe; unset: the binary of the `@ffprobe-installer/ffprobe` package. */
  ffprobePath: string | undefined;
  /** How many media jobs (posters, web renditions) one server process runs at once (ADR 0054). */
  jobConcurrency: number;
}

export type BackupSchedule = "hourly" | "daily" | "weekly" | "off";

export interface BackupsConfig {
  /** Where snapshots go; unset: the server takes none (`npm run backup -- --to DIR` still can). */
  dir: string | undefined;
  /** How often the server takes one itself, when `dir` is set. */
  schedule: BackupSchedule;
  /** How many snapshots stay; older ones are removed after each new one. */
  keep: number;
}

export type DatabaseConfig = { engine: "sqlite"; file: string } | { engine: "postgres"; url: string };

const logLevels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof logLevels)[number];

/** Thrown when the environment is invalid; its message lists every bad variable at once. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

/** Comma-separated entries, blanks dropped. */
const commaList = optionalText.transform((value) =>
  (value ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean),
);

const url = (protocols: string[], hint: string) =>
  optionalText.refine((value) => value === undefined || matchesProtocol(value, protocols), {
    message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(" or ")} (${hint})`,
  });

const flag = (fallback: boolean) =>
  optionalText
    .refine((value) => value === undefined || /^(true|false|1|0|on|off|yes|no)$/i.test(value), {
      message: "must be true or false",
    })
    .transform((value) => (value === undefined ? fallback : /^(true|1|on|yes)$/i.test(value)));

const count = (fallback: number, min = 1) => z.coerce.number().int().min(min).default(fallback);

/** A program the server runs: an absolute path, never looked up in PATH nor run through a shell. */
const executablePath = optionalText.refine((value) => value === undefined || path.isAbsolute(value), {
  message: "must be the absolute path of the program, such as /usr/bin/ffmpeg",
});

const jwkSet = optionalText.transform((value, context): JwkObject[] => {
  if (value === undefined) return [];
  const jwk = z
    .object({ kid: z.string().min(1), alg: z.enum(["RS256", "ES256"]), kty: z.enum(["RSA", "EC"]), d: z.string().min(1) })
    .loose();
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    context.addIssue({ code: "custom", message: 'must be a JSON Web Key Set ({"keys": [...]}) or an array of private JWKs' });
    return z.NEVER;
  }
  const parsed = z
    .union([z.object({ keys: z.array(jwk).min(1) }).transform((set) => set.keys), z.array(jwk).min(1)])
    .safeParse(json);
  if (!parsed.success) {
    context.addIssue({ code: "custom", message: "every key needs kid, alg (RS256 or ES256), kty and its private part d" });
    return z.NEVER;
  }
  return parsed.data;
});

/** Names Supabase Auth gives to ways in that are not OpenID Connect providers. */
const reservedProviderIds = new Set(["email", "phone", "anonymous", "anonymous_users", "sso", "saml", "web3"]);

const oidcProviderList = optionalText.transform((value, context): OidcProviderConfig[] => {
  if (value === undefined) return [];
  const problem = (message: string) => {
    context.addIssue({ code: "custom", message });
    return z.NEVER;
  };
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    return problem('must be a JSON array of {"id", "name", "issuer", "client_id", "client_secret", "scopes"}');
  }
  if (!Array.isArray(json)) return problem('must be a JSON array of {"id", "name", "issuer", "client_id", ...} objects');
  const providers: OidcProviderConfig[] = [];
  const problems: string[] = [];
  json.forEach((entry: unknown, index) => {
    const label = `entry ${index + 1}`;
    const parsed = oidcProviderEntry.safeParse(entry);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problems.push(`${label}: ${[...issue.path, issue.message].join(" ")}`);
      return;
    }
    const provider = parsed.data;
    if (providers.some((other) => other.id === provider.id)) problems.push(`${label}: id "${provider.id}" is used twice`);
    else providers.push(provider);
  });
  if (problems.length > 0) return problem(problems.join("; "));
  return providers;
});

const oidcProviderEntry = z
  .object(
    {
      id: z
        .string({ error: "is required" })
        .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, {
          message: "must be 1 to 40 lower-case letters, digits, - or _ (the name clients use, such as google or keycloak)",
        })
        .refine((id) => !reservedProviderIds.has(id), { message: "names a built-in way in; choose another id" }),
      name: z
        .string({ error: "is required" })
        .trim()
        .min(1, { message: "must not be empty" })
        .max(40, { message: "must be at most 40 characters" }),
      issuer: z.string({ error: "is required" }).refine(isIssuerUrl, {
        message: "must be the provider's issuer URL, https:// (http:// only on localhost), such as https://accounts.google.com",
      }),
      client_id: z.string({ error: "is required" }).trim().min(1, { message: "must not be empty" }),
      client_secret: z
        .string({ error: "must be a string" })
        .optional()
        .transform((secret) => (secret === "" ? undefined : secret)),
      scopes: z
        .union([z.string(), z.array(z.string())], { error: 'must be a string ("openid email profile") or an array of scopes' })
        .optional()
        .transform((scopes) => (Array.isArray(scopes) ? scopes : (scopes ?? "openid email profile").split(/\s+/)).filter(Boolean))
        .refine((scopes) => scopes.includes("openid") && scopes.includes("email"), {
          message: "must include openid and email: the provider's e-mail address is checked against the invitation list",
        }),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys" ? `has unknown keys (${issue.keys.join(", ")})` : "must be an object",
    },
  )
  .strict()
  .transform((entry): OidcProviderConfig => ({
    id: entry.id,
    name: entry.name,
    issuer: entry.issuer,
    clientId: entry.client_id,
    clientSecret: entry.client_secret,
    scopes: entry.scopes,
  }));

const environmentSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
    HOST: optionalText.default("127.0.0.1"),
    DATA_DIR: optionalText.default("./data"),
    DATABASE_URL: url(["postgres:", "postgresql:", "sqlite:"], "postgres://user:pass@host/db or sqlite:path/to/file.sqlite"),
    STORAGE_URL: optionalText.superRefine((value, context) => {
      if (value === undefined) return;
      try {
        parseStorageUrl(value);
      } catch (error) {
        context.addIssue({
          code: "custom",
          message: `${error instanceof Error ? error.message : "is not valid"} (s3://bucket?endpoint=…&region=… or file:///absolute/folder)`,
        });
      }
    }),
    PUBLIC_URL: url(["http:", "https:"], "the origin members open, such as https://memories.example.org"),
    SMTP_URL: url(["smtp:", "smtps:"], "smtp://user:pass@host:port"),
    MAIL_FROM: optionalText,
    LOG_LEVEL: z.enum(logLevels).default("info"),
    TRUST_PROXY: flag(false),
    AUTH_INVITE_ONLY: flag(true),
    AUTH_AUTOCONFIRM: flag(false),
    AUTH_ANONYMOUS_SIGN_INS: flag(false),
    AUTH_SIGNUP_DISABLED: flag(false),
    AUTH_OTP_UNKNOWN_ADDRESS: z.enum(["refuse", "hide"]).default("refuse"),
    AUTH_PASSWORD_MIN_LENGTH: count(8, 6).pipe(z.number().max(72)),
    AUTH_PASSWORD_MIN_STRENGTH: count(3, 0).pipe(z.number().max(4)),
    AUTH_ACCESS_TOKEN_TTL: count(3600, 300),
    AUTH_REFRESH_TOKEN_REUSE_INTERVAL: count(10, 0),
    AUTH_EMAIL_LINK_TTL: count(3600, 300),
    AUTH_EMAIL_MIN_INTERVAL: count(60, 0),
    AUTH_PASSWORD_CHANGE_REQUIRES_REAUTHENTICATION: flag(true),
    AUTH_RATE_LIMITS: flag(true),
    AUTH_RATE_LIMIT_TOKEN: count(150),
    AUTH_RATE_LIMIT_WEB3: count(30),
    AUTH_RATE_LIMIT_SSO: count(30),
    AUTH_RATE_LIMIT_VERIFY: count(30),
    AUTH_RATE_LIMIT_EMAIL: count(30),
    AUTH_RATE_LIMIT_INVITE_CHECK: count(30),
    AUTH_JWT_KEYS: jwkSet,
    PHOTO_MAX_UPLOAD_MB: count(25).pipe(z.number().max(1024)),
    PHOTO_MAX_MEGAPIXELS: count(50).pipe(z.number().max(500)),
    PHOTO_ACCESS_TTL: count(600, 30).pipe(z.number().max(600)),
    VIDEO_MAX_BYTES: count(2 * 1024 ** 3).pipe(z.number().max(Number.MAX_SAFE_INTEGER)),
    VIDEO_MAX_SECONDS: count(600).pipe(z.number().max(24 * 3600)),
    FFMPEG_PATH: executablePath,
    FFPROBE_PATH: executablePath,
    MEDIA_JOBS_CONCURRENCY: count(1).pipe(z.number().max(16)),
    STORAGE_MIN_FREE_MB: count(1024, 0),
    PHOTO_ORPHAN_GRACE_HOURS: count(24, 0),
    BACKUP_DIR: optionalText,
    BACKUP_SCHEDULE: z.enum(["hourly", "daily", "weekly", "off"]).default("daily"),
    BACKUP_KEEP: count(7, 1),
    ON_THIS_DAY_WINDOW_DAYS: count(3, 0).pipe(z.number().max(15)),
    PHOTO_URL_SECRET: optionalText.refine((value) => value === undefined || value.length >= 32, {
      message: "must be at least 32 characters",
    }),
    AUTH_JWT_SECRET: optionalText.refine((value) => value === undefined || value.length >= 32, {
      message: "must be at least 32 characters",
    }),
    AUTH_FACTOR_SECRETS_KEY: optionalText.refine((value) => value === undefined || keyOf32Bytes(value) !== undefined, {
      message: "must be 32 random bytes in base64 (openssl rand -base64 32)",
    }),
    AUTH_SITE_URL: url(["http:", "https:"], "the address of the web app"),
    AUTH_REDIRECT_URLS: commaList,
    AUTH_WEBAUTHN_RP_ID: optionalText.refine((value) => value === undefined || /^[a-z0-9.-]+$/i.test(value), {
      message: "must be a host name, such as memories.example.org",
    }),
    AUTH_OIDC_PROVIDERS: oidcProviderList,
    AUTH_WEB3_ETHEREUM_ENABLED: flag(false),
    AUTH_WEB3_SOLANA_ENABLED: flag(false),
    AUTH_WEB3_MESSAGE_MAX_AGE: count(600, 30).pipe(z.number().max(3600)),
    AUTH_SAML_ENABLED: flag(false),
    AUTH_SAML_METADATA_ALLOWED_HOSTS: commaList.transform((hosts) =>
      hosts.map((host) => host.toLowerCase().replace(/^\[(.*)\]$/, "$1")),
    ),
    AUTH_WEBAUTHN_ORIGINS: commaList.refine((origins) => origins.every(isOrigin), {
      message: "must be origins separated by commas, such as https://memories.example.org",
    }),
    PUSH_VAPID_PUBLIC_KEY: optionalText.refine((value) => value === undefined || /^[A-Za-z0-9_-]{87}$/.test(value), {
      message: "must be a VAPID public key: 65 bytes in base64url (npx web-push generate-vapid-keys)",
    }),
    PUSH_VAPID_PRIVATE_KEY: optionalText.refine((value) => value === undefined || /^[A-Za-z0-9_-]{43}$/.test(value), {
      message: "must be a VAPID private key: 32 bytes in base64url (npx web-push generate-vapid-keys)",
    }),
    PUSH_VAPID_SUBJECT: url(["mailto:", "https:"], "how push services reach the operator, such as mailto:admin@example.org"),
    PUSH_ALLOW_INSECURE_ENDPOINTS: flag(false),
    MAP_STYLE_URL: optionalText.refine((value) => value === undefined || isWebUrl(value), {
      message:
        "must be the http:// or https:// URL of a MapLibre style, such as https://tiles.example.org/styles/basic/style.json (unset: the embedded world map)",
    }),
    MAP_CONTENT_ORIGINS: commaList.refine((origins) => origins.every(isOrigin), {
      message: "must be http:// or https:// origins separated by commas, such as https://tiles.example.org",
    }),
  })
  .superRefine((vars, context) => {
    if ((vars.PUSH_VAPID_PUBLIC_KEY === undefined) !== (vars.PUSH_VAPID_PRIVATE_KEY === undefined)) {
      context.addIssue({
        code: "custom",
        path: [vars.PUSH_VAPID_PUBLIC_KEY === undefined ? "PUSH_VAPID_PUBLIC_KEY" : "PUSH_VAPID_PRIVATE_KEY"],
        message: "must be set together with the other half of the VAPID key pair (or neither, for a generated pair)",
      });
    }
    // Autoconfirm gives a session to whoever signs up, before anyone proved the mailbox: with an
    // invitation list, anyone who knows an invited address would get in as that member (ADR 0014).
    if (vars.AUTH_AUTOCONFIRM && vars.AUTH_INVITE_ONLY) {
      context.addIssue({
        code: "custom",
        path: ["AUTH_AUTOCONFIRM"],
        message:
          "cannot be true while AUTH_INVITE_ONLY is true: it would let anyone who knows an invited address sign up as that member. Members confirm by e-mail; set AUTH_INVITE_ONLY=false only for an open installation",
      });
    }
    // An anonymous account has no address to invite: with an invitation list it could only be refused.
    if (vars.AUTH_ANONYMOUS_SIGN_INS && vars.AUTH_INVITE_ONLY) {
      context.addIssue({
        code: "custom",
        path: ["AUTH_ANONYMOUS_SIGN_INS"],
        message:
          "cannot be true while AUTH_INVITE_ONLY is true: an anonymous account has no invited address. Set AUTH_INVITE_ONLY=false only for an open installation",
      });
    }
    // A browser offers a passkey only to pages whose host is the relying party id or under it.
    // Checked only over values that parsed: a bad PORT or PUBLIC_URL has its own message.
    if (vars.MAP_CONTENT_ORIGINS.length > 0 && vars.MAP_STYLE_URL === undefined) {
      context.addIssue({
        code: "custom",
        path: ["MAP_CONTENT_ORIGINS"],
        message: "names where a map style's tiles come from: set MAP_STYLE_URL too, or leave it unset for the embedded world map",
      });
    }
    if (context.issues.length > 0) return;
    const webauthn = webauthnConfig(vars);
    const stray = webauthn.origins.filter((origin) => !hostIsWithin(new URL(origin).hostname, webauthn.rpId));
    if (stray.length > 0) {
      context.addIssue({
        code: "custom",
        path: [vars.AUTH_WEBAUTHN_ORIGINS.length > 0 ? "AUTH_WEBAUTHN_ORIGINS" : "AUTH_WEBAUTHN_RP_ID"],
        message: `${stray.join(", ")} is not on ${webauthn.rpId} or a host under it: passkeys made there could not be used`,
      });
    }
  });

/** The relying party: by default the host and origin of PUBLIC_URL, which is where members sign in. */
function webauthnConfig(vars: {
  PUBLIC_URL?: string | undefined;
  PORT: number;
  AUTH_WEBAUTHN_RP_ID?: string | undefined;
  AUTH_WEBAUTHN_ORIGINS: string[];
}): WebauthnConfig {
  const publicUrl = new URL(vars.PUBLIC_URL ?? `http://localhost:${vars.PORT}`);
  return {
    rpId: (vars.AUTH_WEBAUTHN_RP_ID ?? publicUrl.hostname).toLowerCase(),
    rpName: "Memory Box",
    origins:
      vars.AUTH_WEBAUTHN_ORIGINS.length > 0
        ? vars.AUTH_WEBAUTHN_ORIGINS.map((origin) => new URL(origin).origin)
        : [publicUrl.origin],
  };
}

function hostIsWithin(host: string, rpId: string): boolean {
  return host === rpId || host.endsWith(`.${rpId}`);
}

/** https, or http to this machine only (a provider under test, or one on the same host). */
function isIssuerUrl(value: string): boolean {
  try {
    const url = new URL(value);
    if (url.search || url.hash || url.username || url.password) return false;
    if (url.protocol === "https:") return true;
    return url.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  } catch {
    return false;
  }
}

/** An http(s) URL with no credentials in it (it is handed to every member's browser). */
function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && !url.username && !url.password;
  } catch {
    return false;
  }
}

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.origin === value.replace(/\/+$/, "");
  } catch {
    return false;
  }
}

export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  defaults: { webDir: string; version: string } = defaultPaths(),
): Config {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`));
  }
  const vars = parsed.data;
  const dataDir = path.resolve(vars.DATA_DIR);
  const publicUrl = (vars.PUBLIC_URL ?? `http://localhost:${vars.PORT}`).replace(/\/+$/, "");
  return {
    host: vars.HOST,
    port: vars.PORT,
    publicUrl,
    dataDir,
    database: databaseConfig(vars.DATABASE_URL, dataDir),
    storageUrl: vars.STORAGE_URL,
    storageMinFreeMb: vars.STORAGE_MIN_FREE_MB,
    onThisDayWindowDays: vars.ON_THIS_DAY_WINDOW_DAYS,
    maps: {
      styleUrl: vars.MAP_STYLE_URL,
      contentOrigins:
        vars.MAP_STYLE_URL === undefined
          ? []
          : [
              ...new Set([
                new URL(vars.MAP_STYLE_URL).origin,
                ...vars.MAP_CONTENT_ORIGINS.map((origin) => new URL(origin).origin),
              ]),
            ],
    },
    backups: {
      dir: vars.BACKUP_DIR === undefined ? undefined : path.resolve(vars.BACKUP_DIR),
      schedule: vars.BACKUP_DIR === undefined ? "off" : vars.BACKUP_SCHEDULE,
      keep: vars.BACKUP_KEEP,
    },
    smtpUrl: vars.SMTP_URL,
    mailFrom: vars.MAIL_FROM ?? `Memory Box <no-reply@${new URL(publicUrl).hostname}>`,
    logLevel: vars.LOG_LEVEL,
    trustProxy: vars.TRUST_PROXY,
    auth: {
      inviteOnly: vars.AUTH_INVITE_ONLY,
      otpUnknownAddress: vars.AUTH_OTP_UNKNOWN_ADDRESS,
      autoconfirm: vars.AUTH_AUTOCONFIRM,
      anonymousSignIns: vars.AUTH_ANONYMOUS_SIGN_INS,
      signupDisabled: vars.AUTH_SIGNUP_DISABLED,
      passwordMinLength: vars.AUTH_PASSWORD_MIN_LENGTH,
      passwordMinStrength: vars.AUTH_PASSWORD_MIN_STRENGTH,
      accessTokenTtlSeconds: vars.AUTH_ACCESS_TOKEN_TTL,
      refreshTokenReuseIntervalSeconds: vars.AUTH_REFRESH_TOKEN_REUSE_INTERVAL,
      emailLinkTtlSeconds: vars.AUTH_EMAIL_LINK_TTL,
      emailMinIntervalSeconds: vars.AUTH_EMAIL_MIN_INTERVAL,
      passwordChangeRequiresReauthentication: vars.AUTH_PASSWORD_CHANGE_REQUIRES_REAUTHENTICATION,
      rateLimits: vars.AUTH_RATE_LIMITS
        ? {
            token: vars.AUTH_RATE_LIMIT_TOKEN,
            web3: vars.AUTH_RATE_LIMIT_WEB3,
            sso: vars.AUTH_RATE_LIMIT_SSO,
            verify: vars.AUTH_RATE_LIMIT_VERIFY,
            email: vars.AUTH_RATE_LIMIT_EMAIL,
            inviteCheck: vars.AUTH_RATE_LIMIT_INVITE_CHECK,
          }
        : false,
      jwtKeys: vars.AUTH_JWT_KEYS,
      jwtSecret: vars.AUTH_JWT_SECRET,
      factorSecretsKey: vars.AUTH_FACTOR_SECRETS_KEY === undefined ? undefined : keyOf32Bytes(vars.AUTH_FACTOR_SECRETS_KEY),
      jwtIssuer: `${publicUrl}/auth/v1`,
      siteUrl: (vars.AUTH_SITE_URL ?? publicUrl).replace(/\/+$/, ""),
      redirectUrls: vars.AUTH_REDIRECT_URLS,
      webauthn: webauthnConfig(vars),
      oidcProviders: vars.AUTH_OIDC_PROVIDERS,
      web3: {
        ethereum: vars.AUTH_WEB3_ETHEREUM_ENABLED,
        solana: vars.AUTH_WEB3_SOLANA_ENABLED,
        maxAgeSeconds: vars.AUTH_WEB3_MESSAGE_MAX_AGE,
      },
      samlEnabled: vars.AUTH_SAML_ENABLED,
      samlMetadataAllowedHosts: vars.AUTH_SAML_METADATA_ALLOWED_HOSTS,
    },
    photos: {
      maxUploadBytes: vars.PHOTO_MAX_UPLOAD_MB * 1024 * 1024,
      maxMegapixels: vars.PHOTO_MAX_MEGAPIXELS,
      urlSecret: vars.PHOTO_URL_SECRET,
      accessTtlSeconds: vars.PHOTO_ACCESS_TTL,
      orphanGraceMs: vars.PHOTO_ORPHAN_GRACE_HOURS * 3600 * 1000,
    },
    videos: {
      maxBytes: vars.VIDEO_MAX_BYTES,
      maxSeconds: vars.VIDEO_MAX_SECONDS,
      ffmpegPath: vars.FFMPEG_PATH,
      ffprobePath: vars.FFPROBE_PATH,
      jobConcurrency: vars.MEDIA_JOBS_CONCURRENCY,
    },
    push: {
      vapidKeys:
        vars.PUSH_VAPID_PUBLIC_KEY && vars.PUSH_VAPID_PRIVATE_KEY
          ? { publicKey: vars.PUSH_VAPID_PUBLIC_KEY, privateKey: vars.PUSH_VAPID_PRIVATE_KEY }
          : undefined,
      vapidSubject: vars.PUSH_VAPID_SUBJECT ?? defaultVapidSubject(publicUrl, vars.MAIL_FROM),
      allowInsecureEndpoints: vars.PUSH_ALLOW_INSECURE_ENDPOINTS,
    },
    webDir: defaults.webDir,
    version: defaults.version,
  };
}

/** The public address when it is https, else the sender's mailbox: push services accept only those two. */
function defaultVapidSubject(publicUrl: string, mailFrom: string | undefined): string {
  if (publicUrl.startsWith("https:")) return publicUrl;
  const address = mailFrom?.match(/<([^>]+)>/)?.[1] ?? mailFrom?.trim();
  return `mailto:${address && address.includes("@") ? address : `no-reply@${new URL(publicUrl).hostname}`}`;
}

function databaseConfig(databaseUrl: string | undefined, dataDir: string): DatabaseConfig {
  if (databaseUrl === undefined) return { engine: "sqlite", file: path.join(dataDir, "memory-box.sqlite") };
  if (databaseUrl.startsWith("sqlite:")) {
    return { engine: "sqlite", file: path.resolve(databaseUrl.slice("sqlite:".length).replace(/^\/\/(?=\/)/, "")) };
  }
  return { engine: "postgres", url: databaseUrl };
}

function matchesProtocol(value: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** Source and bundle both live one folder below apps/server, so one relative path serves both. */
function defaultPaths() {
  return {
    webDir: path.resolve(import.meta.dirname, "../../web/dist"),
    version: packageJson.version,
  };
}

/** 32 bytes written in base64 (standard or URL alphabet, padded or not); undefined otherwise. */
function keyOf32Bytes(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) return undefined;
  const key = Buffer.from(trimmed.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""), "base64url");
  return key.length === 32 ? key : undefined;
}
