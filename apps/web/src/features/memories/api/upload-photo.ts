import type { Photo } from "@memory-box/contract";

import { apiFetch } from "@/lib/api-client";

/** How many photos travel at once: enough to overlap round trips without hogging a phone's uplink. */
export const photoUploadConcurrency = 2;

/** The spec's rule: only files whose type starts with `image/` are uploaded; others are skipped. */
export function isImageFile(file: File): boolean {
  return file.type.startsWith("image/");
}

/** `POST /api/v1/photos`, one multipart field `file`. The server decodes it to decide it is an image. */
export function uploadPhoto(file: File, signal?: AbortSignal): Promise<Photo> {
  const body = new FormData();
  body.append("file", file, file.name);
  return apiFetch<Photo>("/api/v1/photos", { method: "POST", body, signal });
}

/**
 * Uploads every file, `concurrency` at a time. Never rejects: each file's outcome is reported at
 * its own index, so the caller can keep the order the person chose and save what did upload.
 */
export async function uploadPhotos(
  files: readonly File[],
  {
    concurrency = photoUploadConcurrency,
    upload = uploadPhoto,
  }: { concurrency?: number; upload?: (file: File) => Promise<Photo> } = {},
): Promise<PromiseSettledResult<Photo>[]> {
  const results = new Array<PromiseSettledResult<Photo>>(files.length);
  let next = 0;
  async function worker() {
    while (next < files.length) {
      const index = next++;
      try {
        results[index] = { status: "fulfilled", value: await upload(files[index]!) };
      } catch (reason) {
        results[index] = { status: "rejected", reason };
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(Math.max(1, concurrency), files.length) }, worker));
  return results;
}
