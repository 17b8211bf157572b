import { ApiError, Comment, CommentInput, CommentList, ReactionEmoji, ReactionList } from "@memory-box/contract";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { IdempotentCreate } from "../idempotency";
import { memberOf, requireMembers, type MemberAuthenticator } from "../member-door";
import type { CommentsService } from "./comments.service";

export interface CommentsRoutesOptions {
  service: CommentsService;
  authenticate: MemberAuthenticator;
  /** `Idempotency-Key` on the create (ADR 0043). */
  idempotentCreate: IdempotentCreate;
}

const memoryId = z.uuid({ message: "must be a memory id (UUID)" });
const MemoryParams = z.object({ id: memoryId });
const CommentParams = z.object({ id: memoryId, commentId: z.uuid({ message: "must be a comment id (UUID)" }) });
const ReactionParams = z.object({ id: memoryId, emoji: ReactionEmoji });
const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError };

/** `/api/v1/memories/{id}/comments` and `/reactions`: for signed-in members only (ADR 0030). */
export const commentsRoutes: FastifyPluginAsyncZod<CommentsRoutesOptions> = async (
  app,
  { service, authenticate, idempotentCreate },
) => {
  requireMembers(app, authenticate);
  const actor = (request: FastifyRequest) => ({ userId: memberOf(request).user.id });

  app.get(
    "/api/v1/memories/:id/comments",
    {
      schema: {
        tags: ["comments"],
        summary: "A memory's comments, oldest first",
        params: MemoryParams,
        response: { 200: CommentList, ...errors },
      },
    },
    async (request) => service.list(request.params.id),
  );

  app.post(
    "/api/v1/memories/:id/comments",
    {
      schema: {
        tags: ["comments"],
        summary: "Comment on a memory (a retry with the same Idempotency-Key gets the first answer)",
        params: MemoryParams,
        body: CommentInput,
        response: { 201: Comment, ...errors, 409: ApiError, 422: ApiError },
      },
      ...idempotentCreate.hooks,
    },
    async (request, reply) =>
      idempotentCreate.send(request, reply, { status: 201 }, (beforeCommit) =>
        service.create(actor(request), request.params.id, request.body, beforeCommit),
      ),
  );

  app.patch(
    "/api/v1/memories/:id/comments/:commentId",
    {
      schema: {
        tags: ["comments"],
        summary: "Edit one's own comment",
        params: CommentParams,
        body: CommentInput,
        response: { 200: Comment, ...errors },
      },
    },
    async (request) => service.update(actor(request), request.params.id, request.params.commentId, request.body),
  );

  app.delete(
    "/api/v1/memories/:id/comments/:commentId",
    {
      schema: {
        tags: ["comments"],
        summary: "Delete one's own comment",
        params: CommentParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.remove(actor(request), request.params.id, request.params.commentId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    "/api/v1/memories/:id/reactions",
    {
      schema: {
        tags: ["comments"],
        summary: "A memory's reactions by emoji, with the member's own",
        params: MemoryParams,
        response: { 200: ReactionList, ...errors },
      },
    },
    async (request) => service.reactions(actor(request), request.params.id),
  );

  app.put(
    "/api/v1/memories/:id/reactions/:emoji",
    {
      schema: {
        tags: ["comments"],
        summary: "React to a memory with an emoji (again: no change)",
        params: ReactionParams,
        response: { 200: ReactionList, ...errors },
      },
    },
    async (request) => service.react(actor(request), request.params.id, request.params.emoji),
  );

  app.delete(
    "/api/v1/memories/:id/reactions/:emoji",
    {
      schema: {
        tags: ["comments"],
        summary: "Take back one's reaction with an emoji (none: no change)",
        params: ReactionParams,
        response: { 200: ReactionList, ...errors },
      },
    },
    async (request) => service.unreact(actor(request), request.params.id, request.params.emoji),
  );
};
