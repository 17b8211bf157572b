import { randomBytes } from "node:crypto";
import fastifyCors from "@fastify/cors";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Kysely } from "kysely";
import type { AuthConfig, Config } from "../../config";
import type { Database } from "../../db/schema";
import { InstanceSettingsRepository } from "../instance";
import type { AuthMailer } from "./core/auth-mailer";
import { accountRoutes } from "./accounts/account.routes";
import { AccountUpdatesService } from "./accounts/account-updates.service";
import { registerAuthErrorHandling, registerAuthNotFound } from "./core/auth-errors";
import type { TokenGrants } from "./core/auth-wire";
import { coreRoutes } from "./core/core.routes";
import { emailRoutes } from "./email/email.routes";
import { factorsRoutes } from "./factors/factors.routes";
import { identitiesRoutes } from "./identities/identities.routes";
import { oidcRoutes } from "./oidc/oidc.routes";
import { passkeysRoutes } from "./passkeys/passkeys.routes";
import { passwordRoutes } from "./password/password.routes";
import { walletsRoutes } from "./wallets/wallets.routes";
import { AdminService } from "./admin/admin.service";
import { FactorSecrets, loadFactorSecretsKey } from "./factors/factor-secrets";
import { FactorsRepository } from "./factors/factors.repository";
import { FactorsService } from "./factors/factors.service";
import { RecoveryCodesRepository } from "./factors/recovery-codes.repository";
import { RecoveryCodesService } from "./factors/recovery-codes.service";
import { IdentitiesService } from "./identities/identities.service";
import { IdentitiesRepository } from "./identities/identities.repository";
import type { InvitationAdministration } from "./core/invitation-ledger";
import { loadOpenIdClient, OidcProviders } from "./oidc/oidc-providers";
import { OidcService } from "./oidc/oidc.service";
import type { AuthAuditLog } from "./core/audit-log";
import { OneTimeTokensRepository } from "./core/one-time-tokens.repository";
import { PasskeysRepository } from "./passkeys/passkeys.repository";
import { PasskeysService } from "./passkeys/passkeys.service";
import { PasswordFailuresRepository } from "./password/password-failures.repository";
import { PasswordHasher, type PasswordHashCost } from "./password/password-hasher";
import { PasswordPolicy } from "./password/password-policy";
import { loadWebauthn, RelyingParty } from "./passkeys/relying-party";
import { type SessionLookup, SessionService } from "./core/session.service";
import { SessionsRepository } from "./core/sessions.repository";
import { SigningKeys } from "./core/signing-keys";
import { SamlProvidersRepository } from "./saml/saml-providers.repository";
import { loadSaml, SamlService } from "./saml/saml.service";
import { UsersRepository } from "./core/users.repository";
import { AccountChanges } from "./core/account-notices";
import { EmailedTokensService } from "./core/emailed-tokens.service";
import { PkceFlowsService } from "./core/pkce-flows.service";
import { resolveRedirect } from "./core/redirects";
import { EmailLinksService } from "./email/email-links.service";
import { EmailVerificationService } from "./email/email-verification.service";
import { PasswordSignInService } from "./password/password-sign-in.service";
import { SignUpService } from "./password/sign-up.service";
import { loadWeb3Messages, WalletsService } from "./wallets/wallets.service";
import { OauthClientsRepository } from "./oauth-server/oauth-clients.repository";
import { OauthClientsService } from "./oauth-server/oauth-clients.service";
import { OauthAuthorizationsRepository } from "./oauth-server/oauth-authorizations.repository";
import { OauthAuthorizationsService } from "./oauth-server/oauth-authorizations.service";
import { oauthServerRoutes } from "./oauth-server/oauth-authorizations.routes";
import { DeviceCodesRepository } from "./oauth-server/device-codes.repository";
import { DeviceAuthorizationsService, type PairedDevices } from "./oauth-server/device-authorizations.service";

