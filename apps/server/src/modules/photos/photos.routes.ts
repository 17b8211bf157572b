import fastifyMultipart from "@fastify/multipart";
import { AccountUsage, ApiError, Photo, PhotoAccessGrant } from "@memory-box/contract";
import { parse as parseCookie, serialize as serializeCookie } from "cookie";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../errors";
import { memberOf, requireMembers, type Member, type MemberAuthenticator } from "../member-door";
import { BlobRangeNotSatisfiableError, type ByteRangeRequest } from "../storage";
import { photoAccessCookie, photoEtag, photoObjectPrefix } from "./photo-access";
import type { PhotosService } from "./photos.service";

export interface PhotosRoutesOptions {
  service: PhotosService;
  authenticate: MemberAuthenticator;
  maxUploadBytes: number;
  /**
   * Stores a received file (a temporary path, removed afterwards) as the member's media: the media
   * intake, which takes videos too (ADR 0055). Default: images only.
   */
  accept?: (ownerId: string, file: string, fileName: string) => Promise<Photo>;
}

/**
 * `POST /api/v1/photos`: one image or video per request, as multipart field `file`; members only. A
 * request carrying more parts is refused whole (400 `one_file_per_upload`) and stores nothing.
 */
export const photoUploadRoutes: FastifyPluginAsyncZod<PhotosRoutesOptions> = async (
  app,
  { service, authenticate, maxUploadBytes, accept },
) => {
  requireMembers(app, authenticate);
  await app.register(fastifyMultipart, { limits: { fileSize: maxUploadBytes, files: 1, fields: 0, parts: 1 } });

  app.post(
    "/api/v1/photos",
    {
      schema: {
        tags: ["photos"],
        summary:
          "Upload a photo or a video (multipart field `file`); attach it to a memory by listing its id in `photo_ids`. A video answers at once with its poster, `status` processing until its web copy is made",
        consumes: ["multipart/form-data"],
        response: { 201: Photo, 400: ApiError, 401: ApiError, 413: ApiError, 415: ApiError, 422: ApiError, 507: ApiError },
      },
    },
    async (request, reply) => {
      const ownerId = memberOf(request).user.id;
      const photo = await receiveOneFile(
        request,
        service,
        "Upload the photo as multipart/form-data with a field named file.",
        (tempFile, fileName) => (accept ? accept(ownerId, tempFile, fileName) : service.acceptFile(ownerId, tempFile)),
      );
      return reply.status(201).send(photo);
    },
  );
};

/**
 * The one file of a multipart upload (field `file`), received into a temporary file and handed to
 * `accept` with its name; `notMultipart` is the refusal's message for a body of another kind. A
 * second part would be dropped unseen: the whole request is refused before anything is stored.
 */
export async function receiveOneFile<T>(
  request: FastifyRequest,
  service: Pick<PhotosService, "receive">,
  notMultipart: string,
  accept: (tempFile: string, fileName: string) => Promise<T>,
): Promise<T> {
  if (!request.isMultipart()) throw new AppError("unsupported_media_type", { message: notMultipart });
  const parts = request.parts();
  const first = await parts.next().catch((error: unknown) => {
    throw malformedUpload(error);
  });
  const file = first.done ? undefined : first.value;
  if (file?.type !== "file" || file.fieldname !== "file") throw new AppError("file_required");
  const assertNothingMore = async () => {
    const next = await parts.next().catch((error: unknown) => {
      throw isPartsLimit(error) ? new AppError("one_file_per_upload") : malformedUpload(error);
    });
    if (!next.done) throw new AppError("one_file_per_upload");
  };
  try {
    return await service.receive(
      file.file,
      () => file.file.truncated,
      assertNothingMore,
      (tempFile) => accept(tempFile, file.filename),
    );
  } catch (error) {
    // The body broke off or was not multipart after all: the upload stream failed, not the server.
    if (error !== undefined && error === file.file.errored) throw malformedUpload(error);
    throw error;
  }
}

