import { PassThrough } from "node:stream";
import { ApiError, ExportLink } from "@memory-box/contract";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { issueTicket } from "../../lib/session-ticket";
import type { MemberAuthenticator } from "../../plugins/member-auth";
import type { ArchiveExporter } from "./archive-exporter";

export const exportTicketPurpose = "export";
/** How long a download link works: long enough for the browser to open it, not to be passed around. */
const exportLinkSeconds = 60;

export interface ArchiveRoutesOptions {
  exporter: ArchiveExporter;
  authenticate: MemberAuthenticator;
  /** A bearer token, or the export ticket in `?ticket=` naming a live session; throws 401 otherwise. */
  authenticateDownload: (request: FastifyRequest) => Promise<void>;
  ticketSecret: Buffer;
  now?: () => Date;
}

const DownloadQuery = z.object({ ticket: z.string().max(200).optional() });

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
      await options.authenticateDownload(request);
      const body = new PassThrough();
      // A failure mid-way ends the download unfinished: the browser reports it failed, never a whole-looking file.
      options.exporter.write(body).catch((error: unknown) => {
        request.log.error({ err: error }, "export failed");
        body.destroy(error instanceof Error ? error : new Error("export failed"));
      });
      const day = now().toISOString().slice(0, 10);
      return reply
        .header("content-type", "application/zip")
        .header("content-disposition", `attachment; filename="memory-box-${day}.zip"`)
        .header("cache-control", "no-store")
        .header("x-content-type-options", "nosniff")
        .send(body);
    },
  );
};