export interface AuthModule {
  keys: SigningKeys;
  users: UsersRepository;
  sessions: SessionService;
  signUp: SignUpService;
  passwordSignIn: PasswordSignInService;
  pkceFlows: PkceFlowsService;
  emailVerification: EmailVerificationService;
  emailLinks: EmailLinksService;
  accountUpdates: AccountUpdatesService;
  /** Where a link or a provider sign-in may send someone: the requested address when allowed, else the site. */
  redirectTarget: (requested: string | undefined) => string;
  admin: AdminService;
  /** The sessions table, for the product's list of a member's devices. */
  sessionRows: SessionsRepository;
  factors: FactorsService;
  /** Recovery codes for two-step verification (ADR 0042). */
  recoveryCodes: RecoveryCodesService;
  passkeys: PasskeysService;
  /** The shared sign-in and linking of outside accounts (OpenID Connect, SAML). */
  identities: IdentitiesService;
  oidc: OidcService;
  providers: OidcProviders;
  /** Wallet sign-in and connecting wallets (ADR 0035). */
  wallets: WalletsService;
  sso: SamlService;
  /** The OAuth 2.1 server's clients (ADR 0071). */
  oauthClients: OauthClientsService;
  /** The OAuth 2.1 server's authorization code flow (ADR 0075). */
  oauthAuthorizations: OauthAuthorizationsService;
  /** The device grant frames pair with (ADR 0076): the product API's approval answers its pairings. */
  deviceAuthorizations: DeviceAuthorizationsService;
}

