import { ApiError, InvitationInput, InvitationSent, Member, MemberDirectory, RoleInput } from "@memory-box/contract";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { memberOf, requireMembers, type MemberAuthenticator } from "../member-door";
import type { InvitationCaller } from "./invitations.service";
import type { MembersService } from "./members.service";

export interface MembersRoutesOptions {
  service: MembersService;
  authenticate: MemberAuthenticator;
}

const IdParams = z.object({ id: z.uuid({ message: "must be a member id (UUID)" }) });
const EmailParams = z.object({ email: z.string().min(1).max(320) });
const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError };
const ownersOnly = "Owners only; others get 403 owner_only.";

/** `/api/v1/members`: who is in, and the owners' invitations, removals and roles. */
export const membersRoutes: FastifyPluginAsyncZod<MembersRoutesOptions> = async (app, { service, authenticate }) => {
  requireMembers(app, authenticate);
  const caller = (request: FastifyRequest): InvitationCaller => {
    const { user } = memberOf(request);
    return { userId: user.id, email: user.email };
  };

  app.get(
    "/api/v1/members",
    {
      schema: {
        tags: ["members"],
        summary: "Who is in",
        description:
          "Every member with their role. Owners also get when each joined, who invited them and when they were last active, and the pending invitations.",
        response: { 200: MemberDirectory, 401: ApiError },
      },
    },
    (request) => service.directory(caller(request)),
  );

  app.post(
    "/api/v1/members/invitations",
    {
      schema: {
        tags: ["members"],
        summary: "Invite an address",
        description: `${ownersOnly} E-mails a link to the sign-up form (or, without SMTP, answers emailed: false with the link to pass on). Inviting a pending address again sends the link again; a member's address is 409 already_member.`,
        body: InvitationInput,
        response: { 201: InvitationSent, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await service.invite(caller(request), request.body.email)),
  );

  app.delete(
    "/api/v1/members/invitations/:email",
    {
      schema: {
        tags: ["members"],
        summary: "Take back a pending invitation",
        description: `${ownersOnly} A member's invitation is 409 already_member: remove the member instead.`,
        params: EmailParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.revokeInvitation(caller(request), request.params.email);
      return reply.status(204).send(null);
    },
  );

  app.delete(
    "/api/v1/members/:id",
    {
      schema: {
        tags: ["members"],
        summary: "Remove a member",
        description: `${ownersOnly} Their sessions end at once; their account and memories stay. Removing the last owner is 409 last_owner.`,
        params: IdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.remove(caller(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.delete(
    "/api/v1/members/:id/factors",
    {
      schema: {
        tags: ["members"],
        summary: "Turn off a member's two-step verification",
        description: `${ownersOnly} Removes every authenticator app of the member (who lost theirs): signing in needs only their password again, and they are told by e-mail.`,
        params: IdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.resetSecondFactors(caller(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.put(
    "/api/v1/members/:id/role",
    {
      schema: {
        tags: ["members"],
        summary: "Make a member owner, or an owner a member",
        description: `${ownersOnly} Taking the role from the last owner is 409 last_owner.`,
        params: IdParams,
        body: RoleInput,
        response: { 200: Member, ...errors },
      },
    },
    (request) => service.setRole(caller(request), request.params.id, request.body.role),
  );
};
