import { ApiError, DeviceList } from "@memory-box/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { memberOf, requireMembers, type MemberAuthenticator } from "../member-door";
import type { DevicesService } from "./devices.service";

export interface DevicesRoutesOptions {
  devices: DevicesService;
  authenticate: MemberAuthenticator;
}

const IdParams = z.object({ id: z.uuid({ message: "must be a device id (UUID)" }) });

/**
 * `/api/v1/account/devices`: the caller's own signed-in devices, and signing one out. Signing out
 * every other device is the auth API's `POST /auth/v1/logout?scope=others`.
 */
export const devicesRoutes: FastifyPluginAsyncZod<DevicesRoutesOptions> = async (app, { devices, authenticate }) => {
  requireMembers(app, authenticate);

  app.get(
    "/api/v1/account/devices",
    {
      schema: {
        tags: ["account"],
        summary: "The caller's signed-in devices",
        description: "Most recently active first, the device asking at the top (current: true).",
        response: { 200: DeviceList, 401: ApiError },
      },
    },
    async (request) => {
      const { user, claims } = memberOf(request);
      return { devices: await devices.list(user.id, claims.session_id) };
    },
  );

  app.delete(
    "/api/v1/account/devices/:id",
    {
      schema: {
        tags: ["account"],
        summary: "Sign a device out",
        description: "Its session ends at once. A device of another account, or one already signed out, is 404 device_not_found.",
        params: IdParams,
        response: { 204: z.null(), 400: ApiError, 401: ApiError, 404: ApiError },
      },
    },
    async (request, reply) => {
      const { user } = memberOf(request);
      await devices.signOut({ id: user.id, email: user.email }, request.params.id, request.ip);
      return reply.status(204).send(null);
    },
  );
};
