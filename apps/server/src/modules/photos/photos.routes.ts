import fastifyMultipart from "@fastify/multipart";
import { ApiError, Photo } from "@memory-box/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../errors";
import { memberOf, requireMembers, type MemberAuthenticator } from "../../plugins/member-auth";
import { BlobRangeNotSatisfiableError, type ByteRangeRequest } from "../storage";
import { photoBucket } from "./photo-key";
import type { PhotosService } from "./photos.service";

export interface PhotosRoutesOptions {
  service: PhotosService;
  authenticate: MemberAuthenticator;
  maxUploadBytes: number;
}

/** `POST /api/v1/photos`: one image per request, as multipart field `file`; members only. */
export const photoUploadRoutes: FastifyPluginAsyncZod<PhotosRoutesOptions> = async (
  app,
  { service, authenticate, maxUploadBytes },
) => {
  requireMembers(app, authenticate);
  await app.register(fastifyMultipart, { limits: { fileSize: maxUploadBytes, files: 1, fields: 0, parts: 1 } });

  app.post(
    "/api/v1/photos",
    {
      schema: {
        tags: ["photos"],
        summary: "Upload a photo (multipart field `file`); attach it to a memory by listing its id in `photo_ids`",
        consumes: ["multipart/form-data"],
        response: { 201: Photo, 400: ApiError, 401: ApiError, 413: ApiError, 415: ApiError, 422: ApiError },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart())
        throw new AppError("unsupported_media_type", {
          message: "Upload the photo as multipart/form-data with a field named file.",
        });
      const file = await request.file().catch((error: unknown) => {
        throw malformedUpload(error);
      });
      if (!file || file.fieldname !== "file") throw new AppError("file_required");
      try {
        const photo = await service.upload(memberOf(request).user.id, file.file, () => file.file.truncated);
        return await reply.status(201).send(photo);
      } catch (error) {
        // The body broke off or was not multipart after all: the upload stream failed, not the server.
        if (error !== undefined && error === file.file.errored) throw malformedUpload(error);
        throw error;
      }
    },
  );
};

/** Busboy's parse errors ("Unexpected end of multipart data", "Boundary not found") carry no status. */
function malformedUpload(error: unknown): unknown {
  if (error instanceof AppError || (error instanceof Error && "statusCode" in error)) return error;
  return new AppError("malformed_multipart", { cause: error });
}

const SignedQuery = z.looseObject({ expires: z.string().optional(), token: z.string().optional() });

/**
 * `GET /storage/v1/object/sign/memory-photos/{key}?expires=…&token=…`: the bytes of a photo, for
 * `<img src>`. The signature is the credential (images cannot send a bearer token); it expires.
 * Served privately, with byte ranges, and never as anything a browser could run.
 */
export const photoObjectRoutes: FastifyPluginAsyncZod<{ service: PhotosService }> = async (app, { service }) => {
  app.get(
    `/storage/v1/object/sign/${photoBucket}/*`,
    { schema: { tags: ["photos"], summary: "A photo's bytes behind a signed URL", querystring: SignedQuery } },
    async (request, reply) => {
      const key = (request.params as { "*": string })["*"];
      const range = parseRange(request.headers.range);
      try {
        const content = await service.open(key, request.query.expires, request.query.token, range);
        reply
          .header("content-type", content.info.contentType ?? "application/octet-stream")
          .header("cache-control", `private, max-age=${content.secondsLeft}, immutable`)
          .header("x-content-type-options", "nosniff")
          .header("content-security-policy", "default-src 'none'; sandbox")
          .header("content-disposition", "inline")
          .header("accept-ranges", "bytes")
          .header("last-modified", content.info.lastModified.toUTCString());
        if (content.range) {
          reply
            .status(206)
            .header("content-range", `bytes ${content.range.start}-${content.range.end}/${content.info.size}`)
            .header("content-length", content.range.end - content.range.start + 1);
        } else {
          reply.header("content-length", content.info.size);
        }
        return reply.send(content.body);
      } catch (error) {
        if (error instanceof BlobRangeNotSatisfiableError) reply.header("content-range", `bytes */${error.size}`);
        throw error;
      }
    },
  );
};

/** `bytes=start-end` or `bytes=start-`; other forms (suffix, several ranges) get the whole file, as HTTP allows. */
function parseRange(header: string | undefined): ByteRangeRequest | undefined {
  const match = /^bytes=(\d{1,15})-(\d{1,15})?$/.exec(header?.trim() ?? "");
  if (!match?.[1]) return undefined;
  const start = Number(match[1]);
  const end = match[2] === undefined ? undefined : Number(match[2]);
  if (end !== undefined && end < start) return undefined;
  return end === undefined ? { start } : { start, end };
}
