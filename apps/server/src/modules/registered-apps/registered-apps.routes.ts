import { ApiError, AppRegistration, RegisteredApp, RegisteredAppList } from "@memory-box/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { memberOf, requireMembers, type MemberAuthenticator } from "../member-door";
import type { RegisteredAppsService } from "./registered-apps.service";

export interface RegisteredAppsRoutesOptions {
  apps: RegisteredAppsService;
  authenticate: MemberAuthenticator;
}

const ClientParams = z.object({ id: z.uuid({ message: "must be an app's client id (UUID)" }) });
const ownersOnly = "Owners only (others get 403 `owner_only`, before anything else is looked at).";

/** `/api/v1/apps`: the apps owners allow to sign members in with Memory Box (issue #36). */
export const registeredAppsRoutes: FastifyPluginAsyncZod<RegisteredAppsRoutesOptions> = async (app, { apps, authenticate }) => {
  requireMembers(app, authenticate);
  // Before the body or the id is read: a member is refused as a member, never told what is valid.
  app.addHook("preValidation", async (request) => {
    const { user } = memberOf(request);
    await apps.assertOwner({ userId: user.id, email: user.email });
  });
  const caller = (request: Parameters<typeof memberOf>[0]) => {
    const { user } = memberOf(request);
    return { userId: user.id, email: user.email };
  };

  app.get(
    "/api/v1/apps",
    {
      schema: {
        tags: ["apps"],
        summary: "The registered apps, newest first",
        description: ownersOnly,
        response: { 200: RegisteredAppList, 401: ApiError, 403: ApiError },
      },
    },
    async (request) => apps.list(caller(request)),
  );

  app.post(
    "/api/v1/apps",
    {
      schema: {
        tags: ["apps"],
        summary: "Register an app",
        description: `${ownersOnly} A confidential app's secret is in this answer only. The redirect addresses follow the admin API's rules (400 \`validation_failed\`).`,
        body: AppRegistration,
        response: { 201: RegisteredApp, 400: ApiError, 401: ApiError, 403: ApiError },
      },
    },
    async (request, reply) => reply.code(201).send(await apps.register(caller(request), request.body)),
  );

  app.delete(
    "/api/v1/apps/:id",
    {
      schema: {
        tags: ["apps"],
        summary: "Remove an app: its sign-ins end and its grants go",
        description: ownersOnly,
        params: ClientParams,
        response: { 204: z.null(), 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError },
      },
    },
    async (request, reply) => {
      await apps.remove(caller(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/api/v1/apps/:id/secret",
    {
      schema: {
        tags: ["apps"],
        summary: "Give a confidential app a new secret (the old one stops working)",
        description: `${ownersOnly} A public app has none (400 \`validation_failed\`).`,
        params: ClientParams,
        response: { 200: RegisteredApp, 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError },
      },
    },
    async (request) => apps.newSecret(caller(request), request.params.id),
  );
};
