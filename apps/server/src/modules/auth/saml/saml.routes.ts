import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AuthRateLimits } from "../../../config";
import { registerAuthErrorHandling } from "../core/auth-errors";
import { pkce } from "../core/auth-wire";
import { redirectAfterCallback } from "../identities/identity-redirects";
import * as schemas from "./saml.schemas";
import type { SamlService } from "./saml.service";

export interface SamlRoutesOptions {
  sso: SamlService;
  rateLimits: AuthRateLimits | false;
}

const fiveMinutes = 5 * 60 * 1000;
/** An identity provider's answer is a few kilobytes; a megabyte of form is not one. */
const maxFormBytes = 1024 * 1024;

/**
 * SAML 2.0 single sign-on under /auth/v1 (ADR 0036), as Supabase Auth serves it: `POST /sso`
 * starts a sign-in, the identity provider posts its answer to `/sso/saml/acs`, and
 * `/sso/saml/metadata` describes this server to the provider's administrator.
 */
export const samlRoutes: FastifyPluginAsyncZod<SamlRoutesOptions> = async (app, { sso, rateLimits }) => {
  registerAuthErrorHandling(app);
  // The assertion comes as an HTML form post from the identity provider's page.
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: maxFormBytes },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  // Supabase Auth's RATE_LIMIT_SSO and SAML_RATE_LIMIT_ASSERTION: each route counts for itself.
  const limit = rateLimits ? { config: { rateLimit: { max: rateLimits.sso, timeWindow: fiveMinutes } } } : {};

  app.post("/sso", { ...limit, schema: { body: schemas.SsoBody } }, async (request, reply) => {
    const { body } = request;
    const url = await sso.start({
      domain: body.domain,
      providerId: body.provider_id,
      redirectTo: body.redirect_to,
      pkce: pkce(body).pkce,
    });
    // auth-js asks for the address as JSON (`skip_http_redirect`) and sends the browser there itself.
    if (body.skip_http_redirect) return { url };
    return reply.redirect(url, 303);
  });

  app.get("/sso/saml/metadata", async (request, reply) => {
    const xml = await sso.serviceProviderMetadata();
    reply.type("application/xml; charset=utf-8");
    if ((request.query as { download?: string }).download === "true")
      reply.header("content-disposition", 'attachment; filename="metadata.xml"');
    return xml;
  });

  app.post("/sso/saml/acs", { ...limit, schema: { body: schemas.AssertionForm } }, async (request, reply) =>
    redirectAfterCallback(
      reply,
      await sso.consume(request.body, { ip: request.ip, userAgent: request.headers["user-agent"] ?? null }),
    ),
  );
};
