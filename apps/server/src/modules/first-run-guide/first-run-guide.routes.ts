import { ApiError, FirstRunGuide, FirstRunGuideChange } from "@memory-box/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { memberOf, requireMembers, type MemberAuthenticator } from "../member-door";
import type { FirstRunGuideService } from "./first-run-guide.service";

export interface FirstRunGuideRoutesOptions {
  guide: FirstRunGuideService;
  authenticate: MemberAuthenticator;
}

/** `/api/v1/account/guide`: the caller's own first-run guide (ADR 0066); no member id is ever taken. */
export const firstRunGuideRoutes: FastifyPluginAsyncZod<FirstRunGuideRoutesOptions> = async (app, { guide, authenticate }) => {
  requireMembers(app, authenticate);

  app.get(
    "/api/v1/account/guide",
    {
      schema: {
        tags: ["account"],
        summary: "The caller's first-run guide",
        description:
          "`dismissed_at` null: home shows the guide. `role` decides whether it has the step about inviting the partner.",
        response: { 200: FirstRunGuide, 401: ApiError },
      },
    },
    async (request) => guide.read(memberOf(request).user.id),
  );

  app.put(
    "/api/v1/account/guide",
    {
      schema: {
        tags: ["account"],
        summary: "Close the first-run guide, or show it again",
        description: '`{"dismissed": true}` closes it on every device of the caller; `false` shows it again on home.',
        body: FirstRunGuideChange,
        response: { 200: FirstRunGuide, 400: ApiError, 401: ApiError },
      },
    },
    async (request) => guide.change(memberOf(request).user.id, request.body.dismissed),
  );
};
