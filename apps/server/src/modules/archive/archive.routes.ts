import type { OutgoingHttpHeaders } from "node:http";
import type { Readable } from "node:stream";
import { ApiError, ExportLink, ImportFormat, ImportProgress, ImportResult } from "@memory-box/contract";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { languageFor } from "../../lib/languages";
import { issueTicket } from "../../lib/session-ticket";
import { AppError } from "../../errors";
import type { MemberAuthenticator } from "../member-door";
import type { ArchiveExporter } from "./archive-exporter";
import type { ArchiveImports } from "./archive-imports";
import { ArchiveRefusedError } from "./archive-source";

export const exportTicketPurpose = "export";
/** How long a download link works: long enough for the browser to open it, not to be passed around. */
const exportLinkSeconds = 60;

export interface ArchiveRoutesOptions {
  exporter: ArchiveExporter;
  authenticate: MemberAuthenticator;
  /** A bearer token, or the export ticket in `?ticket=` naming a live session; throws 401 otherwise. */
  /** Lets the download in, answering the account asking (its language writes the pages). */
  authenticateDownload: (request: FastifyRequest) => Promise<{ locale: string | null }>;
  ticketSecret: Buffer;
  imports: ArchiveImports;
  /** Throws 403 `owner_only` unless the member is an owner. */
  requireOwner: (member: { userId: string; email: string }) => Promise<void>;
  now?: () => Date;
}

const DownloadQuery = z.object({ ticket: z.string().max(200).optional() });
const ImportQuery = z.object({ from: ImportFormat.default("memory-box") });
const archiveTypes = ["application/zip", "application/x-zip-compressed", "application/octet-stream"];

/**
 * "Download everything" (issue #15): any member asks for a link, and the browser downloads the
 * whole archive from it as a stream, with its own progress; the ticket in the link names the
 * member's session, which must still be live when the download starts.
 */
export const archiveRoutes: FastifyPluginAsyncZod<ArchiveRoutesOptions> = async (app, options) => {
  const now = () => options.now?.() ?? new Date();

  app.post(
    "/api/v1/account/export",
    {
      schema: {
        tags: ["account"],
        summary: "A one-minute link to download the whole archive",
        response: { 200: ExportLink, 401: ApiError },
      },
    },
    async (request) => {
      const member = await options.authenticate(request);
      const expires = Math.floor(now().getTime() / 1000) + exportLinkSeconds;
      const ticket = issueTicket(exportTicketPurpose, member.claims.session_id, expires, options.ticketSecret);
      return { url: `/api/v1/account/export?ticket=${ticket}`, expires_at: expires };
    },
  );

  app.get(
    "/api/v1/account/export",
    { schema: { tags: ["account"], summary: "The whole archive as a ZIP download", querystring: DownloadQuery } },
    async (request, reply) => {
      const account = await options.authenticateDownload(request);
      // The pages are in the exporting member's language (ADR 0049).
      const locale = languageFor(account.locale);
      const day = now().toISOString().slice(0, 10);
      reply
        .header("content-type", "application/zip")
        .header("content-disposition", `attachment; filename="memory-box-${day}.zip"`)
        .header("cache-control", "no-store")
        .header("x-content-type-options", "nosniff");
      // Written straight into the response (with the headers set so far, the security headers
      // included), not through a stream Fastify pipes: the response is done with each chunk when
      // it calls back, so the photos' read buffers are reused (ArchiveExporter.write).
      reply.hijack();
      reply.raw.writeHead(200, reply.getHeaders() as OutgoingHttpHeaders);
      // A failure mid-way ends the download unfinished: the browser reports it failed, never a whole-looking file.
      options.exporter.write(reply.raw, { outputIsFinal: true, locale }).catch((error: unknown) => {
        request.log.error({ err: error }, "export failed");
        reply.raw.destroy(error instanceof Error ? error : new Error("export failed"));
      });
    },
  );

  // Import (owners only): the archive is the request body itself, so the browser can show the
  // upload's progress; the rest of the work is reported by the progress route while it runs.
  // Within these routes only (a plugin's parsers stay in it): the body is handed over unread.
  app.addContentTypeParser(archiveTypes, (_request, body, done) => done(null, body));

  const owner = async (request: FastifyRequest) => {
    const member = await options.authenticate(request);
    await options.requireOwner({ userId: member.user.id, email: member.user.email });
    return member;
  };

  app.post(
    "/api/v1/account/import",
    {
      schema: {
        tags: ["account"],
        summary: "Import an archive (Memory Box or Day One ZIP as the body): all of it or nothing",
        querystring: ImportQuery,
        response: { 200: ImportResult, 401: ApiError, 403: ApiError, 409: ApiError, 422: ApiError },
      },
    },
    async (request) => {
      const member = await owner(request);
      if (!archiveTypes.includes(request.headers["content-type"]?.split(";")[0]?.trim() ?? "")) {
        throw new AppError("validation_failed", { message: "Send the archive as the body, as application/zip." });
      }
      if (options.imports.isRunning()) throw new AppError("import_busy");
      try {
        const summary = await options.imports.fromUpload(request.body as Readable, request.query.from, member.user.id);
        return {
          memories: summary.memories,
          photos: summary.photos,
          videos: summary.videos,
          already_here: summary.alreadyHere,
        };
      } catch (error) {
        if (error instanceof ArchiveRefusedError)
          throw new AppError("archive_refused", error.text ? { text: error.text } : { message: error.message });
        throw error;
      }
    },
  );

  app.get(
    "/api/v1/account/import/progress",
    {
      schema: {
        tags: ["account"],
        summary: "The running import's progress, or null",
        response: { 200: ImportProgress, 401: ApiError, 403: ApiError },
      },
    },
    async (request) => {
      await owner(request);
      return options.imports.progress();
    },
  );
};
