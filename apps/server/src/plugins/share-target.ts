import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../errors";

/** The installed app's share target (the web app's manifest, `share_target.action`). */
export const sharePath = "/share";

/** The headers a POST to the share target carries about where it comes from. */
export interface ShareRequestHeaders {
  /** `Sec-Fetch-Site`: `none` for a navigation the browser itself started (a share sheet). */
  fetchSite: string | undefined;
  origin: string | undefined;
  referer: string | undefined;
}

/**
 * Whether a POST to the share target comes from the phone's share sheet or this site's own pages,
 * never from another site's form (ADR 0044). The browser's `Sec-Fetch-Site` says so where it is
 * sent; without it, another site names itself in `Origin` or `Referer`.
 */
export function isShareFromThisDevice(headers: ShareRequestHeaders, appOrigin: string): boolean {
  if (headers.fetchSite !== undefined) return headers.fetchSite === "none" || headers.fetchSite === "same-origin";
  if (headers.origin !== undefined && headers.origin !== "null" && headers.origin !== appOrigin) return false;
  if (headers.referer !== undefined && originOf(headers.referer) !== appOrigin) return false;
  return true;
}

/**
 * `POST /share` when the service worker did not answer it (not installed yet, or blocked): a
 * share is kept only by the worker, on the device, so nothing is kept here. Another site's form is
 * refused (`403 share_from_another_site`); the share sheet's or this site's opens the app. Answered
 * before the body is read: the photos are never parsed.
 */
export function registerShareTarget(app: FastifyInstance, publicUrl: string): void {
  const appOrigin = new URL(publicUrl).origin;
  app.post(
    sharePath,
    {
      schema: { hide: true },
      onRequest: async (request, reply) => {
        if (!isShareFromThisDevice(shareHeadersOf(request), appOrigin)) throw new AppError("share_from_another_site");
        return reply.redirect("/", 303);
      },
    },
    // Never reached: every request is answered before its body is read.
    async (_request, reply) => reply.redirect("/", 303),
  );
}

function shareHeadersOf(request: FastifyRequest): ShareRequestHeaders {
  const one = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(",") : value;
  };
  return { fetchSite: one("sec-fetch-site"), origin: one("origin"), referer: one("referer") };
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
