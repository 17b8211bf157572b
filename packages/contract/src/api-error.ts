import { z } from "zod";

/**
 * The body of every error answered on `/api` and `/rest` (the product's envelope; `/auth/v1` and
 * `/storage/v1` wrap the same code and message in their own). `code` is one of `ErrorCode`.
 */
export const ApiError = z.object({
  code: z.string(),
  message: z.string(),
  /** Which fields were wrong, for validation errors. */
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ApiError = z.infer<typeof ApiError>;
