import { CommentLimits, ErrorCode } from "@memory-box/contract";

import { ApiError, NetworkError } from "@/lib/api-client";
import { activeIntl } from "@/lib/intl";

/** What is wrong with a comment's text before it is sent; nothing when it can be sent. */
export function commentTextProblem(text: string): string | undefined {
  const length = text.trim().length;
  if (length > CommentLimits.bodyMaxLength) {
    return activeIntl().formatMessage({ id: "comments.tooLong" }, { limit: CommentLimits.bodyMaxLength, count: length });
  }
  return undefined;
}

/** A failed comment or reaction change, said to the person from the API's code. */
export function responseProblem(error: unknown): string {
  if (error instanceof NetworkError) return activeIntl().formatMessage({ id: "problem.network" });
  if (!(error instanceof ApiError)) return activeIntl().formatMessage({ id: "problem.unknown" });
  switch (error.code) {
    case ErrorCode.not_comment_author:
      return activeIntl().formatMessage({ id: "comments.onlyAuthor" });
    case ErrorCode.comment_not_found:
      return activeIntl().formatMessage({ id: "comments.deletedMeanwhile" });
    case ErrorCode.memory_not_found:
      return activeIntl().formatMessage({ id: "memory.deletedMeanwhile" });
    case ErrorCode.validation_failed: {
      const problem = error.fieldErrors.find((field) => field.path.endsWith("body"));
      return problem ? activeIntl().formatMessage({ id: "comments.fieldProblem" }, { message: problem.message }) : error.message;
    }
    default:
      return error.message;
  }
}
