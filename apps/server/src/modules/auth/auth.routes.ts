import fastifyCors from "@fastify/cors";
import { normalizeIP } from "@fastify/rate-limit";
import { parse as parseCookie, serialize as serializeCookie } from "cookie";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AuthRateLimits } from "../../config";
import { AppError } from "../../errors";
import type { AccountUpdatesService } from "./accounts/account-updates.service";
import type { PkceFlowsService } from "./core/pkce-flows.service";
import type { EmailLinksService } from "./email/email-links.service";
import type { EmailVerificationService, VerifyType } from "./email/email-verification.service";
import type { PasswordSignInService } from "./password/password-sign-in.service";
import type { SignUpService } from "./password/sign-up.service";
import { registerAuthErrorHandling, registerAuthNotFound } from "./core/auth-errors";
import { presentUser } from "./core/auth.presenter";
import * as schemas from "./auth.schemas";
import type { FactorsService } from "./factors/factors.service";
import type { IdentitiesService } from "./identities/identities.service";
import { oauthErrorByStatus, pkce, redirectAfterCallback } from "./identities/identity-redirects";
import type { PasskeysService } from "./passkeys/passkeys.service";
import type { SessionService } from "./core/session.service";
import type { SigningKeys } from "./core/signing-keys";
import type { WalletsService } from "./wallets/wallets.service";

export interface AuthRoutesOptions {
  signUp: SignUpService;
  passwordSignIn: PasswordSignInService;
  pkceFlows: PkceFlowsService;
  emailVerification: EmailVerificationService;
  emailLinks: EmailLinksService;
  accountUpdates: AccountUpdatesService;
  redirectTarget: (requested: string | undefined) => string;
  sessions: SessionService;
  factors: FactorsService;
  passkeys: PasskeysService;
  federated: IdentitiesService;
  /** Wallet sign-in and connecting wallets (ADR 0035). */
  web3: WalletsService;
  /** Which chains' wallets may sign in, for `GET /settings`. */
  web3Chains: { ethereum: boolean; solana: boolean };
  /** The OpenID Connect providers, for `GET /settings` (ADR 0034). */
  providers: { id: string; name: string }[];
  /** What `GET /settings` reports besides the providers. */
  settings: { signupDisabled: boolean; autoconfirm: boolean; samlEnabled: boolean };
  keys: SigningKeys;
  rateLimits: AuthRateLimits | false;
  /** Whether members reach us over https: the sign-up cookie is then Secure. */
  secureCookies: boolean;
  /** How long a sign-up's cookie lives: as long as its confirmation link. */
  signupCookieSeconds: number;
}

/** Holds the secret that binds a sign-up to the browser that made it (ADR 0014). */
const signupCookie = "memory-box-signup";

const fiveMinutes = 5 * 60 * 1000;
const verifyTypes = ["signup", "invite", "magiclink", "recovery", "email_change", "email"] as const;

/**
 * The Supabase Auth (GoTrue) wire protocol under /auth/v1, so the unmodified `@supabase/auth-js`
 * client signs members in. Handlers translate the wire format; the rules live in the services.
 */
