import type { ApiError } from "@memory-box/contract";
import { CommonErrorCode } from "@memory-box/contract";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { AppError } from "../errors";
import { AuthError, sendAuthError } from "../modules/auth";
import { sendStorageError } from "../modules/storage";

/**
 * Turns every error on the API prefixes into a JSON body with a stable code. Errors a client
 * caused keep their 4xx status; anything else is logged and answered as a bare 500, so no
 * stack trace or internal message ever reaches a client.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) {
      return sendError(reply, error.statusCode, { code: error.code, message: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return sendError(reply, 400, {
        code: CommonErrorCode.validationFailed,
        message: "The request is not valid.",
        details: error.validation.map((issue) => ({
          path: [error.validationContext, ...issue.instancePath.split("/").filter(Boolean)].filter(Boolean).join("."),
          message: issue.message ?? "is not valid",
        })),
      });
    }
    const statusCode = "statusCode" in error && typeof error.statusCode === "number" ? error.statusCode : 500;
    if (statusCode >= 400 && statusCode < 500) {
      return sendError(reply, statusCode, { code: codeForClientError(statusCode), message: error.message });
    }
    request.log.error({ err: error }, "unhandled error");
    return sendError(reply, 500, {
      code: CommonErrorCode.internal,
      message: "Something went wrong on our side. Please try again.",
    });
  });
}

export function sendError(reply: FastifyReply, statusCode: number, body: ApiError): FastifyReply {
  return reply.status(statusCode).type("application/json; charset=utf-8").send(body);
}

function codeForClientError(statusCode: number): string {
  switch (statusCode) {
    case 404:
      return CommonErrorCode.notFound;
    case 405:
      return CommonErrorCode.methodNotAllowed;
    case 413:
      return CommonErrorCode.payloadTooLarge;
    case 415:
      return CommonErrorCode.unsupportedMediaType;
    default:
      return "bad_request";
  }
}

/**
 * The few errors Fastify answers before any route or hook runs (a path with a broken %-escape, a
 * path parameter over the router's length limit), in the envelope of the API that was asked.
 * Passed to Fastify as `frameworkErrors`.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const tooLong = error.code === "FST_ERR_MAX_PARAM_LENGTH";
  const status = tooLong ? 414 : 400;
  const code = tooLong ? "uri_too_long" : "invalid_url";
  const message = tooLong ? "A part of the path is too long." : "The URL is not valid.";
  const path = request.url.split("?")[0] ?? "";
  if (path.startsWith("/auth/v1/")) {
    sendAuthError(request, reply, new AuthError(status, "validation_failed", message));
  } else if (path.startsWith("/storage/v1/bucket")) {
    sendStorageError(request, reply, new AppError(status, code, message));
  } else {
    sendError(reply, status, { code, message });
  }
}

/**
 * PostgreSQL cannot store U+0000 in text, and SQLite's full-text search ends a query at it: no
 * parameter, query value or body string may carry one. Checked before validation, for every route.
 */
export function rejectNulCharacters(app: FastifyInstance): void {
  app.addHook("preValidation", async (request) => {
    if (containsNul(request.params) || containsNul(request.query) || containsNul(request.body)) {
      throw new AppError(400, "nul_character", "Text may not contain the NUL character (U+0000).");
    }
  });
}

/** Iterative: a body nested thousands deep must not overflow the check. */
function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  for (let index = 0; index < pending.length; index++) {
    const item = pending[index];
    if (typeof item === "string") {
      if (item.includes("\u0000")) return true;
    } else if (item !== null && typeof item === "object" && !Buffer.isBuffer(item)) {
      for (const [key, child] of Object.entries(item)) pending.push(key, child);
    }
  }
  return false;
}
