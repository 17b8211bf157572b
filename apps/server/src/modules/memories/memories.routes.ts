import {
  ApiError,
  Memory,
  MemoryBatch,
  MemoryBatchInput,
  MemoryCoverInput,
  MemoryInput,
  MemoryListQuery,
  MemoryNeighbours,
  MemoryPage,
  MemoryTimeline,
  MemoryTimelineQuery,
  OnThisDay,
  OnThisDayQuery,
  PhotoCaptionInput,
  TagList,
  TagParams,
  TagRename,
  TagRenamed,
} from "@memory-box/contract";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../errors";
import type { CreatedAnswer, IdempotentCreate } from "../idempotency";
import { memberOf, requireMembers, type MemberAuthenticator } from "../member-door";
import { sendPreparedJson } from "../../plugins/send-prepared-json";
import type { MemoriesService } from "./memories.service";

export interface MemoriesRoutesOptions {
  service: MemoriesService;
  authenticate: MemberAuthenticator;
  /** `Idempotency-Key` on the create (ADR 0043). */
  idempotentCreate: IdempotentCreate;
  /** Throws 403 `owner_only` unless the member is an owner (renaming and merging tags). */
  requireOwner: (member: { userId: string; email: string }) => Promise<void>;
}

const IdParams = z.object({ id: z.uuid({ message: "must be a memory id (UUID)" }) });
const PhotoIdParams = z.object({ id: z.uuid({ message: "must be a photo id (UUID)" }) });
const errors = { 400: ApiError, 401: ApiError, 404: ApiError, 409: ApiError };
const createErrors = { ...errors, 422: ApiError };
/** A new memory is answered 201 with its version as ETag, as a read of it would be. */
const createdMemory: CreatedAnswer<Memory> = { status: 201, headers: (memory) => ({ etag: etagOf(memory.version) }) };

