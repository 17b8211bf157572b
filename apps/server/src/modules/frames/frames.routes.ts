import {
  ApiError,
  Frame,
  FrameChange,
  FrameList,
  FramePairing,
  FramePairingApproval,
  FramePairingDenial,
  FramePairingQuery,
  FrameSlides,
  FrameSlidesQuery,
} from "@memory-box/contract";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../errors";
import { memberOf, requireMembers, type MemberAuthenticator } from "../member-door";
import { sendPhotoBytes, type PhotosService } from "../photos";
import { frameOf, requireFrames } from "./frame-door";
import type { FramesCaller, FramesService } from "./frames.service";
import type { FrameRow } from "../../db/schema";

export interface FramesRoutesOptions {
  frames: FramesService;
  authenticate: MemberAuthenticator;
  /** Wrong user codes a member, and an address, may try in five minutes; false: no limit (AUTH_RATE_LIMITS=false). */
  codeAttempts: number | false;
}

const fiveMinutes = 5 * 60 * 1000;
const frameParams = z.object({ id: z.uuid() });

/**
 * `/api/v1/frames` (ADR 0076): members answer a frame's pairing by the code it shows, and list,
 * change and remove the frames. Wrong codes are counted per member and per address: past
 * `codeAttempts` in five minutes, 429 `over_request_rate_limit`, so the eight letters cannot be guessed.
 */
export const framesRoutes: FastifyPluginAsyncZod<FramesRoutesOptions> = async (app, { frames, authenticate, codeAttempts }) => {
  requireMembers(app, authenticate);
  const limiters =
    codeAttempts === false
      ? []
      : [
          app.createRateLimit({
            max: codeAttempts,
            timeWindow: fiveMinutes,
            keyGenerator: (request) => `frame-code address ${request.ip}`,
          }),
          app.createRateLimit({
            max: codeAttempts,
            timeWindow: fiveMinutes,
            keyGenerator: (request) => `frame-code member ${memberOf(request).user.id}`,
          }),
        ];
  /** Runs `work` with a user code, unless too many were wrong; a wrong one counts. */
  const tryingCode = async <T>(request: FastifyRequest, work: () => Promise<T>): Promise<T> => {
    for (const limit of limiters) {
      const state = await limit(request, { increment: false });
      if (!state.isAllowed && state.remaining === 0) throw new AppError("over_request_rate_limit");
    }
    try {
      return await work();
    } catch (error) {
      if (error instanceof AppError && error.code === "frame_pairing_not_found")
        for (const limit of limiters) await limit(request);
      throw error;
    }
  };
  const caller = (request: FastifyRequest): FramesCaller => {
    const { user } = memberOf(request);
    return { userId: user.id, email: user.email, ip: request.ip };
  };

  app.get(
    "/api/v1/frames/pairing",
    {
      schema: {
        tags: ["frames"],
        summary: "The frame waiting with a code (before a member answers it)",
        description:
          "Every member. 404 `frame_pairing_not_found` for an unknown, expired or answered code alike; wrong codes are limited per member and address (429).",
        querystring: FramePairingQuery,
        response: { 200: FramePairing, 400: ApiError, 401: ApiError, 404: ApiError, 429: ApiError },
      },
    },
    async (request) => tryingCode(request, () => frames.pairing(request.query.user_code)),
  );

  app.post(
    "/api/v1/frames",
    {
      schema: {
        tags: ["frames"],
        summary: "Approve a frame's pairing: name it and say what it shows",
        description:
          "The frame, polling the token endpoint, then gets its session. 404 `frame_pairing_not_found` as for the lookup.",
        body: FramePairingApproval,
        response: { 201: Frame, 400: ApiError, 401: ApiError, 404: ApiError, 429: ApiError },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await tryingCode(request, () => frames.approve(caller(request), request.body))),
  );

  app.post(
    "/api/v1/frames/pairing/deny",
    {
      schema: {
        tags: ["frames"],
        summary: "Refuse a frame's pairing (the frame hears access_denied)",
        body: FramePairingDenial,
        response: { 204: z.null(), 400: ApiError, 401: ApiError, 404: ApiError, 429: ApiError },
      },
    },
    async (request, reply) => {
      await tryingCode(request, () => frames.deny(caller(request), request.body.user_code));
      return reply.status(204).send(null);
    },
  );

  app.get(
    "/api/v1/frames",
    {
      schema: {
        tags: ["frames"],
        summary: "The paired frames, newest first",
        response: { 200: FrameList, 401: ApiError },
      },
    },
    async () => ({ frames: await frames.list() }),
  );

  app.patch(
    "/api/v1/frames/:id",
    {
      schema: {
        tags: ["frames"],
        summary: "Rename a frame, or change what it shows or how",
        description: "Any member, any frame. The frame reads the change at its next refresh.",
        params: frameParams,
        body: FrameChange,
        response: { 200: Frame, 400: ApiError, 401: ApiError, 404: ApiError },
      },
    },
    async (request) => frames.change(request.params.id, request.body),
  );

  app.delete(
    "/api/v1/frames/:id",
    {
      schema: {
        tags: ["frames"],
        summary: "Remove a frame and end its session",
        description: "Any member, any frame: its next request is refused (401) and it shows the pairing screen.",
        params: frameParams,
        response: { 204: z.null(), 400: ApiError, 401: ApiError, 404: ApiError },
      },
    },
    async (request, reply) => {
      await frames.remove(caller(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};

export interface FrameRoutesOptions {
  frames: FramesService;
  photos: Pick<PhotosService, "accessTtlSeconds" | "assertServed" | "open">;
  authenticateFrame: (request: FastifyRequest) => Promise<FrameRow>;
}

/**
 * `/api/v1/frame/*` (ADR 0076), behind the frame door: a paired frame's slides, and the bytes of a
 * photo or video only if it belongs to a memory the frame shows (404 otherwise, as if it did not exist).
 */
export const frameRoutes: FastifyPluginAsyncZod<FrameRoutesOptions> = async (app, { frames, photos, authenticateFrame }) => {
  requireFrames(app, authenticateFrame);

  app.get(
    "/api/v1/frame/slides",
    {
      schema: {
        tags: ["frame"],
        summary: "A paired frame's slides, a page at a time",
        description:
          "The frame's token only (a member's, an app's or a removed frame's: 401). `today` is the frame's calendar day.",
        querystring: FrameSlidesQuery,
        response: { 200: FrameSlides, 400: ApiError, 401: ApiError },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return frames.slides(frameOf(request), request.query.today, request.query.cursor);
    },
  );

  const mediaParams = z.object({ id: z.uuid() });
  app.get(
    "/api/v1/frame/media/:id",
    {
      schema: {
        tags: ["frame"],
        summary: "A slide's display copy (a video's poster), for its frame",
        params: mediaParams,
      },
    },
    async (request, reply) => {
      const frame = frameOf(request);
      const key = await frames.mediaKey(frame, request.params.id, "display");
      return sendPhotoBytes(request, reply, photos, key, frame.paired_by);
    },
  );

  app.get(
    "/api/v1/frame/media/:id/video",
    {
      schema: {
        tags: ["frame"],
        summary: "A slide's video (its web copy, with byte ranges), for its frame",
        params: mediaParams,
      },
    },
    async (request, reply) => {
      const frame = frameOf(request);
      const key = await frames.mediaKey(frame, request.params.id, "video");
      return sendPhotoBytes(request, reply, photos, key, frame.paired_by);
    },
  );
};
