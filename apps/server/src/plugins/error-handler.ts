import { Stream } from "node:stream";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError, classifyError, detailsIn, messageIn } from "../errors";
import { languageFor, requestedLanguages } from "../lib/languages";

/** Writes a catalogue entry in one API's envelope. */
export type ErrorRenderer = (request: FastifyRequest, reply: FastifyReply, error: AppError) => FastifyReply;

/**
 * The message in the language of the member asking (their account's choice), else of the request's
 * `Accept-Language`, else English (ADR 0049). Read from the request itself: some errors are
 * answered before any hook ran.
 */
function productLanguage(request: FastifyRequest): string {
  return languageFor(request.member?.user.locale, requestedLanguages(request.headers["accept-language"]));
}

/**
 * The message on a Supabase-compatible API (`/auth/v1`, `/storage/v1`): English, the words Supabase
 * clients and their tests know, unless the request's `Accept-Language` asks for another language.
 */
function protocolMessage(request: FastifyRequest, error: AppError): string {
  return messageIn(error, languageFor(null, requestedLanguages(request.headers["accept-language"])));
}

/** The product's envelope (`/api`, `/rest`): `{code, message, details?}`. */
export const renderApiError: ErrorRenderer = (request, reply, error) => {
  const language = productLanguage(request);
  const details = detailsIn(error, language);
  return reply
    .headers(error.headers ?? {})
    .status(error.statusCode)
    .type("application/json; charset=utf-8")
    .send({
      code: error.code,
      message: messageIn(error, language),
      ...(details ? { details } : {}),
      ...error.extra,
    });
};

export const supabaseApiVersionHeader = "x-supabase-api-version";
const currentSupabaseApiVersion = "2024-01-01";

/**
 * Supabase Auth's envelope (`/auth/v1`). Clients that send `X-Supabase-Api-Version: 2024-01-01`
 * (auth-js always does) get `{code, message}` and the header echoed; older clients get the legacy
 * `{code: status, error_code, msg}` and `x-sb-error-code`.
 */
export const renderAuthError: ErrorRenderer = (request, reply, error) => {
  reply
    .headers(error.headers ?? {})
    .status(error.statusCode)
    .type("application/json; charset=utf-8");
  const version = request.headers[supabaseApiVersionHeader];
  const message = protocolMessage(request, error);
  if (typeof version === "string" && /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= currentSupabaseApiVersion) {
    return reply.header(supabaseApiVersionHeader, currentSupabaseApiVersion).send({ code: error.code, message, ...error.extra });
  }
  return reply
    .header("x-sb-error-code", error.code)
    .send({ code: error.statusCode, error_code: error.code, msg: message, ...error.extra });
};

/** Supabase Storage's envelope (`/storage/v1`): `{statusCode: "404", error, message}`, plus our `code`. */
export const renderStorageError: ErrorRenderer = (request, reply, error) =>
  reply
    .headers(error.headers ?? {})
    .status(error.statusCode)
    .type("application/json; charset=utf-8")
    .send({
      statusCode: String(error.statusCode),
      error: error.code,
      code: error.code,
      message: protocolMessage(request, error),
    });

/**
 * Makes `render` the error handler of `app` (the root, or an encapsulated plugin for its own
 * prefix): every thrown value is classified into a catalogue entry and rendered. Errors a client
 * caused keep their 4xx status; anything else is logged with the request id and answered as a
 * bare `unexpected_failure`, so no stack trace or internal message ever reaches a client.
 */
export function answerErrorsWith(app: FastifyInstance, render: ErrorRenderer): void {
  app.setErrorHandler((thrown: unknown, request, reply) => {
    const { error, unexpected, operatorMustAct } = classifyError(thrown);
    if (unexpected) request.log.error({ err: thrown }, "unhandled error");
    else if (operatorMustAct)
      request.log.error({ err: thrown, code: error.code }, "the server cannot do this until its operator acts");
    return render(request, reply, error);
  });
}

/** The product's error handler; `/auth/v1` and `/storage/v1` set their own inside their plugins. */
export function registerErrorHandler(app: FastifyInstance): void {
  answerErrorsWith(app, renderApiError);
}

/** The renderer of the API a path belongs to, for answers given before any route or plugin runs. */
function rendererForPath(path: string): ErrorRenderer {
  if (path.startsWith("/auth/v1/")) return renderAuthError;
  if (path.startsWith("/storage/v1/bucket")) return renderStorageError;
  return renderApiError;
}

/**
 * The few errors Fastify answers before any route or hook runs (a path with a broken %-escape, a
 * path parameter over the router's length limit), in the envelope of the API that was asked.
 * Passed to Fastify as `frameworkErrors`.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const appError = new AppError(error.code === "FST_ERR_MAX_PARAM_LENGTH" ? "uri_too_long" : "invalid_url");
  rendererForPath(request.url.split("?")[0] ?? "")(request, reply, appError);
}

/**
 * PostgreSQL cannot store U+0000 in text, and SQLite's full-text search ends a query at it: no
 * parameter, query value or body string may carry one. Checked before validation, for every route.
 */
export function rejectNulCharacters(app: FastifyInstance): void {
  app.addHook("preValidation", async (request) => {
    if (containsNul(request.params) || containsNul(request.query) || containsNul(request.body)) {
      throw new AppError("nul_character");
    }
  });
}

/**
 * Iterative: a body nested thousands deep must not overflow the check. A body handed to its route
 * unread is a stream: its object graph is the connection's (cyclic), and its bytes are the route's.
 */
function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  for (let index = 0; index < pending.length; index++) {
    const item = pending[index];
    if (typeof item === "string") {
      if (item.includes("\u0000")) return true;
    } else if (item !== null && typeof item === "object" && !Buffer.isBuffer(item) && !(item instanceof Stream)) {
      for (const [key, child] of Object.entries(item)) pending.push(key, child);
    }
  }
  return false;
}