/** `/api/v1/memories` and `/api/v1/tags`: the shared collection, for signed-in members only. */
export const memoriesRoutes: FastifyPluginAsyncZod<MemoriesRoutesOptions> = async (
  app,
  { service, authenticate, idempotentCreate, requireOwner },
) => {
  requireMembers(app, authenticate);
  const actor = (request: FastifyRequest) => ({ userId: memberOf(request).user.id });

  app.get(
    "/api/v1/memories",
    {
      schema: {
        tags: ["memories"],
        summary: "List memories, newest first",
        querystring: MemoryListQuery,
        response: { 200: MemoryPage, ...errors },
      },
    },
    async (request, reply) =>
      sendPreparedJson(request, reply, await service.listJson(request.query, memberOf(request).collection)),
  );

  app.get(
    "/api/v1/memories/timeline",
    {
      schema: {
        tags: ["memories"],
        summary: "How many memories each month holds, for a search and tag filter",
        querystring: MemoryTimelineQuery,
        response: { 200: MemoryTimeline, ...errors },
      },
    },
    async (request, reply) =>
      sendPreparedJson(request, reply, await service.timelineJson(request.query, memberOf(request).collection)),
  );

  app.get(
    "/api/v1/memories/on-this-day",
    {
      schema: {
        tags: ["memories"],
        summary: "Memories of the same days in earlier years (the member's calendar date)",
        querystring: OnThisDayQuery,
        response: { 200: OnThisDay, ...errors },
      },
    },
    async (request, reply) =>
      sendPreparedJson(request, reply, await service.onThisDayJson(request.query.date, memberOf(request).collection)),
  );

  app.get(
    "/api/v1/memories/:id",
    { schema: { tags: ["memories"], summary: "One memory", params: IdParams, response: { 200: Memory, ...errors } } },
    async (request, reply) => {
      const memory = await service.get(request.params.id);
      return reply.header("etag", etagOf(memory.version)).send(memory);
    },
  );

  app.get(
    "/api/v1/memories/:id/neighbours",
    {
      schema: {
        tags: ["memories"],
        summary: "The memories before and after this one, in the list's order",
        params: IdParams,
        response: { 200: MemoryNeighbours, ...errors },
      },
    },
    async (request) => service.neighbours(request.params.id),
  );

  app.post(
    "/api/v1/memories",
    {
      schema: {
        tags: ["memories"],
        summary: "Add a memory (a retry with the same Idempotency-Key gets the first answer)",
        body: MemoryInput,
        response: { 201: Memory, ...createErrors },
      },
      ...idempotentCreate.hooks,
    },
    async (request, reply) =>
      idempotentCreate.send(request, reply, createdMemory, (beforeCommit) =>
        service.create(actor(request), request.body, beforeCommit),
      ),
  );

  app.post(
    "/api/v1/memories/batch",
    {
      schema: {
        tags: ["memories"],
        summary:
          "Add several memories at once, one per capture day, all or none (a retry with the same Idempotency-Key gets the first answer)",
        body: MemoryBatchInput,
        response: { 201: MemoryBatch, ...createErrors },
      },
      bodyLimit: 1024 * 1024,
      ...idempotentCreate.hooks,
    },
    async (request, reply) =>
      idempotentCreate.send(request, reply, { status: 201 }, (beforeCommit) =>
        service.createBatch(actor(request), request.body.items, beforeCommit),
      ),
  );

  app.put(
    "/api/v1/memories/:id",
    {
      schema: {
        tags: ["memories"],
        summary: "Replace a memory's fields and photos",
        params: IdParams,
        body: MemoryInput,
        response: { 200: Memory, ...errors },
      },
    },
    async (request, reply) => {
      const memory = await service.update(
        actor(request),
        request.params.id,
        request.body,
        expectedVersion(request.headers["if-match"]),
      );
      return reply.header("etag", etagOf(memory.version)).send(memory);
    },
  );

  // The cover and captions have routes of their own (ADR 0062): set from the memory's page, they
  // never travel with the form's fields, so neither save undoes the other.
  app.put(
    "/api/v1/memories/:id/cover",
    {
      schema: {
        tags: ["memories"],
        summary: "Choose the memory's cover photo (one of its own), or null for the first",
        params: IdParams,
        body: MemoryCoverInput,
        response: { 200: Memory, ...errors },
      },
    },
    async (request, reply) => {
      const memory = await service.setCover(
        actor(request),
        request.params.id,
        request.body.photo_id,
        expectedVersion(request.headers["if-match"]),
      );
      return reply.header("etag", etagOf(memory.version)).send(memory);
    },
  );

  app.put(
    "/api/v1/photos/:id/caption",
    {
      schema: {
        tags: ["memories"],
        summary: "Set or remove the caption of a photo in a memory; answers the memory",
        params: PhotoIdParams,
        body: PhotoCaptionInput,
        response: { 200: Memory, ...errors },
      },
    },
    async (request, reply) => {
      const memory = await service.setCaption(actor(request), request.params.id, request.body.caption);
      return reply.header("etag", etagOf(memory.version)).send(memory);
    },
  );

  app.delete(
    "/api/v1/memories/:id",
    {
      schema: {
        tags: ["memories"],
        summary: "Delete a memory and its photos",
        params: IdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.remove(actor(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    "/api/v1/tags",
    {
      schema: {
        tags: ["memories"],
        summary: "Every tag with its count, most used first",
        response: { 200: TagList, 401: ApiError },
      },
    },
    () => service.tags(),
  );

  app.put(
    "/api/v1/tags/:name",
    {
      schema: {
        tags: ["memories"],
        summary: "Rename a tag on every memory; into an existing tag's name, merge them",
        description:
          "Owners only; others get 403 owner_only. The tag in the path is matched ignoring case; 404 not_found when no memory carries it. One transaction; each memory changed gets a new version and a memory.updated event.",
        params: TagParams,
        body: TagRename,
        response: { 200: TagRenamed, 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError },
      },
    },
    async (request) => {
      const member = memberOf(request);
      await requireOwner({ userId: member.user.id, email: member.user.email });
      return service.renameTag(actor(request), request.params.name, request.body.name);
    },
  );
};

/** For `If-Match` on edits only, never answered with 304: comments and reactions change a memory's body, not its version. */
function etagOf(version: number): string {
  return `"v${version}"`;
}

/** `If-Match: "v3"` → 3. Anything else that is present is a client error, not a silent overwrite. */
function expectedVersion(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const match = /^"v(\d{1,9})"$/.exec(header.trim());
  if (!match?.[1]) throw new AppError("invalid_if_match");
  return Number(match[1]);
}