/**
 * `GET /api/v1/photos/{id}`: a photo or video as it stands now, for its uploader while it is in no
 * memory, for every member once it is: how a video's upload learns that its web copy is ready.
 * `GET /api/v1/account/usage`: how much the caller's photos and videos take ("Your data").
 */
export const photoReadRoutes: FastifyPluginAsyncZod<{ service: PhotosService; authenticate: MemberAuthenticator }> = async (
  app,
  { service, authenticate },
) => {
  requireMembers(app, authenticate);
  app.get(
    "/api/v1/photos/:id",
    {
      schema: {
        tags: ["photos"],
        summary: "A photo or video as it stands now (a video's status and, once ready, its video_url)",
        params: z.object({ id: z.uuid() }),
        response: { 200: Photo, 400: ApiError, 401: ApiError, 404: ApiError },
      },
    },
    async (request) => service.find(memberOf(request).user.id, request.params.id),
  );
  app.get(
    "/api/v1/account/usage",
    {
      schema: {
        tags: ["account"],
        summary: "How much the caller's photos and videos take on the server",
        response: { 200: AccountUsage, 401: ApiError },
      },
    },
    async (request) => service.usage(memberOf(request).user.id),
  );
};

/** @fastify/multipart's answer to a part past `limits.parts` or `limits.files`. */
function isPartsLimit(error: unknown): boolean {
  return error instanceof Error && "code" in error && (error.code === "FST_PARTS_LIMIT" || error.code === "FST_FILES_LIMIT");
}

/** Busboy's parse errors ("Unexpected end of multipart data", "Boundary not found") carry no status. */
function malformedUpload(error: unknown): unknown {
  if (error instanceof AppError || (error instanceof Error && "statusCode" in error)) return error;
  return new AppError("malformed_multipart", { cause: error });
}

export interface PhotoObjectRoutesOptions {
  service: PhotosService;
  /** Lets a member in by bearer token or by photo access cookie (`readPhotoAccess`); throws 401 otherwise. */
  authenticateViewer: (request: FastifyRequest) => Promise<{ id: string }>;
}

/**
 * `GET /storage/v1/object/authenticated/memory-photos/{key}`: the bytes of a photo rendition, for
 * `<img src>` and for API clients, as Supabase Storage names an authenticated download. Every
 * request, a revalidation included, must come from a member whose session is live (ADR 0018).
 * Browsers keep their copy for at most the access lifetime, then revalidate (a 304 without the
 * file being read). Served privately, with byte ranges, and never as anything a browser could run.
 */
export const photoObjectRoutes: FastifyPluginAsyncZod<PhotoObjectRoutesOptions> = async (
  app,
  { service, authenticateViewer },
) => {
  app.get(
    `${photoObjectPrefix}*`,
    { schema: { tags: ["photos"], summary: "A photo's bytes, for a signed-in member (bearer token or photo access cookie)" } },
    async (request, reply) => {
      const viewer = await authenticateViewer(request);
      return sendPhotoBytes(request, reply, service, (request.params as { "*": string })["*"], viewer.id);
    },
  );
};

/**
 * Answers with the bytes of the rendition `key` for a viewer already let in, as photo URLs serve
 * them (ADR 0018): kept privately for at most the access lifetime, a strong ETag (a revalidation
 * is a 304 without the file being read, but only once `assertServed` says it still would be),
 * byte ranges (206, or 416 with the size), and never anything a browser could run. Shared by the
 * frames' media route (ADR 0076).
 */
