import fastifyMultipart from "@fastify/multipart";
import { ApiError, Photo } from "@memory-box/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { memberOf, requireMembers, type MemberAuthenticator } from "../member-door";
import { receiveOneFile, type PhotosService } from "../photos";
import type { VideosService } from "./videos.service";

export interface VideosRoutesOptions {
  videos: VideosService;
  photos: PhotosService;
  authenticate: MemberAuthenticator;
  /** The largest clip taken: the photo upload limit (a Live Photo's motion is a few megabytes). */
  maxUploadBytes: number;
}

const MotionParams = z.object({ id: z.uuid() });

/**
 * `POST /api/v1/photos/{id}/motion`: a Live Photo's motion (one MOV or MP4 clip of at most 15 s,
 * multipart field `file`) for a still the member uploaded, in no memory yet or in one (every
 * member edits every memory). The answer is the photo, now `kind` live and `status` processing
 * until its motion's web copy is made.
 */
export const videosRoutes: FastifyPluginAsyncZod<VideosRoutesOptions> = async (
  app,
  { videos, photos, authenticate, maxUploadBytes },
) => {
  requireMembers(app, authenticate);
  await app.register(fastifyMultipart, { limits: { fileSize: maxUploadBytes, files: 1, fields: 0, parts: 1 } });

  app.post(
    "/api/v1/photos/:id/motion",
    {
      schema: {
        tags: ["photos"],
        summary: "Give a still its Live Photo motion (multipart field `file`: one MOV or MP4 clip of at most 15 s)",
        consumes: ["multipart/form-data"],
        params: MotionParams,
        response: {
          201: Photo,
          400: ApiError,
          401: ApiError,
          404: ApiError,
          409: ApiError,
          413: ApiError,
          415: ApiError,
          422: ApiError,
          507: ApiError,
        },
      },
    },
    async (request, reply) => {
      const memberId = memberOf(request).user.id;
      const photo = await receiveOneFile(
        request,
        photos,
        "Upload the clip as multipart/form-data with a field named file.",
        (tempFile, fileName) => videos.attachMotion(memberId, request.params.id, tempFile, fileName),
      );
      return reply.status(201).send(photo);
    },
  );
};
