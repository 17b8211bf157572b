import type { ApiError } from "@memory-box/contract";
import { CommonErrorCode } from "@memory-box/contract";
import type { FastifyError, FastifyInstance, FastifyReply } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { AppError } from "../errors";

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
    return sendError(reply, 500, { code: CommonErrorCode.internal, message: "Something went wrong on our side. Please try again." });
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
