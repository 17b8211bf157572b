import { CommentLimits, ErrorCode } from "@memory-box/contract";

import { ApiError, NetworkError } from "@/lib/api-client";

/** What is wrong with a comment's text before it is sent; nothing when it can be sent. */
export function commentTextProblem(text: string): string | undefined {
  const length = text.trim().length;
  if (length > CommentLimits.bodyMaxLength) {
    return `A comment can be at most ${CommentLimits.bodyMaxLength} characters (this one has ${length}).`;
  }
  return undefined;
}

/** A failed comment or reaction change, said to the person from the API's code. */
export function responseProblem(error: unknown): string {
  if (error instanceof NetworkError) return "Could not reach Memory Box. Check your connection and try again.";
  if (!(error instanceof ApiError)) return "Something went wrong. Please try again.";
  switch (error.code) {
    case ErrorCode.not_comment_author:
      return "Only the member who wrote a comment can edit or delete it.";
    case ErrorCode.comment_not_found:
      return "This comment was deleted in the meantime.";
    case ErrorCode.memory_not_found:
      return "This memory was deleted in the meantime.";
    case ErrorCode.validation_failed: {
      const problem = error.fieldErrors.find((field) => field.path.endsWith("body"));
      return problem ? `The comment ${problem.message}.` : error.message;
    }
    default:
      return error.message;
  }
}