/** Builds the auth service's parts over one database; the routes and the product API share them. */
export async function createAuthModule(deps: {
  config: Config;
  db: Kysely<Database>;
  mailer: AuthMailer;
  /** The invitation list (the invitations module's service): auth declares what it asks of it. */
  invitations: InvitationAdministration;
  audit: AuthAuditLog;
  /** The per-request read of a session (the product API's member check, shared with it). */
  sessionLookup: SessionLookup;
  /** Told after a member's display name changed. */
  onProfileChanged?: (userId: string) => void;
  /** The devices (frames) the device grant's sessions are bound to. */
  pairedDevices: PairedDevices;
  now?: () => Date;
  /** argon2id's cost when not the OWASP minimum: cheaper in the test suites only (see PasswordHasher). */
  passwordHashCost?: PasswordHashCost;
}): Promise<AuthModule> {
  const { config, db, audit, invitations } = deps;
  // The libraries of the features that are on are loaded now, so no first request waits for them;
  // those of features that are off are never loaded.
  await Promise.all([
    config.auth.oidcProviders.length > 0 ? loadOpenIdClient() : undefined,
    config.auth.samlEnabled ? loadSaml() : undefined,
    config.auth.web3.ethereum || config.auth.web3.solana ? loadWeb3Messages() : undefined,
    // Passkeys and security keys have no switch: every app offers them.
    loadWebauthn(),
  ]);
  const settings = new InstanceSettingsRepository(db);
  const keys = await SigningKeys.load({
    keys: config.auth.jwtKeys,
    hsSecret: config.auth.jwtSecret,
    issuer: config.auth.jwtIssuer,
    settings,
  });
  // Kept in the database, like the signing key: every server process derives the same tokens.
  const refreshTokenKey = Buffer.from(
    await settings.putIfAbsent("auth.refresh_token_key", randomBytes(32).toString("base64")),
    "base64",
  );
  const users = new UsersRepository(db);
  const sessionsRepository = new SessionsRepository(db);
  const tokens = new OneTimeTokensRepository(db);
  const hasher = new PasswordHasher(deps.passwordHashCost ? { cost: deps.passwordHashCost } : {});
  const passwordPolicy = new PasswordPolicy({
    minLength: config.auth.passwordMinLength,
    minStrength: config.auth.passwordMinStrength,
  });
  const clock = deps.now ? { now: deps.now } : {};
  const sessions = new SessionService({
    config: config.auth,
    users,
    sessionLookup: deps.sessionLookup,
    refreshTokenKey,
    sessions: sessionsRepository,
    keys,
    invitations,
    audit,
    ...clock,
  });
  const redirectTarget = (requested: string | undefined) =>
    resolveRedirect(requested, config.auth.siteUrl, config.auth.redirectUrls);
  const changes = new AccountChanges({
    mailer: deps.mailer,
    audit,
    ...(deps.onProfileChanged ? { onProfileChanged: deps.onProfileChanged } : {}),
    ...clock,
  });
  const emailedTokens = new EmailedTokensService({
    config: config.auth,
    publicUrl: config.publicUrl,
    users,
    sessions: sessionsRepository,
    tokens,
    mailer: deps.mailer,
    audit,
    redirectTarget,
    ...clock,
  });
  const signUp = new SignUpService({
    config: config.auth,
    users,
    sessions: sessionsRepository,
    sessionService: sessions,
    invitations,
    hasher,
    passwordPolicy,
    emailedTokens,
    audit,
    ...clock,
  });
  const passwordSignIn = new PasswordSignInService({
    users,
    sessions: sessionsRepository,
    tokens,
    passwordFailures: new PasswordFailuresRepository(db),
    sessionService: sessions,
    hasher,
    passwordPolicy,
    audit,
    ...clock,
  });
  const pkceFlows = new PkceFlowsService({
    users,
    sessions: sessionsRepository,
    tokens,
    sessionService: sessions,
    changes,
    audit,
    ...clock,
  });
  const emailVerification = new EmailVerificationService({
    users,
    sessions: sessionsRepository,
    tokens,
    sessionService: sessions,
    invitations,
    changes,
    audit,
    ...clock,
  });
  const emailLinks = new EmailLinksService({
    config: config.auth,
    users,
    sessionService: sessions,
    invitations,
    signUp,
    emailedTokens,
  });
  const accountUpdates = new AccountUpdatesService({
    config: config.auth,
    users,
    sessions: sessionsRepository,
    tokens,
    invitations,
    hasher,
    passwordPolicy,
    emailedTokens,
    changes,
    audit,
    ...clock,
  });
  const admin = new AdminService({
    config: config.auth,
    users,
    sessions: sessionsRepository,
    tokens,
    emailedTokens,
    changes,
    keys,
    invitations,
    hasher,
    passwordPolicy,
    audit,
    ...clock,
  });
  const factorRows = new FactorsRepository(db);
  const relyingParty = new RelyingParty(config.auth.webauthn);
  // TOTP secrets are sealed under a key kept outside the database (ADR 0041); any left in the clear
  // by an earlier version are sealed now, on either engine.
  const factorSecrets = new FactorSecrets(await loadFactorSecretsKey(config.auth.factorSecretsKey, config.dataDir));
  await factorSecrets.sealPlaintext(factorRows);
  const recoveryCodeRows = new RecoveryCodesRepository(db);
  const factors = new FactorsService({
    secrets: factorSecrets,
    factors: factorRows,
    recoveryCodes: recoveryCodeRows,
    users,
    sessionRows: sessionsRepository,
    sessions,
    relyingParty,
    audit,
    defaultIssuer: new URL(config.auth.siteUrl).host,
    mailer: deps.mailer,
    ...(deps.now ? { now: deps.now } : {}),
  });
  const recoveryCodes = new RecoveryCodesService({
    codes: recoveryCodeRows,
    factors: factorRows,
    users,
    sessionRows: sessionsRepository,
    sessions,
    secrets: factorSecrets,
    audit,
    mailer: deps.mailer,
    ...(deps.now ? { now: deps.now } : {}),
  });
  const passkeys = new PasskeysService({
    passkeys: new PasskeysRepository(db),
    users,
    sessionRows: sessionsRepository,
    sessions,
    relyingParty,
    audit,
    mailer: deps.mailer,
    ...(deps.now ? { now: deps.now } : {}),
  });
  const providers = new OidcProviders(config.auth.oidcProviders, `${config.publicUrl}/auth/v1/callback`);
  const identities = new IdentitiesRepository(db);
  const identitiesService = new IdentitiesService({
    config: config.auth,
    providerName: (id) => providers.nameOf(id),
    identities,
    users,
    tokens,
    sessions,
    invitations,
    audit,
    mailer: deps.mailer,
    ...clock,
  });
  const oidc = new OidcService({
    providers,
    identities,
    identitiesService,
    users,
    sessions,
    redirectTarget,
    ...clock,
  });
  const wallets = new WalletsService({ config: config.auth, identities, users, sessions, audit, mailer: deps.mailer, ...clock });
  const sso = new SamlService({
    enabled: config.auth.samlEnabled,
    metadataAllowedHosts: config.auth.samlMetadataAllowedHosts,
    authUrl: `${config.publicUrl}/auth/v1`,
    providers: new SamlProvidersRepository(db),
    identities,
    federated: identitiesService,
    audit,
    redirectTarget,
    ...clock,
  });
  const oauthClientRows = new OauthClientsRepository(db);
  const oauthClients = new OauthClientsService(oauthClientRows, deps.now);
  const deviceAuthorizations = new DeviceAuthorizationsService({
    codes: new DeviceCodesRepository(db),
    clients: oauthClientRows,
    users,
    sessions,
    pairedDevices: deps.pairedDevices,
    siteUrl: config.auth.siteUrl,
    ...clock,
  });
  const oauthAuthorizations = new OauthAuthorizationsService({
    authorizations: new OauthAuthorizationsRepository(db),
    clients: oauthClientRows,
    users,
    sessions,
    devices: deviceAuthorizations,
    siteUrl: config.auth.siteUrl,
    ...clock,
  });
  return {
    keys,
    users,
    sessions,
    sessionRows: sessionsRepository,
    signUp,
    passwordSignIn,
    pkceFlows,
    emailVerification,
    emailLinks,
    accountUpdates,
    redirectTarget,
    admin,
    factors,
    recoveryCodes,
    passkeys,
    identities: identitiesService,
    oidc,
    providers,
    wallets,
    sso,
    oauthClients,
    oauthAuthorizations,
    deviceAuthorizations,
  };
}

