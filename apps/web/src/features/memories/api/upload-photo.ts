import type { Photo } from "@memory-box/contract";

import { isVideoFile } from "@/features/memories/utils/media";
import { ApiError, apiUpload, NetworkError, type UploadRequest } from "@/lib/api-client";
import { activeIntl } from "@/lib/intl";

/** How many photos travel at once: enough to overlap round trips without hogging a phone's uplink. */
export const photoUploadConcurrency = 2;

/**
 * `POST /api/v1/photos`, one multipart field `file`, reporting progress. The server decodes the
 * file to decide it is an image; the photo is stored unattached until a save lists its id.
 */
export function uploadPhoto(file: File, request: UploadRequest = {}): Promise<Photo> {
  const body = new FormData();
  body.append("file", file, file.name);
  return apiUpload<Photo>("/api/v1/photos", body, request);
}

/** Files above this size go resumably (tus), as every video does: a dropped connection costs a chunk, not the file. */
export const resumableUploadThreshold = 20 * 1024 * 1024;

export function usesResumableUpload(file: File): boolean {
  return isVideoFile(file) || file.size > resumableUploadThreshold;
}

/**
 * Uploads one of a memory's media: a small photo in one request (`uploadPhoto`), a video or a large
 * file resumably through `/api/v1/uploads` (the tus client is loaded then, not with home).
 */
export async function uploadMedia(file: File, request: UploadRequest = {}): Promise<Photo> {
  if (!usesResumableUpload(file)) return uploadPhoto(file, request);
  const { uploadResumable } = await import("@/features/memories/api/resumable-upload");
  return uploadResumable(file, request);
}

/**
 * `POST /api/v1/photos/:id/motion`: a Live Photo's clip joins its still (uploaded first); the
 * answer is the still become a Live Photo.
 */
export function attachMotion(photoId: string, clip: File, request: UploadRequest = {}): Promise<Photo> {
  const body = new FormData();
  body.append("file", clip, clip.name);
  return apiUpload<Photo>(`/api/v1/photos/${encodeURIComponent(photoId)}/motion`, body, request);
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
