import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { ZodError } from "zod";
import { AppError } from "../../errors";

/**
 * An error answered in the Supabase Auth (GoTrue) envelope. Codes and statuses follow the
 * reference server, because `@supabase/auth-js` and the apps built on it switch on them.
 */
export class AuthError extends AppError {
  constructor(
    statusCode: number,
    code: string,
    message: string,
    readonly weakPasswordReasons?: string[],
  ) {
    super(statusCode, code, message);
    this.name = "AuthError";
  }
}

export const apiVersionHeader = "x-supabase-api-version";
const currentApiVersion = "2024-01-01";

/**
 * Errors under /auth/v1. Clients that send `X-Supabase-Api-Version: 2024-01-01` (auth-js always
 * does) get `{code, message}` and the header echoed; older clients get the legacy
 * `{code: status, error_code, msg}`. Unexpected failures are logged and never shown.
 */
export function registerAuthErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    const authError = toAuthError(error);
    if (authError.statusCode >= 500) request.log.error({ err: error }, "auth request failed");
    return sendAuthError(request, reply, authError);
  });
  acceptEmptyJsonBodies(app);
}

/** Unknown paths under /auth/v1, in the same envelope. Fastify allows one such handler per prefix. */
export function registerAuthNotFound(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) => sendAuthError(request, reply, new AuthError(404, "not_found", "Not found")));
}

/**
 * auth-js sends `Content-Type: application/json` on every POST, even with no body (logout).
 * An empty body therefore means `{}` here, where Fastify would refuse it.
 */
function acceptEmptyJsonBodies(app: FastifyInstance): void {
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string", bodyLimit: 1024 * 1024 }, (_request, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text.trim() === "") return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new AuthError(400, "bad_json", "Could not parse request body as JSON"), undefined);
    }
  });
}

export function sendAuthError(request: FastifyRequest, reply: FastifyReply, error: AuthError): FastifyReply {
  const weakPassword = error.weakPasswordReasons ? { weak_password: { reasons: error.weakPasswordReasons } } : {};
  reply.status(error.statusCode).type("application/json; charset=utf-8");
  if (usesCurrentApi(request)) {
    return reply.header(apiVersionHeader, currentApiVersion).send({ code: error.code, message: error.message, ...weakPassword });
  }
  return reply
    .header("x-sb-error-code", error.code)
    .send({ code: error.statusCode, error_code: error.code, msg: error.message, ...weakPassword });
}

function usesCurrentApi(request: FastifyRequest): boolean {
  const version = request.headers[apiVersionHeader];
  return typeof version === "string" && /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= currentApiVersion;
}

function toAuthError(error: FastifyError | Error): AuthError {
  if (error instanceof AuthError) return error;
  if (error instanceof AppError) return new AuthError(error.statusCode, error.code, error.message);
  if (error instanceof ZodError) {
    const first = error.issues[0];
    return new AuthError(
      400,
      "validation_failed",
      first ? `${first.path.join(".") || "body"}: ${first.message}` : "Invalid request",
    );
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0];
    const field = first?.instancePath.split("/").filter(Boolean).join(".");
    return new AuthError(
      400,
      "validation_failed",
      field ? `${field}: ${first?.message ?? "is not valid"}` : (first?.message ?? "Invalid request"),
    );
  }
  const statusCode = "statusCode" in error && typeof error.statusCode === "number" ? error.statusCode : 500;
  if (statusCode === 413) return new AuthError(413, "request_entity_too_large", "Request body too large");
  if (statusCode === 429) return new AuthError(429, "over_request_rate_limit", "Request rate limit reached");
  if ("code" in error && error.code === "FST_ERR_CTP_INVALID_JSON_BODY")
    return new AuthError(400, "bad_json", "Could not parse request body as JSON");
  if (statusCode >= 400 && statusCode < 500) return new AuthError(statusCode, "validation_failed", error.message);
  return new AuthError(500, "unexpected_failure", "Unexpected failure, please try again later.");
}
