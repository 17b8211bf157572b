/**
 * The one error type the HTTP layer knows how to answer. Every failure a client can cause
 * is an AppError with a stable `code` (clients switch on it; never rename one) and a status.
 * Anything else that reaches the error handler is a bug and becomes a generic 500.
 */
export class AppError extends Error {
  readonly statusCode: number;
  readonly code: string;

  constructor(statusCode: number, code: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "AppError";
    this.statusCode = statusCode;
    this.code = code;
  }
}

export const badRequest = (code: string, message: string) => new AppError(400, code, message);
export const notFound = (code: string, message: string) => new AppError(404, code, message);