export async function sendPhotoBytes(
  request: FastifyRequest,
  reply: FastifyReply,
  service: Pick<PhotosService, "accessTtlSeconds" | "assertServed" | "open">,
  key: string,
  viewerId: string,
): Promise<FastifyReply> {
  const etag = photoEtag(key);
  reply
    .header("cache-control", `private, max-age=${service.accessTtlSeconds}`)
    .header("etag", etag)
    .header("x-content-type-options", "nosniff")
    .header("content-security-policy", "default-src 'none'; sandbox");
  if (request.headers["if-none-match"]?.split(/\s*,\s*/).includes(etag)) {
    // Only after the viewer was let in: a revalidation is where a signed-out device learns it is out.
    await service.assertServed(key, viewerId);
    return reply.status(304).send();
  }
  const range = parseRange(request.headers.range);
  try {
    const content = await service.open(key, range, viewerId);
    reply
      .header("content-type", content.info.contentType ?? "application/octet-stream")
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
}

export interface PhotoAccessRoutesOptions {
  service: PhotosService;
  authenticate: MemberAuthenticator;
  /** Whether members reach us over https: the cookie is then Secure. */
  secureCookies: boolean;
}

/**
 * `POST /api/v1/photo-access` renews the member's photo access cookie (the web app calls it while
 * a member is signed in, before the cookie runs out); `DELETE` removes it at sign-out. Responses to
 * a member's other API requests renew it too when it is missing or half spent
 * (`renewPhotoAccessWithMemberResponses`), so the page that lists photos can always show them.
 */
export const photoAccessRoutes: FastifyPluginAsyncZod<PhotoAccessRoutesOptions> = async (
  app,
  { service, authenticate, secureCookies },
) => {
  app.post(
    "/api/v1/photo-access",
    {
      schema: {
        tags: ["photos"],
        summary: "Renew the cookie that lets this browser load photos",
        response: { 200: PhotoAccessGrant, 401: ApiError },
      },
    },
    async (request, reply) => {
      const member = await authenticate(request);
      const grant = service.grantAccess(member.claims.session_id);
      reply.header("set-cookie", photoAccessCookieHeader(grant.value, service.accessTtlSeconds, secureCookies));
      return { expires_in: service.accessTtlSeconds };
    },
  );
  app.delete(
    "/api/v1/photo-access",
    { schema: { tags: ["photos"], summary: "Forget this browser's photo access cookie" } },
    async (_request, reply) =>
      reply
        .status(204)
        .header("set-cookie", photoAccessCookieHeader("", 0, secureCookies))
        .send(),
  );
};

/**
 * After any successful response to a member (`request.member` set by `requireMembers`), a photo
 * access cookie that is missing, for another session, or past half its life is renewed: the list
 * answer that names photos carries the cookie that shows them. Registered on the root instance.
 */
export function renewPhotoAccessWithMemberResponses(app: FastifyInstance, service: PhotosService, secureCookies: boolean): void {
  app.addHook("onSend", async (request, reply) => {
    const member = (request as { member?: Member | null }).member;
    if (!member || reply.statusCode >= 400 || reply.hasHeader("set-cookie")) return;
    const renewed = service.renewAccess(member.claims.session_id, readPhotoAccessCookie(request));
    if (renewed !== undefined)
      reply.header("set-cookie", photoAccessCookieHeader(renewed, service.accessTtlSeconds, secureCookies));
  });
}

/** The photo access cookie of a request, if it carries one. */
export function readPhotoAccessCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  return header === undefined ? undefined : parseCookie(header)[photoAccessCookie];
}

/**
 * HttpOnly (no script reads it), SameSite=Strict (no other site's page can use it), and sent only
 * to the photo path. Max-Age 0 removes it.
 */
function photoAccessCookieHeader(value: string, maxAgeSeconds: number, secure: boolean): string {
  return serializeCookie(photoAccessCookie, value, {
    httpOnly: true,
    sameSite: "strict",
    path: photoObjectPrefix,
    maxAge: maxAgeSeconds,
    secure,
  });
}

/** `bytes=start-end` or `bytes=start-`; other forms (suffix, several ranges) get the whole file, as HTTP allows. */
function parseRange(header: string | undefined): ByteRangeRequest | undefined {
  const match = /^bytes=(\d{1,15})-(\d{1,15})?$/.exec(header?.trim() ?? "");
  if (!match?.[1]) return undefined;
  const start = Number(match[1]);
  const end = match[2] === undefined ? undefined : Number(match[2]);
  if (end !== undefined && end < start) return undefined;
  return end === undefined ? { start } : { start, end };
}
