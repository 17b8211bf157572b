import fs from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { AppError } from "../errors";
import { renderApiError } from "./error-handler";

/**
 * Paths owned by the server. An unknown path under these is a JSON 404, never the web app.
 * Only `/auth/v1` belongs to the auth API: `/auth` itself is the web app's sign-in page.
 */
export const apiPrefixes = ["/api", "/auth/v1", "/storage", "/rest"] as const;

const immutable = "public, max-age=31536000, immutable";
/** The web app's manifest (ADR 0031), as the build writes it (apps/web/vite.config.ts, `installableApp`). */
const manifestFile = "manifest.webmanifest";

export interface WebAppOptions {
  /**
   * The installed app's name for this installation (ADR 0065: the box's name), or null for the
   * build's own. Read at each request of the manifest, which is revalidated on every load.
   */
  appName?: () => Promise<string | null>;
}
const revalidate = "no-cache";

/**
 * Serves the built web app, compressed as the build left it (brotli or gzip, as the browser
 * accepts). Hashed files under /assets never change, so browsers keep them for a year; everything
 * else is revalidated on every load, so a new release reaches members at once: index.html above
 * all, and the service worker `/sw.js` with the manifest, whose names never change (a year-long
 * copy of the worker would hide every new version, ADR 0031). Any other GET outside the API
 * prefixes answers index.html, so client routes such as /memory/42 survive a reload.
 */
export async function registerWebApp(app: FastifyInstance, webDir: string, options: WebAppOptions = {}): Promise<void> {
  const indexFile = path.join(webDir, "index.html");
  const built = fs.existsSync(indexFile);
  const manifest = built && options.appName ? readManifest(webDir) : undefined;
  if (manifest && options.appName) registerManifest(app, manifest, options.appName);
  if (built) {
    await app.register(fastifyStatic, {
      root: webDir,
      // The manifest is answered by the route above, with this installation's name.
      ...(manifest ? { globIgnore: [manifestFile, `${manifestFile}.br`, `${manifestFile}.gz`] } : {}),
      // Routes are made for the files present at start-up instead of one catch-all, so unknown
      // API paths still reach the JSON 404 below.
      wildcard: false,
      // The build leaves .br and .gz copies of its text files (vite.config.ts): sent by Accept-Encoding.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        const underAssets = path.relative(path.join(webDir, "assets"), filePath);
        reply.header("cache-control", underAssets.startsWith("..") ? revalidate : immutable);
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split("?")[0] ?? "/";
    const isApiPath = apiPrefixes.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
    // A missing hashed asset (an old page asking for last release's bundle) must fail as a 404:
    // answering it with HTML would make the browser choke on a script that is a page.
    const isPageRequest = (request.method === "GET" || request.method === "HEAD") && !pathname.startsWith("/assets/");
    if (!isApiPath && isPageRequest && built) {
      return reply.header("cache-control", revalidate).sendFile("index.html");
    }
    const message =
      !isApiPath && isPageRequest
        ? "The web app is not built. Run `npm run build`, or use `npm run dev`."
        : `No route for ${request.method} ${pathname}.`;
    return renderApiError(request, reply, new AppError("not_found", { message }));
  });
}

/** The built manifest, or undefined when the build wrote none (or one that is not JSON: then served as it is). */
function readManifest(webDir: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(path.join(webDir, manifestFile), "utf8"));
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `/manifest.webmanifest` with the installation's name (ADR 0065): `name` and `short_name` are the
 * box's name when an owner set one, the build's otherwise; everything else (icons, colours, the
 * share target) as built. Browsers fetch it without the member's token, so it carries nothing but
 * the name: never the cover.
 */
function registerManifest(app: FastifyInstance, manifest: Record<string, unknown>, appName: () => Promise<string | null>): void {
  app.get(`/${manifestFile}`, { schema: { hide: true } }, async (_request, reply) => {
    const name = await appName();
    reply.header("cache-control", revalidate).type("application/manifest+json");
    return JSON.stringify(name === null ? manifest : { ...manifest, name, short_name: name });
  });
}
