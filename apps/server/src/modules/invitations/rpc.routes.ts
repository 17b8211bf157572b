import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { InvitationCaller, InvitationsService } from "./invitations.service";

export interface RpcRoutesOptions {
  service: InvitationsService;
  /** The signed-in caller; throws a 401 AppError when the request has no valid session. */
  authenticate: (request: FastifyRequest) => Promise<InvitationCaller>;
  /** Per client address; absent when the operator turned rate limits off. */
  inviteCheckRateLimit?: { max: number; timeWindow: number };
}

// PostgREST rejects arguments a function does not take, so these schemas are strict too.
const IsEmailInvitedBody = z.object({ check_email: z.string() }).strict();
const MarkEmailUsedBody = z.object({ user_email: z.string() }).strict();

/**
 * The two PostgREST-style functions the web app calls around sign-in and sign-up, under
 * /rest/v1/rpc. Answers are bare JSON values, as PostgREST returns them.
 */
export const rpcRoutes: FastifyPluginAsyncZod<RpcRoutesOptions> = async (app, options) => {
  const { service, authenticate, inviteCheckRateLimit } = options;

  // Open to visitors (the sign-in page asks before anyone is signed in), hence the rate limit:
  // it keeps the list from being probed address by address.
  app.post(
    "/rest/v1/rpc/is_email_invited",
    {
      ...(inviteCheckRateLimit ? { config: { rateLimit: inviteCheckRateLimit } } : {}),
      schema: {
        tags: ["rpc"],
        summary: "Whether an e-mail address is on the invitation list",
        body: IsEmailInvitedBody,
        response: { 200: z.boolean() },
      },
    },
    async (request) => service.isInvited(request.body.check_email),
  );

  app.post(
    "/rest/v1/rpc/mark_email_used",
    {
      schema: {
        tags: ["rpc"],
        summary: "Marks the caller's own invitation as used",
        body: MarkEmailUsedBody,
        response: { 200: z.null() },
      },
    },
    async (request) => {
      const caller = await authenticate(request);
      await service.markOwnAddressUsed(caller, request.body.user_email);
      return null;
    },
  );
};
