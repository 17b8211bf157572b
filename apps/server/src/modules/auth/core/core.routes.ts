import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AuthRateLimits } from "../../../config";
import { AppError } from "../../../errors";
import { requestContext, tokenRateLimited, type TokenGrants } from "./auth-wire";
import { presentUser } from "./auth.presenter";
import * as schemas from "./core.schemas";
import type { PkceFlowsService } from "./pkce-flows.service";
import type { SessionService } from "./session.service";
import type { SigningKeys } from "./signing-keys";

export interface CoreRoutesOptions {
  sessions: SessionService;
  pkceFlows: PkceFlowsService;
  keys: SigningKeys;
  /** The grants of `POST /token`; the flows' plugins add theirs, core adds `refresh_token` and `pkce`. */
  grants: TokenGrants;
  /** What `GET /settings` reports. */
  settings: {
    /** The OpenID Connect providers (ADR 0034), in the configured order. */
    providers: { id: string; name: string }[];
    /** Which chains' wallets may sign in (ADR 0035). */
    web3Chains: { ethereum: boolean; solana: boolean };
    signupDisabled: boolean;
    autoconfirm: boolean;
    samlEnabled: boolean;
    /** Whether `POST /signup` without an address signs in anonymously (ADR 0072). */
    anonymousSignIns: boolean;
  };
  rateLimits: AuthRateLimits | false;
}

/**
 * What every way in shares: `POST /token` (each grant answered by its flow), `POST /logout`,
 * `GET /user`, `GET /settings` and the public signing keys.
 */
export const coreRoutes: FastifyPluginAsyncZod<CoreRoutesOptions> = async (app, options) => {
  const { sessions, grants, settings } = options;

  grants.set("refresh_token", async (request) => {
    const body = schemas.RefreshGrantBody.parse(request.body ?? {});
    if (!body.refresh_token) throw new AppError("validation_failed", { message: "Refresh token is not valid" });
    return sessions.refresh(body.refresh_token, requestContext(request));
  });
  grants.set("pkce", async (request) => {
    const body = schemas.PkceGrantBody.parse(request.body ?? {});
    return options.pkceFlows.exchangeAuthCode(
      { authCode: body.auth_code ?? "", codeVerifier: body.code_verifier ?? "" },
      requestContext(request),
    );
  });

  app.post(
    "/token",
    { ...tokenRateLimited(options.rateLimits), schema: { querystring: schemas.TokenQuery } },
    async (request) => {
      const grant = grants.get(request.query.grant_type ?? "");
      if (!grant) throw new AppError("invalid_credentials", { message: "unsupported_grant_type" });
      return grant(request);
    },
  );

  app.post("/logout", { schema: { querystring: schemas.LogoutQuery } }, async (request, reply) => {
    const scope = request.query.scope ?? "global";
    if (scope !== "global" && scope !== "local" && scope !== "others")
      throw new AppError("validation_failed", { message: `Unsupported logout scope "${scope}"` });
    await sessions.logout(await sessions.authenticate(request.headers.authorization), scope, requestContext(request));
    return reply.status(204).send();
  });

  // The one route an OAuth 2.1 client's session may call besides refreshing at `/oauth/token` (ADR 0075).
  app.get("/user", async (request) =>
    presentUser((await sessions.authenticate(request.headers.authorization, { allowClientSessions: true })).user),
  );

  app.get("/.well-known/jwks.json", async (_request, reply) =>
    reply.header("cache-control", "public, max-age=600").send(options.keys.jwks()),
  );

  app.get("/settings", async () => ({
    external: {
      email: true,
      phone: false,
      anonymous_users: settings.anonymousSignIns,
      ...Object.fromEntries(settings.providers.map((provider) => [provider.id, true])),
      // Supabase Auth's configuration names for the chains (ADR 0035).
      web3_ethereum: settings.web3Chains.ethereum,
      web3_solana: settings.web3Chains.solana,
    },
    // Not in Supabase Auth's answer: the sign-in page's button labels, in the configured order.
    external_providers: settings.providers,
    disable_signup: settings.signupDisabled,
    mailer_autoconfirm: settings.autoconfirm,
    phone_autoconfirm: false,
    sms_provider: "",
    saml_enabled: settings.samlEnabled,
    passkeys_enabled: true,
  }));
};
