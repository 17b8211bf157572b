import { ApiError, SingleSignOnOverview, SingleSignOnProvider, SingleSignOnProviderInput } from "@memory-box/contract";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { memberOf, requireMembers, type MemberAuthenticator } from "../member-door";
import type { AdminContext, SamlService } from "../auth";

export interface SingleSignOnRoutesOptions {
  sso: SamlService;
  authenticate: MemberAuthenticator;
  /** Throws 403 `owner_only` unless the member is an owner. */
  requireOwner: (member: { userId: string; email: string }) => Promise<void>;
}

const IdParams = z.object({ id: z.uuid({ message: "must be an identity provider id (UUID)" }) });
const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 422: ApiError };
const ownersOnly = "Owners only; others get 403 owner_only. With SAML off (AUTH_SAML_ENABLED) 422 sso_provider_disabled.";

/**
 * `/api/v1/single-sign-on`: owners register the household's SAML identity provider from Settings
 * (ADR 0036), what the admin API does for an operator with a service-role token.
 */
export const singleSignOnRoutes: FastifyPluginAsyncZod<SingleSignOnRoutesOptions> = async (app, options) => {
  const { sso } = options;
  requireMembers(app, options.authenticate);
  /** The owner, as the audit log records who changed single sign-on. */
  const asOwner = async (request: FastifyRequest): Promise<AdminContext> => {
    const { user } = memberOf(request);
    await options.requireOwner({ userId: user.id, email: user.email });
    return { caller: { role: "owner", sub: user.id }, ip: request.ip };
  };

  app.get(
    "/api/v1/single-sign-on",
    {
      schema: {
        tags: ["single sign-on"],
        summary: "What to give the identity provider, and the registered providers",
        description: ownersOnly,
        response: { 200: SingleSignOnOverview, ...errors },
      },
    },
    async (request) => {
      await asOwner(request);
      return sso.overview();
    },
  );

  app.post(
    "/api/v1/single-sign-on/providers",
    {
      schema: {
        tags: ["single sign-on"],
        summary: "Register an identity provider for e-mail domains",
        description: `${ownersOnly} Its metadata by address (https) or pasted; invited addresses of its domains then sign in with it.`,
        body: SingleSignOnProviderInput,
        response: { 201: SingleSignOnProvider, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await sso.registerForOwner(request.body, await asOwner(request))),
  );

  app.delete(
    "/api/v1/single-sign-on/providers/:id",
    {
      schema: {
        tags: ["single sign-on"],
        summary: "Remove an identity provider",
        description: `${ownersOnly} Members who signed in with it keep their accounts and sign in another way.`,
        params: IdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await sso.remove(request.params.id, await asOwner(request));
      return reply.status(204).send(null);
    },
  );
};
