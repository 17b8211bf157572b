import { ApiError, BoxSettings, BoxSettingsChange } from "@memory-box/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { memberOf, requireMembers, type MemberAuthenticator } from "../member-door";
import type { BoxService } from "./box.service";

export interface BoxRoutesOptions {
  box: BoxService;
  authenticate: MemberAuthenticator;
}

/** `/api/v1/box`: the box's name, cover and "together since" (ADR 0065). */
export const boxRoutes: FastifyPluginAsyncZod<BoxRoutesOptions> = async (app, { box, authenticate }) => {
  requireMembers(app, authenticate);

  app.get(
    "/api/v1/box",
    {
      schema: {
        tags: ["box"],
        summary: "The box's name, cover and together-since date",
        description: "Every member. Each is null when not set; the cover's URLs need the member's token or photo access cookie.",
        response: { 200: BoxSettings, 401: ApiError },
      },
    },
    async () => box.read(),
  );

  app.put(
    "/api/v1/box",
    {
      schema: {
        tags: ["box"],
        summary: "Change the box's name, cover and together-since date",
        description:
          "Owners only (others get 403 `owner_only`, whatever they send). All three fields, null to unset; 400 `validation_failed` names the field at fault and nothing is saved. Open screens are told with the live event `box.updated`.",
        body: BoxSettingsChange,
        response: { 200: BoxSettings, 400: ApiError, 401: ApiError, 403: ApiError },
      },
      // Before the body is read: a member is refused as a member, never told what a valid body is.
      preValidation: async (request) => {
        const { user } = memberOf(request);
        await box.assertOwner({ userId: user.id, email: user.email });
      },
    },
    async (request) => {
      const { user } = memberOf(request);
      return box.change({ userId: user.id, email: user.email }, request.body);
    },
  );
};
