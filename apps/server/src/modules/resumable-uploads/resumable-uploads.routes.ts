import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { type AppError, classifyError, detailsIn, messageIn } from "../../errors";
import { languageFor, requestedLanguages } from "../../lib/languages";
import { memberOf, requireMembers, type MemberAuthenticator } from "../member-door";
import { resumableUploadsPath as uploadsPath } from "@memory-box/contract";
import { finishedHeaders, type ResumableUploadsService } from "./resumable-uploads.service";

export interface ResumableUploadsRoutesOptions {
  service: ResumableUploadsService;
  authenticate: MemberAuthenticator;
  /** Uploads a member may start per window; default 300 per 10 minutes (an album's worth, then a pause). */
  creationRateLimit?: { max: number; timeWindowMs: number };
}

const defaultCreationRateLimit = { max: 300, timeWindowMs: 10 * 60 * 1000 };

/**
 * The tus 1.0.0 endpoint (ADR 0056): `POST /api/v1/uploads` creates an upload (its body may carry
 * the first bytes), `HEAD`/`PATCH`/`DELETE /api/v1/uploads/{id}` ask its offset, continue it and
 * cancel it, `OPTIONS` says what the server offers. Every request needs the member's bearer
 * token; refusals the app decides (who is asking, whose upload, the limit, the metadata) are
 * answered before the tus server sees the request, the rest by it, all in the app's JSON shape.
 */
export const resumableUploadsRoutes: FastifyPluginAsync<ResumableUploadsRoutesOptions> = async (
  app,
  { service, authenticate, creationRateLimit = defaultCreationRateLimit },
) => {
  requireMembers(app, authenticate);
  // Within these routes only: every body reaches the tus server unread, as the socket's stream,
  // so no parser buffers it and no body limit of Fastify's applies (tus bounds it by Upload-Length).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", (_request, _payload, done) => done(null, undefined));

  const handOver = async (request: FastifyRequest, reply: FastifyReply) => {
    const ownerId = memberOf(request).user.id;
    // From here the tus server writes the answer: with the headers set so far (security headers,
    // request id), and the request's log line still written when the response finishes.
    reply.hijack();
    const headersSoFar = reply.getHeaders();
    for (const [name, value] of Object.entries(headersSoFar)) if (value !== undefined) reply.raw.setHeader(name, value);
    try {
      await service.handle({ req: request.raw, res: reply.raw }, ownerId, (error) => renderError(request, error));
    } catch (thrown) {
      const { error, unexpected } = classifyError(thrown);
      if (unexpected) request.log.error({ err: thrown }, "a resumable upload request failed");
      if (reply.raw.headersSent || reply.raw.destroyed) {
        reply.raw.destroy();
        return;
      }
      const { body } = renderError(request, error);
      reply.raw.writeHead(error.statusCode, { "content-type": "application/json; charset=utf-8", "tus-resumable": "1.0.0" });
      reply.raw.end(body);
    }
  };

  const ownUpload = async (request: FastifyRequest) => {
    await service.assertOwnUpload((request.params as { id: string }).id, memberOf(request).user.id);
  };
  const upload = `${uploadsPath}/:id`;

  app.post(
    uploadsPath,
    {
      schema: {
        tags: ["uploads"],
        summary: "Start a resumable upload (tus 1.0.0 creation, creation-with-upload); Upload-Length required",
      },
      config: {
        rateLimit: {
          max: creationRateLimit.max,
          timeWindow: creationRateLimit.timeWindowMs,
          keyGenerator: (request: FastifyRequest) => request.member?.user.id ?? request.ip,
        },
      },
    },
    async (request, reply) => {
      service.checkCreation(request.headers);
      await handOver(request, reply);
    },
  );
  app.route({
    method: "HEAD",
    url: upload,
    schema: { tags: ["uploads"], summary: "How much of an upload of yours the server has (Upload-Offset)" },
    handler: async (request, reply) => {
      const finished = await service.finishedMedia((request.params as { id: string }).id, memberOf(request).user.id);
      if (finished) return reply.status(200).headers(finishedHeaders(finished)).send();
      await ownUpload(request);
      await handOver(request, reply);
    },
  });
  app.patch(
    upload,
    {
      schema: {
        tags: ["uploads"],
        summary: "Continue an upload of yours from Upload-Offset; the last bytes answer 200 with the Photo",
      },
    },
    async (request, reply) => {
      await ownUpload(request);
      await handOver(request, reply);
    },
  );
  app.delete(
    upload,
    { schema: { tags: ["uploads"], summary: "Cancel an upload of yours (tus termination)" } },
    async (request, reply) => {
      await ownUpload(request);
      await handOver(request, reply);
    },
  );
  for (const url of [uploadsPath, upload]) {
    app.options(
      url,
      { schema: { tags: ["uploads"], summary: "What the tus server offers (Tus-Version, Tus-Extension, Tus-Max-Size)" } },
      handOver,
    );
  }
};

/** The app's error body, in the language of the member asking (as renderApiError says it). */
function renderError(request: FastifyRequest, error: AppError): { headers?: Record<string, string>; body: string } {
  const language = languageFor(request.member?.user.locale, requestedLanguages(request.headers["accept-language"]));
  const details = detailsIn(error, language);
  return {
    ...(error.headers ? { headers: error.headers } : {}),
    body: JSON.stringify({
      code: error.code,
      message: messageIn(error, language),
      ...(details ? { details } : {}),
      ...error.extra,
    }),
  };
}
