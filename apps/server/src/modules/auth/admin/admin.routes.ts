import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { z } from "zod";
import * as schemas from "./admin.schemas";
import type { AdminCaller, AdminContext, AdminService, UserAttributes, UserPage } from "./admin.service";
import { registerAuthErrorHandling } from "../core/auth-errors";
import type { FactorsService } from "../factors/factors.service";
import type { PasskeysService } from "../passkeys/passkeys.service";
import type { SamlService } from "../saml/saml.service";
import * as oauthSchemas from "../oauth-server/oauth-clients.schemas";
import type { OauthClientsService } from "../oauth-server/oauth-clients.service";
import { AppError } from "../../../errors";

export interface AdminRoutesOptions {
  admin: AdminService;
  factors: FactorsService;
  passkeys: PasskeysService;
  /** SAML identity providers (ADR 0036). */
  sso: SamlService;
  /** The OAuth 2.1 server's clients (ADR 0071). */
  oauthClients: OauthClientsService;
}

/**
 * The Supabase Auth admin API under /auth/v1 (`GoTrueAdminApi` of auth-js): account management
 * for holders of a service-role token. Handlers translate the wire format; the rules live in
 * AdminService.
 */
export const adminRoutes: FastifyPluginAsyncZod<AdminRoutesOptions> = async (
  app,
  { admin, factors, passkeys, sso, oauthClients },
) => {
  // Checked before the body is read, so a caller without a token learns nothing about the input.
  const callers = new WeakMap<FastifyRequest, AdminCaller>();
  app.addHook("onRequest", async (request) => {
    callers.set(request, await admin.authorize(request.headers.authorization));
  });
  const context = (request: FastifyRequest): AdminContext => ({ caller: callers.get(request)!, ip: request.ip });
  registerAuthErrorHandling(app);

  app.get("/admin/users", { schema: { querystring: schemas.ListUsersQuery } }, async (request, reply) => {
    const { page, per_page: perPage, filter } = request.query;
    const result = await admin.listUsers({ page, perPage, filter });
    reply
      .header("x-total-count", String(result.total))
      .header("link", paginationLinks(request.routeOptions.url ?? request.url, result, filter));
    return { users: result.users, aud: "authenticated" };
  });

  app.post("/admin/users", { schema: { body: schemas.AdminUserBody } }, async (request) =>
    admin.createUser(attributes(request.body), context(request)),
  );

  app.get("/admin/users/:id", { schema: { params: schemas.UserIdParams } }, async (request) => admin.getUser(request.params.id));

  app.put("/admin/users/:id", { schema: { params: schemas.UserIdParams, body: schemas.AdminUserBody } }, async (request) =>
    admin.updateUser(request.params.id, attributes(request.body), context(request)),
  );

  app.get("/admin/users/:id/factors", { schema: { params: schemas.UserIdParams } }, async (request) => {
    await admin.getUser(request.params.id);
    return factors.listForAdmin(request.params.id);
  });

  app.delete("/admin/users/:id/factors/:factorId", { schema: { params: schemas.UserFactorParams } }, async (request) =>
    factors.removeForAdmin(request.params.id, request.params.factorId),
  );

  app.get("/admin/users/:id/passkeys", { schema: { params: schemas.UserIdParams } }, async (request) => {
    await admin.getUser(request.params.id);
    return passkeys.listForAdmin(request.params.id);
  });

  app.delete(
    "/admin/users/:id/passkeys/:passkeyId",
    { schema: { params: schemas.UserPasskeyParams } },
    async (request, reply) => {
      await passkeys.removeForAdmin(request.params.id, request.params.passkeyId);
      return reply.code(204).send();
    },
  );

  // `should_soft_delete` is accepted for auth-js, which always sends it; deletes are always hard.
  app.delete("/admin/users/:id", { schema: { params: schemas.UserIdParams, body: schemas.DeleteUserBody } }, async (request) => {
    await admin.deleteUser(request.params.id, context(request));
    return {};
  });

  app.post(
    "/admin/generate_link",
    { schema: { querystring: schemas.RedirectQuery, body: schemas.GenerateLinkBody } },
    async (request) => {
      const { body } = request;
      return admin.generateLink(
        {
          type: body.type ?? "",
          email: body.email ?? "",
          password: body.password,
          data: body.data,
          newEmail: body.new_email,
          redirectTo: body.redirect_to ?? request.query.redirect_to,
        },
        context(request),
      );
    },
  );

  // SAML identity providers, as Supabase Auth's admin API manages them (ADR 0036).
  app.get("/admin/sso/providers", async () => sso.list());
  app.post("/admin/sso/providers", { schema: { body: schemas.SsoProviderBody } }, async (request, reply) =>
    reply.code(201).send(await sso.create(request.body, context(request))),
  );
  app.get("/admin/sso/providers/:id", { schema: { params: schemas.SsoProviderParams } }, async (request) =>
    sso.get(request.params.id),
  );
  app.put(
    "/admin/sso/providers/:id",
    { schema: { params: schemas.SsoProviderParams, body: schemas.SsoProviderBody } },
    async (request) => sso.update(request.params.id, request.body, context(request)),
  );
  app.delete("/admin/sso/providers/:id", { schema: { params: schemas.SsoProviderParams } }, async (request) =>
    sso.remove(request.params.id, context(request)),
  );

  // The OAuth 2.1 server's clients, as Supabase Auth's admin API registers them (ADR 0071).
  app.get("/admin/oauth/clients", { schema: { querystring: oauthSchemas.OauthClientListQuery } }, async (request, reply) => {
    const result = await oauthClients.list(request.query.page, request.query.per_page);
    reply
      .header("x-total-count", String(result.total))
      .header("link", paginationLinks(request.routeOptions.url ?? request.url, result));
    return { clients: result.clients, aud: "authenticated" };
  });
  app.post("/admin/oauth/clients", { schema: { body: oauthSchemas.OauthClientBody } }, async (request, reply) =>
    reply.code(201).send(await oauthClients.register({ ...request.body, redirect_uris: request.body.redirect_uris ?? [] })),
  );
  app.get("/admin/oauth/clients/:id", { schema: { params: oauthSchemas.OauthClientParams } }, async (request) =>
    oauthClients.get(request.params.id),
  );
  app.put(
    "/admin/oauth/clients/:id",
    { schema: { params: oauthSchemas.OauthClientParams, body: oauthSchemas.OauthClientBody } },
    async (request) => {
      const { client_name, client_uri, logo_uri, redirect_uris, grant_types, token_endpoint_auth_method } = request.body;
      return oauthClients.update(request.params.id, {
        client_name,
        client_uri,
        logo_uri,
        redirect_uris,
        grant_types,
        token_endpoint_auth_method,
      });
    },
  );
  app.delete("/admin/oauth/clients/:id", { schema: { params: oauthSchemas.OauthClientParams } }, async (request, reply) => {
    await oauthClients.remove(request.params.id);
    return reply.code(204).send();
  });
  app.post(
    "/admin/oauth/clients/:id/regenerate_secret",
    { schema: { params: oauthSchemas.OauthClientParams } },
    async (request) => oauthClients.regenerateSecret(request.params.id),
  );

  // auth-js `inviteUserByEmail`.
  app.post("/invite", { schema: { querystring: schemas.RedirectQuery, body: schemas.InviteBody } }, async (request) =>
    admin.inviteUser(
      { email: request.body.email ?? "", data: request.body.data, redirectTo: request.query.redirect_to },
      context(request),
    ),
  );
};

