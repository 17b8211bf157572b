import { ErrorCode, finishedUploadMediaHeader, type Photo, resumableUploadsPath } from "@memory-box/contract";
import { DetailedError, Upload, type HttpRequest } from "tus-js-client";

import { ApiError, apiFetch, endSessionGoneFromServer, NetworkError, type UploadRequest } from "@/lib/api-client";
import { getAuthClient } from "@/lib/auth-client";
import { activeIntl } from "@/lib/intl";

/**
 * 8 MiB a request: a dropped connection loses at most that much, the per-request overhead stays
 * far below the data's, and no proxy's body limit of 10 MB or more is met.
 */
export const resumableChunkSize = 8 * 1024 * 1024;

/** Tries again after a broken request, and again, for about forty seconds, then says it failed. */
export const resumableRetryDelays = [0, 1_000, 3_000, 5_000, 10_000, 20_000];

/**
 * Uploads `file` with the tus protocol (tus-js-client), resumably: the upload's address is kept in
 * this browser's storage under the file's fingerprint (name, type, size, date, endpoint), so a
 * connection lost, a phone locked or the page reloaded continues from the bytes the server has when
 * the same file is sent again; the address is forgotten once it has arrived. Each request carries
 * the member's current access token (a long upload outlives one). Cancelling ends the upload on
 * the server too. Answers and errors as `uploadPhoto`: the Photo, an `ApiError` for a refusal, a
 * `NetworkError` when the server could not be reached.
 *
 * Loaded only when a large file or a video is sent (upload-photo.ts), out of home's script.
 */
export function uploadResumable(file: File, { signal, onProgress }: UploadRequest = {}): Promise<Photo> {
  signal?.throwIfAborted();
  return new Promise<Photo>((resolve, reject) => {
    const upload = new Upload(file, {
      endpoint: new URL(resumableUploadsPath, window.location.href).href,
      chunkSize: resumableChunkSize,
      retryDelays: resumableRetryDelays,
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      metadata: { filename: file.name, filetype: file.type || "application/octet-stream" },
      onBeforeRequest: authorize,
      onProgress: (sent, total) => {
        if (total > 0) onProgress?.(sent / total);
      },
      // A refusal is final; a broken connection, a conflict over the offset or a server's passing
      // trouble is worth another try while the device is online.
      onShouldRetry: (error) => {
        const status = error.originalResponse?.getStatus() ?? 0;
        if (typeof navigator !== "undefined" && !navigator.onLine) return false;
        return status === 0 || status === 409 || status === 423 || (status >= 500 && status !== 507);
      },
      onSuccess: ({ lastResponse }) => {
        const photo = parsed(lastResponse.getBody()) as Photo | undefined;
        if (photo && typeof photo.id === "string") {
          resolve(photo);
          return;
        }
        // Resumed after the last answer was lost (a reload just after the last byte): the server's
        // answer to "where does it stand" names the media the upload became.
        const media = lastResponse.getHeader(finishedUploadMediaHeader);
        if (media) apiFetch<Photo>(`/api/v1/photos/${encodeURIComponent(media)}`, { signal }).then(resolve, reject);
        else reject(new Error("The upload finished without the server's answer."));
      },
      onError: (error) => {
        if (!signal?.aborted) reject(failureOf(error));
      },
    });
    signal?.addEventListener(
      "abort",
      () => {
        // `true`: the server is told to drop what it has (and the stored address is forgotten).
        upload.abort(true).catch(() => undefined);
        reject(new DOMException("The upload was cancelled.", "AbortError"));
      },
      { once: true },
    );
    upload
      .findPreviousUploads()
      .then(
        (previous) => {
          const latest = [...previous].sort((a, b) => b.creationTime.localeCompare(a.creationTime))[0];
          if (latest) upload.resumeFromPreviousUpload(latest);
        },
        () => undefined,
      )
      .finally(() => {
        if (!signal?.aborted) upload.start();
      });
  });
}

async function authorize(request: HttpRequest): Promise<void> {
  const { data } = await getAuthClient().getSession();
  if (data.session) request.setHeader("Authorization", `Bearer ${data.session.access_token}`);
  request.setHeader("Accept", "application/json");
}

/** A failed tus request as the app's upload errors: the server's refusal, or the connection. */
function failureOf(error: Error): Error {
  if (!(error instanceof DetailedError)) return error;
  const response = error.originalResponse;
  if (!response) return new NetworkError({ cause: error });
  const status = response.getStatus();
  if (status === 401) endSessionGoneFromServer();
  const body = (parsed(response.getBody()) ?? {}) as { code?: unknown; message?: unknown };
  return new ApiError(
    status,
    typeof body.code === "string" ? body.code : ErrorCode.unexpected_failure,
    typeof body.message === "string" ? body.message : activeIntl().formatMessage({ id: "api.failedStatus" }, { status }),
  );
}

function parsed(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
