import type { Photo } from "@memory-box/contract";

import { ApiError, apiUpload, NetworkError, type UploadRequest } from "@/lib/api-client";
import { activeIntl } from "@/lib/intl";

/** How many photos travel at once: enough to overlap round trips without hogging a phone's uplink. */
export const photoUploadConcurrency = 2;

/** The spec's rule: only files whose type starts with `image/` are uploaded; others are skipped. */
export function isImageFile(file: File): boolean {
  return file.type.startsWith("image/");
}

/**
 * `POST /api/v1/photos`, one multipart field `file`, reporting progress. The server decodes the
 * file to decide it is an image; the photo is stored unattached until a save lists its id.
 */
export function uploadPhoto(file: File, request: UploadRequest = {}): Promise<Photo> {
  const body = new FormData();
  body.append("file", file, file.name);
  return apiUpload<Photo>("/api/v1/photos", body, request);
}

/**
 * Why an upload failed, in words a member can act on. The server's refusals already say what is
 * wrong and what fits (the size limit, the pixel limit, the accepted types); the rest is ours.
 */
export function uploadFailureReason(error: unknown): string {
  if (error instanceof NetworkError) {
    return typeof navigator !== "undefined" && !navigator.onLine
      ? activeIntl().formatMessage({ id: "upload.offline" })
      : activeIntl().formatMessage({ id: "upload.dropped" });
  }
  if (error instanceof ApiError) {
    if (error.status === 401 || error.status === 403) return activeIntl().formatMessage({ id: "upload.sessionEnded" });
    if (error.status >= 500 && error.status !== 507) return activeIntl().formatMessage({ id: "upload.serverFailed" });
    return error.message;
  }
  return activeIntl().formatMessage({ id: "upload.failed" });
}
