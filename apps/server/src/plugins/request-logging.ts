import { randomUUID } from "node:crypto";
import { type FastifyInstance, type FastifyServerOptions, LogController } from "fastify";
import type { DestinationStream } from "pino";
import type { LogLevel } from "../config";

/** Query parameters that may be logged as they are; every other value is replaced. */
const loggableQueryParameters = new Set(["grant_type", "scope", "type", "limit", "page", "per_page"]);

/**
 * Logger options for Fastify. Headers that carry credentials are redacted, and the request
 * id is taken from `X-Request-Id` only when it is short and plain (log lines stay parseable).
 */
export function loggerOptions(
  level: LogLevel,
  stream?: DestinationStream,
): Pick<FastifyServerOptions, "logger" | "genReqId" | "logController"> {
  return {
    logger: {
      level,
      ...(stream ? { stream } : {}),
      redact: {
        paths: ["req.headers.authorization", "req.headers.cookie", "req.headers.apikey", 'res.headers["set-cookie"]'],
        censor: "[redacted]",
      },
    },
    genReqId: (request) => {
      const incoming = request.headers["x-request-id"];
      return typeof incoming === "string" && /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    },
    // Fastify's own logging writes two lines per request; ours writes one (below).
    logController: new LogController({ disableRequestLogging: true }),
  };
}

/** One log line per request: method, path (secrets in the query redacted), status, duration, request id. */
export function registerRequestLogging(app: FastifyInstance): void {
  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  app.addHook("onResponse", async (request, reply) => {
    const level = reply.statusCode >= 500 ? "error" : "info";
    request.log[level](
      {
        method: request.method,
        url: redactUrl(request.url),
        statusCode: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 10) / 10,
      },
      "request",
    );
  });
}

/** Keeps the path and the names of query parameters; drops values that could be secrets. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf("?");
  if (queryStart === -1) return url;
  const query = new URLSearchParams(url.slice(queryStart + 1));
  const kept = [...query].map(
    ([name, value]) =>
      `${encodeURIComponent(name)}=${loggableQueryParameters.has(name) ? encodeURIComponent(value) : "[redacted]"}`,
  );
  return `${url.slice(0, queryStart)}?${kept.join("&")}`;
}