function attributes(body: z.infer<typeof schemas.AdminUserBody>): UserAttributes {
  if (body.phone) throw new AppError("phone_provider_disabled");
  if (body.password_hash)
    throw new AppError("validation_failed", { message: "password_hash is not supported; set password instead" });
  return {
    email: body.email,
    password: body.password,
    emailConfirm: body.email_confirm,
    userMetadata: body.user_metadata,
    appMetadata: body.app_metadata,
    role: body.role,
    banDuration: body.ban_duration,
  };
}

/**
 * `Link: <…?page=2&per_page=50>; rel="next", <…?page=4&per_page=50>; rel="last"`. auth-js reads
 * the page number after the URL's first `=` and JSON-parses the quoted rel, so `page` comes first.
 */
function paginationLinks(
  path: string,
  { page, perPage, total }: Pick<UserPage, "page" | "perPage" | "total">,
  filter?: string,
): string {
  const lastPage = Math.ceil(total / perPage);
  const link = (target: number, rel: string) => {
    const query = new URLSearchParams({ page: String(target), per_page: String(perPage), ...(filter ? { filter } : {}) });
    return `<${path}?${query.toString()}>; rel="${rel}"`;
  };
  return [...(page < lastPage ? [link(page + 1, "next")] : []), link(lastPage, "last")].join(", ");
}