export interface AuthRoutesOptions {
  auth: AuthModule;
  config: AuthConfig;
  /** Whether members reach us over https: the sign-up cookie is then Secure. */
  secureCookies: boolean;
}

/**
 * The Supabase Auth (GoTrue) wire protocol under /auth/v1, so the unmodified `@supabase/auth-js`
 * client signs members in: one plugin per way in, sharing the error envelope and CORS set here.
 * Handlers translate the wire format; the rules live in the services. (SAML's and the admin API's
 * plugins are registered beside this one.)
 */
export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, { auth, config, secureCookies }) => {
  registerAuthErrorHandling(app);
  registerAuthNotFound(app);
  await app.register(fastifyCors, {
    origin: true,
    credentials: true,
    // An OPTIONS request that is not a CORS preflight (no Origin or Access-Control-Request-Method)
    // is answered 204 too, instead of @fastify/cors's text/plain 400.
    strictPreflight: false,
    methods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
    allowedHeaders: [
      "Accept",
      "Authorization",
      "Content-Type",
      "X-Client-IP",
      "X-Client-Info",
      "X-JWT-AUD",
      "x-use-cookie",
      "X-Supabase-Api-Version",
      "apikey",
    ],
    exposedHeaders: ["X-Total-Count", "Link", "X-Supabase-Api-Version", "Retry-After"],
  });

  const { sessions } = auth;
  const { rateLimits } = config;
  // `POST /token`'s grants: each flow's plugin adds its own.
  const grants: TokenGrants = new Map();
  const providers = auth.providers.list();
  await app.register(coreRoutes, {
    sessions,
    pkceFlows: auth.pkceFlows,
    keys: auth.keys,
    grants,
    settings: {
      providers,
      web3Chains: { ethereum: config.web3.ethereum, solana: config.web3.solana },
      signupDisabled: config.signupDisabled,
      autoconfirm: config.autoconfirm,
      samlEnabled: config.samlEnabled,
      anonymousSignIns: config.anonymousSignIns,
    },
    rateLimits,
  });
  await app.register(passwordRoutes, {
    signUp: auth.signUp,
    passwordSignIn: auth.passwordSignIn,
    grants,
    rateLimits,
    secureCookies,
    signupCookieSeconds: config.emailLinkTtlSeconds,
  });
  await app.register(emailRoutes, {
    emailLinks: auth.emailLinks,
    emailVerification: auth.emailVerification,
    pkceFlows: auth.pkceFlows,
    sessions,
    redirectTarget: auth.redirectTarget,
    rateLimits,
  });
  await app.register(accountRoutes, { accountUpdates: auth.accountUpdates, sessions, rateLimits });
  await app.register(oidcRoutes, { oidc: auth.oidc, sessions, providers, grants, rateLimits });
  await app.register(identitiesRoutes, {
    identities: auth.identities,
    sessions,
    linkingEnabled: providers.length > 0 || auth.wallets.enabled,
  });
  await app.register(walletsRoutes, { wallets: auth.wallets, sessions, grants });
  await app.register(factorsRoutes, { factors: auth.factors, recoveryCodes: auth.recoveryCodes, sessions, rateLimits });
  await app.register(passkeysRoutes, { passkeys: auth.passkeys, sessions, rateLimits });
  await app.register(oauthServerRoutes, {
    oauth: auth.oauthAuthorizations,
    devices: auth.deviceAuthorizations,
    sessions,
    rateLimits,
  });
};
