import { z } from "zod";

/**
 * The body of every error answered on `/api`, `/storage` and `/rest`. `code` is stable:
 * clients switch on it, so a code is never renamed once shipped.
 */
export const ApiError = z.object({
  code: z.string(),
  message: z.string(),
  /** Which fields were wrong, for validation errors. */
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ApiError = z.infer<typeof ApiError>;

/** Codes the foundation answers with; feature modules add their own next to their routes. */
export const CommonErrorCode = {
  notFound: "not_found",
  validationFailed: "validation_failed",
  payloadTooLarge: "payload_too_large",
  unsupportedMediaType: "unsupported_media_type",
  methodNotAllowed: "method_not_allowed",
  internal: "internal_error",
} as const;