export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, options) => {
  const { sessions } = options;
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

  const limit = (key: keyof AuthRateLimits) =>
    options.rateLimits ? { config: { rateLimit: { max: options.rateLimits[key], timeWindow: fiveMinutes } } } : {};
  // `POST /token` counts wallet sign-ins apart from every other grant, as Supabase Auth's RATE_LIMIT_WEB3
  // (ADR 0035): one route, two buckets per client address, told apart by the grant in the query.
  const tokenLimit = () => {
    if (!options.rateLimits) return {};
    const { token, web3 } = options.rateLimits;
    const bucket = (request: FastifyRequest) =>
      (request.query as { grant_type?: unknown }).grant_type === "web3" ? "web3" : "token";
    const rateLimit = {
      timeWindow: fiveMinutes,
      keyGenerator: (request: FastifyRequest) => `${bucket(request)} ${normalizeIP(request.ip)}`,
      max: (_request: FastifyRequest, key: string) => (key.startsWith("web3 ") ? web3 : token),
    };
    return { config: { rateLimit } };
  };
  const context = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers["user-agent"] ?? null });
  const caller = (request: FastifyRequest) => sessions.authenticate(request.headers.authorization);

  app.post(
    "/signup",
    { ...limit("email"), schema: { querystring: schemas.RedirectQuery, body: schemas.SignUpBody } },
    async (request, reply) => {
      const { body } = request;
      if (body.phone) throw new AppError("phone_provider_disabled", { message: "Phone signups are disabled" });
      if (!body.email) throw new AppError("anonymous_provider_disabled");
      const result = await options.signUp.signUp(
        { email: body.email, password: body.password ?? "", data: body.data ?? {}, ...pkce(body) },
        request.query.redirect_to,
        context(request),
      );
      if (result.browserSecret)
        reply.header("set-cookie", signupCookieHeader(result.browserSecret, options.signupCookieSeconds, options.secureCookies));
      return result.body;
    },
  );

  app.post("/token", { ...tokenLimit(), schema: { querystring: schemas.TokenQuery } }, async (request) => {
    switch (request.query.grant_type ?? "") {
      case "password": {
        const body = schemas.PasswordGrantBody.parse(request.body ?? {});
        if (body.email && body.phone)
          throw new AppError("validation_failed", {
            message: "Only an email address or phone number should be provided on login.",
          });
        if (body.phone) throw new AppError("phone_provider_disabled");
        if (!body.email) throw new AppError("validation_failed", { message: "missing email or phone" });
        return options.passwordSignIn.signIn({ email: body.email, password: body.password ?? "" }, context(request));
      }
      case "refresh_token": {
        const body = schemas.RefreshGrantBody.parse(request.body ?? {});
        if (!body.refresh_token) throw new AppError("validation_failed", { message: "Refresh token is not valid" });
        return sessions.refresh(body.refresh_token, context(request));
      }
      case "pkce": {
        const body = schemas.PkceGrantBody.parse(request.body ?? {});
        return options.pkceFlows.exchangeAuthCode(
          { authCode: body.auth_code ?? "", codeVerifier: body.code_verifier ?? "" },
          context(request),
        );
      }
      case "id_token": {
        const body = schemas.IdTokenGrantBody.parse(request.body ?? {});
        return options.federated.signInWithIdToken(
          {
            provider: body.provider,
            idToken: body.id_token,
            nonce: body.nonce,
            ...(body.link_identity ? { linkTo: await caller(request) } : {}),
          },
          context(request),
        );
      }
      case "web3": {
        const body = schemas.Web3GrantBody.parse(request.body ?? {});
        const grant = { chain: body.chain, message: body.message, signature: body.signature };
        // Connecting a wallet to the signed-in member, as Supabase Auth links with `link_identity` (ADR 0035).
        if (body.link_identity) return options.web3.link(await caller(request), grant, context(request));
        return options.web3.signIn(grant, context(request));
      }
      default:
        throw new AppError("invalid_credentials", { message: "unsupported_grant_type" });
    }
  });

  app.post("/logout", { schema: { querystring: schemas.LogoutQuery } }, async (request, reply) => {
    const scope = request.query.scope ?? "global";
    if (scope !== "global" && scope !== "local" && scope !== "others")
      throw new AppError("validation_failed", { message: `Unsupported logout scope "${scope}"` });
    await sessions.logout(await caller(request), scope, context(request));
    return reply.status(204).send();
  });

  app.get("/user", async (request) => presentUser((await caller(request)).user));

  app.put(
    "/user",
    { ...limit("email"), schema: { querystring: schemas.RedirectQuery, body: schemas.UpdateUserBody } },
    async (request) => {
      const who = await caller(request);
      const { body } = request;
      if (body.app_metadata) throw new AppError("not_admin", { message: "Updating app_metadata requires admin privileges" });
      if (body.phone) throw new AppError("phone_provider_disabled");
      return options.accountUpdates.updateUser(
        who,
        {
          ...(body.email !== undefined ? { email: body.email } : {}),
          ...(body.password !== undefined ? { password: body.password } : {}),
          ...(body.nonce ? { nonce: body.nonce } : {}),
          ...(body.data ? { data: body.data } : {}),
          ...pkce(body),
        },
        request.query.redirect_to,
        context(request),
      );
    },
  );

  app.get("/reauthenticate", { ...limit("email") }, async (request) => {
    await options.accountUpdates.reauthenticate(await caller(request));
    return {};
  });

  app.post(
    "/otp",
    { ...limit("email"), schema: { querystring: schemas.RedirectQuery, body: schemas.OtpBody } },
    async (request) => {
      const { body } = request;
      if (body.email && body.phone)
        throw new AppError("validation_failed", { message: "Only an email address or phone number should be provided" });
      if (body.phone) throw new AppError("phone_provider_disabled");
      if (!body.email) throw new AppError("validation_failed", { message: "An email address or phone number is required" });
      await options.emailLinks.sendMagicLink(
        { email: body.email, createUser: body.create_user ?? true, data: body.data ?? {}, ...pkce(body) },
        request.query.redirect_to,
        context(request),
      );
      return {};
    },
  );

  app.post(
    "/verify",
    { ...limit("verify"), schema: { querystring: schemas.RedirectQuery, body: schemas.VerifyBody } },
    async (request) => {
      const { body } = request;
      // Phone codes are never sent here; Supabase Auth's answers for them, so clients see the same errors.
      if (body.type === "sms" || body.type === "phone_change") refusePhoneCode(body.phone);
      const type = verifyType(body.type);
      if (body.token && body.token_hash)
        throw new AppError("validation_failed", { message: "Only one of token or token_hash may be provided" });
      if (body.token_hash && (body.email || body.phone))
        throw new AppError("validation_failed", { message: "token_hash cannot be combined with email or phone" });
      if (!body.token_hash && !(body.email && body.token))
        throw new AppError("validation_failed", { message: "Verify requires an email and token, or a token_hash" });
      const verified = await options.emailVerification.verify(
        {
          ...(body.token_hash ? { type, tokenHash: body.token_hash } : { type, email: body.email!, code: body.token! }),
          browserSecret: browserSecretOf(request),
        },
        context(request),
      );
      return sessions.start(verified.user, verified.amrMethod, context(request));
    },
  );

  // The target of e-mailed links: signs in and redirects to the app with the session in the
  // fragment (or, for PKCE, an auth code in the query), or with the error in the fragment.
  app.get("/verify", { ...limit("verify"), schema: { querystring: schemas.VerifyQuery } }, async (request, reply) => {
    const { query } = request;
    const redirectTo = options.redirectTarget(query.redirect_to);
    try {
      const type = verifyType(query.type);
      if (!query.token) throw new AppError("otp_expired", { message: "Email link is invalid or has expired" });
      const verified = await options.emailVerification.verify(
        { type, tokenHash: query.token, browserSecret: browserSecretOf(request) },
        context(request),
      );
      if (verified.flowStateId) {
        const code = await options.pkceFlows.issueAuthCode(verified.flowStateId);
        const target = new URL(redirectTo);
        target.searchParams.set("code", code);
        return reply.redirect(target.toString(), 303);
      }
      const session = await sessions.start(verified.user, verified.amrMethod, context(request));
      const fragment = new URLSearchParams(
        Object.entries({
          access_token: session.access_token,
          expires_at: String(session.expires_at),
          expires_in: String(session.expires_in),
          refresh_token: session.refresh_token,
          sb: "",
          token_type: "bearer",
          type: verified.kind,
        }),
      );
      return reply.redirect(`${redirectTo.split("#")[0]}#${fragment.toString()}`, 303);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return redirectWithError(reply, redirectTo, error);
    }
  });

  app.post(
    "/recover",
    { ...limit("email"), schema: { querystring: schemas.RedirectQuery, body: schemas.RecoverBody } },
    async (request) => {
      if (!request.body.email) throw new AppError("validation_failed", { message: "Password recovery requires an email" });
      await options.emailLinks.sendRecovery({ email: request.body.email, ...pkce(request.body) }, request.query.redirect_to);
      return {};
    },
  );

  app.post(
    "/resend",
    { ...limit("email"), schema: { querystring: schemas.RedirectQuery, body: schemas.ResendBody } },
    async (request) => {
      const { body } = request;
      if (body.type !== "signup" && body.type !== "email_change") {
        if (body.type === "sms" || body.type === "phone_change") throw new AppError("phone_provider_disabled");
        throw new AppError("validation_failed", {
          message: "Missing one of these types: signup, email_change, sms, phone_change",
        });
      }
      if (!body.email) throw new AppError("validation_failed", { message: "An email address is required" });
      await options.emailLinks.resend({ type: body.type, email: body.email, ...pkce(body) }, request.query.redirect_to);
      return {};
    },
  );

  app.get("/.well-known/jwks.json", async (_request, reply) =>
    reply.header("cache-control", "public, max-age=600").send(options.keys.jwks()),
  );

  // OpenID Connect providers and linked identities (ADR 0034).
  const { federated } = options;
  // Without a provider or wallets there is nothing to link: the answer Supabase Auth gives when linking is off.
  const assertLinkingEnabled = () => {
    if (options.providers.length === 0 && !options.web3.enabled) throw new AppError("manual_linking_disabled");
  };
  app.get("/settings", async () => ({
    external: {
      email: true,
      phone: false,
      anonymous_users: false,
      ...Object.fromEntries(options.providers.map((provider) => [provider.id, true])),
      // Supabase Auth's configuration names for the chains (ADR 0035).
      web3_ethereum: options.web3Chains.ethereum,
      web3_solana: options.web3Chains.solana,
    },
    // Not in Supabase Auth's answer: the sign-in page's button labels, in the configured order.
    external_providers: options.providers,
    disable_signup: options.settings.signupDisabled,
    mailer_autoconfirm: options.settings.autoconfirm,
    phone_autoconfirm: false,
    sms_provider: "",
    saml_enabled: options.settings.samlEnabled,
    passkeys_enabled: true,
  }));
  app.get("/authorize", { ...limit("token"), schema: { querystring: schemas.AuthorizeQuery } }, async (request, reply) => {
    const { query } = request;
    const url = await federated.authorize({ provider: query.provider, redirectTo: query.redirect_to, pkce: pkce(query).pkce });
    return reply.redirect(url, 302);
  });
  app.get("/callback", { ...limit("token"), schema: { querystring: schemas.CallbackQuery } }, async (request, reply) => {
    const rawQuery = request.raw.url?.split("?")[1] ?? "";
    return redirectAfterCallback(reply, await federated.callback(request.query, rawQuery, context(request)));
  });
  app.get(
    "/user/identities/authorize",
    { ...limit("token"), schema: { querystring: schemas.AuthorizeQuery } },
    async (request, reply) => {
      if (options.providers.length === 0) throw new AppError("manual_linking_disabled");
      const who = await caller(request);
      const { query } = request;
      const url = await federated.authorize({
        provider: query.provider,
        redirectTo: query.redirect_to,
        pkce: pkce(query).pkce,
        linkTo: who.user,
      });
      // auth-js asks for the URL as JSON and sends the browser there itself.
      if (query.skip_http_redirect === "true") return { url };
      return reply.redirect(url, 302);
    },
  );
  app.delete("/user/identities/:id", { schema: { params: schemas.IdentityParams } }, async (request) => {
    assertLinkingEnabled();
    await federated.unlink(await caller(request), request.params.id, context(request));
    return {};
  });

  // Second factors (ADR 0022).
  const { factors } = options;
  app.post("/factors", { ...limit("verify"), schema: { body: schemas.EnrollFactorBody } }, async (request) =>
    factors.enroll(await caller(request), request.body),
  );
  app.post(
    "/factors/:id/challenge",
    { ...limit("verify"), schema: { params: schemas.FactorParams, body: schemas.ChallengeFactorBody } },
    async (request) => factors.challenge(await caller(request), request.params.id, request.body, context(request)),
  );
  app.post(
    "/factors/:id/verify",
    { ...limit("verify"), schema: { params: schemas.FactorParams, body: schemas.VerifyFactorBody } },
    async (request) => factors.verify(await caller(request), request.params.id, request.body, context(request)),
  );
  app.delete("/factors/:id", { schema: { params: schemas.FactorParams } }, async (request) =>
    factors.unenroll(await caller(request), request.params.id),
  );

  // Passkeys (ADR 0025), on the routes of Supabase Auth's passkey API.
  const { passkeys } = options;
  app.post("/passkeys/registration/options", { ...limit("verify") }, async (request) =>
    passkeys.registrationOptions(await caller(request)),
  );
  app.post(
    "/passkeys/registration/verify",
    { ...limit("verify"), schema: { body: schemas.PasskeyCeremonyBody } },
    async (request) => passkeys.verifyRegistration(await caller(request), request.body, context(request)),
  );
  app.post("/passkeys/authentication/options", { ...limit("token") }, async () => passkeys.authenticationOptions());
  app.post(
    "/passkeys/authentication/verify",
    { ...limit("token"), schema: { body: schemas.PasskeyCeremonyBody } },
    async (request) => passkeys.verifyAuthentication(request.body, context(request)),
  );
  app.get("/passkeys", async (request) => passkeys.list(await caller(request)));
  app.patch("/passkeys/:id", { schema: { params: schemas.PasskeyParams, body: schemas.UpdatePasskeyBody } }, async (request) =>
    passkeys.rename(await caller(request), request.params.id, request.body.friendly_name),
  );
  app.delete("/passkeys/:id", { schema: { params: schemas.PasskeyParams } }, async (request, reply) => {
    await passkeys.remove(await caller(request), request.params.id);
    return reply.code(204).send();
  });
};

