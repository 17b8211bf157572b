import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AuthRateLimits } from "../../../config";
import { AppError } from "../../../errors";
import { pkce, rateLimited, requestContext, type TokenGrants } from "../core/auth-wire";
import type { SessionService } from "../core/session.service";
import { redirectAfterCallback } from "../identities/identity-redirects";
import * as schemas from "./oidc.schemas";
import type { OidcService } from "./oidc.service";

export interface OidcRoutesOptions {
  oidc: OidcService;
  sessions: SessionService;
  /** The configured providers; without one, nothing can be linked. */
  providers: { id: string; name: string }[];
  grants: TokenGrants;
  rateLimits: AuthRateLimits | false;
}

/**
 * OpenID Connect providers (ADR 0034): `GET /authorize`, `GET /callback`, linking with
 * `GET /user/identities/authorize`, and `POST /token?grant_type=id_token`.
 */
export const oidcRoutes: FastifyPluginAsyncZod<OidcRoutesOptions> = async (app, options) => {
  const { oidc, sessions } = options;
  const limit = rateLimited(options.rateLimits, "token");

  options.grants.set("id_token", async (request) => {
    const body = schemas.IdTokenGrantBody.parse(request.body ?? {});
    return oidc.signInWithIdToken(
      {
        provider: body.provider,
        idToken: body.id_token,
        nonce: body.nonce,
        ...(body.link_identity ? { linkTo: await sessions.authenticate(request.headers.authorization) } : {}),
      },
      requestContext(request),
    );
  });

  app.get("/authorize", { ...limit, schema: { querystring: schemas.AuthorizeQuery } }, async (request, reply) => {
    const { query } = request;
    const url = await oidc.authorize({ provider: query.provider, redirectTo: query.redirect_to, pkce: pkce(query).pkce });
    return reply.redirect(url, 302);
  });
  app.get("/callback", { ...limit, schema: { querystring: schemas.CallbackQuery } }, async (request, reply) => {
    const rawQuery = request.raw.url?.split("?")[1] ?? "";
    return redirectAfterCallback(reply, await oidc.callback(request.query, rawQuery, requestContext(request)));
  });
  app.get("/user/identities/authorize", { ...limit, schema: { querystring: schemas.AuthorizeQuery } }, async (request, reply) => {
    if (options.providers.length === 0) throw new AppError("manual_linking_disabled");
    const { query } = request;
    const url = await oidc.authorize({
      provider: query.provider,
      redirectTo: query.redirect_to,
      pkce: pkce(query).pkce,
      linkTo: await sessions.authenticate(request.headers.authorization),
    });
    // auth-js asks for the URL as JSON and sends the browser there itself.
    if (query.skip_http_redirect === "true") return { url };
    return reply.redirect(url, 302);
  });
};
