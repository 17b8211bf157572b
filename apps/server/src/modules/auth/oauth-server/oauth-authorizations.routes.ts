import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AuthRateLimits } from "../../../config";
import { rateLimited, requestContext } from "../core/auth-wire";
import type { SessionService } from "../core/session.service";
import * as schemas from "./oauth-authorizations.schemas";
import type { DeviceAuthorizationsService } from "./device-authorizations.service";
import type { OauthAuthorizationsService } from "./oauth-authorizations.service";

export interface OauthServerRoutesOptions {
  oauth: OauthAuthorizationsService;
  devices: DeviceAuthorizationsService;
  sessions: SessionService;
  rateLimits: AuthRateLimits | false;
}

/** A token request's form is at most a few hundred bytes. */
const maxFormBytes = 16 * 1024;

/**
 * The OAuth 2.1 server's authorization code flow (issue #36, ADR 0075), as Supabase Auth's, so
 * auth-js's `oauth.getAuthorizationDetails`/`approveAuthorization`/`denyAuthorization` drive the
 * web app's consent page. The consent and grant routes take the member's own session only
 * (`SessionService.authenticate`'s default): a client's session never consents for itself.
 */
export const oauthServerRoutes: FastifyPluginAsyncZod<OauthServerRoutesOptions> = async (
  app,
  { oauth, devices, sessions, rateLimits },
) => {
  // Clients post the token request as a form (RFC 6749 4.1.3); JSON is taken too.
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: maxFormBytes },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  const member = (request: FastifyRequest) => sessions.authenticate(request.headers.authorization);

  app.get("/oauth/authorize", { schema: { querystring: schemas.AuthorizeQuery } }, async (request, reply) =>
    reply.redirect(await oauth.authorize(request.query), 302),
  );

  app.get("/oauth/authorizations/:id", { schema: { params: schemas.AuthorizationParams } }, async (request) =>
    oauth.details(await member(request), request.params.id),
  );

  app.post(
    "/oauth/authorizations/:id/consent",
    { schema: { params: schemas.AuthorizationParams, body: schemas.ConsentBody } },
    async (request) => oauth.consent(await member(request), request.params.id, request.body.action),
  );

  app.post("/oauth/token", { schema: { body: schemas.TokenBody.optional() } }, async (request, reply) => {
    const session = await oauth.token(
      { ...(request.body ?? {}), ...basicCredentials(request.headers.authorization) },
      requestContext(request),
    );
    // RFC 6749 5.1: tokens are never cached.
    reply.header("cache-control", "no-store").header("pragma", "no-cache");
    return session;
  });

  // RFC 8628 3.1–3.2: a frame asks for its codes (ADR 0076). Each call writes a row: counted per address as the token grants are.
  app.post(
    "/oauth/device_authorization",
    { schema: { body: schemas.DeviceAuthorizationBody.optional() }, ...rateLimited(rateLimits, "token") },
    async (request, reply) => {
      const authorization = await devices.authorize({
        ...(request.body ?? {}),
        ...basicCredentials(request.headers.authorization),
      });
      reply.header("cache-control", "no-store").header("pragma", "no-cache");
      return authorization;
    },
  );

  app.get("/user/oauth/grants", async (request) => oauth.listGrants(await member(request)));

  app.delete("/user/oauth/grants", { schema: { querystring: schemas.GrantsQuery } }, async (request, reply) => {
    await oauth.revokeGrant(await member(request), request.query.client_id);
    return reply.status(204).send();
  });
};

/** `Authorization: Basic` client credentials, each part form-encoded (RFC 6749 2.3.1). */
function basicCredentials(authorization: string | undefined): { basic?: { clientId: string; secret: string } } {
  const match = /^Basic\s+(\S+)$/i.exec(authorization ?? "");
  if (!match?.[1]) return {};
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return { basic: { clientId: "", secret: "" } };
  try {
    const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, " "));
    return { basic: { clientId: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) } };
  } catch {
    return { basic: { clientId: "", secret: "" } };
  }
}
