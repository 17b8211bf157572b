import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import helmet from "helmet";

/**
 * The web app loads only its own scripts; Radix positions popovers with inline styles. Its
 * service worker and manifest are its own too (ADR 0031), said outright rather than left to fall
 * back on default-src.
 */
const contentSecurityPolicy = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", "data:", "blob:"],
  fontSrc: ["'self'", "data:"],
  connectSrc: ["'self'"],
  workerSrc: ["'self'"],
  manifestSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  // Members may open the app over plain HTTP on their home network; upgrading would break it.
  upgradeInsecureRequests: null,
};

/**
 * Helmet's headers (CSP, HSTS, nosniff, frame and referrer policies, …) on every response.
 * Without CSP nonces they do not depend on the request, so helmet runs once, at start-up, and
 * each response gets the headers it set: the Fastify wrapper runs helmet's eleven middlewares
 * anew for every request, which costs more than a cached list page.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: { mapContentOrigins?: readonly string[] } = {}): void {
  const headers = headersSetBy(
    helmet({ contentSecurityPolicy: { directives: directivesWith(options.mapContentOrigins ?? []) } }),
  );
  app.addHook("onRequest", (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/**
 * The policy with the map's content origins (MAP_STYLE_URL's and MAP_CONTENT_ORIGINS, ADR 0057):
 * MapLibre fetches the style, tiles, glyphs and sprites (connect-src) and draws sprite and raster
 * images (img-src). Without a style the embedded map is the app's own and the policy stays as it is.
 */
function directivesWith(mapContentOrigins: readonly string[]) {
  if (mapContentOrigins.length === 0) return contentSecurityPolicy;
  return {
    ...contentSecurityPolicy,
    imgSrc: [...contentSecurityPolicy.imgSrc, ...mapContentOrigins],
    connectSrc: [...contentSecurityPolicy.connectSrc, ...mapContentOrigins],
  };
}

/** The headers a helmet middleware sets on a response (it only ever sets or removes headers). */
function headersSetBy(middleware: ReturnType<typeof helmet>): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  middleware({} as IncomingMessage, response as unknown as ServerResponse, (error) => {
    failure = error;
  });
  if (failure) throw failure instanceof Error ? failure : new Error("helmet refused its configuration");
  return headers;
}