/** A malformed number is 400 as Supabase Auth says it; any other phone code is unknown, so expired. */
function refusePhoneCode(phone: string | null | undefined): never {
  const digits = (phone ?? "").trim().replace(/^\+/, "");
  if (!/^[1-9]\d{1,14}$/.test(digits))
    throw new AppError("validation_failed", { message: "Invalid phone number format (E.164 required)" });
  throw new AppError("otp_expired");
}

function verifyType(type: string | undefined): VerifyType {
  if (type && (verifyTypes as readonly string[]).includes(type)) return type as VerifyType;
  throw new AppError("validation_failed", { message: `Verify requires a verification type (${verifyTypes.join(", ")})` });
}

function redirectWithError(reply: FastifyReply, redirectTo: string, error: AppError): FastifyReply {
  const params = new URLSearchParams({
    error: oauthErrorByStatus[error.statusCode] ?? "server_error",
    error_code: error.code,
    error_description: error.message,
    sb: "",
  });
  return reply.redirect(`${redirectTo.split("#")[0]}#${params.toString()}`, 303);
}

/** HttpOnly (no script reads it), SameSite=Lax (sent when the e-mailed link is opened), only to /auth/v1. */
function signupCookieHeader(secret: string, maxAgeSeconds: number, secure: boolean): string {
  return serializeCookie(signupCookie, secret, {
    httpOnly: true,
    sameSite: "lax",
    path: "/auth/v1",
    maxAge: maxAgeSeconds,
    secure,
  });
}

function browserSecretOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  return header ? parseCookie(header)[signupCookie] : undefined;
}
