import { useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import type { Photo } from "@memory-box/contract";

import { attachMotion, photoUploadConcurrency, uploadFailureReason, uploadMedia } from "@/features/memories/api/upload-photo";
import { isMediaFile, isVideoFile } from "@/features/memories/utils/media";
import { NetworkError } from "@/lib/api-client";

/** Where a chosen file stands: waiting its turn, on its way (0–1 sent), on the server, or refused. */
export type UploadState =
  | { status: "queued" }
  | { status: "uploading"; progress: number }
  | { status: "uploaded"; photo: Photo }
  | { status: "failed"; reason: string };

/** A photo or video chosen in the form, shown from an object URL while it uploads. */
export interface NewPhoto {
  key: string;
  file: File;
  /** A Live Photo's clip, chosen with its still (`file`): sent once the still has arrived. */
  motion?: File;
  previewUrl: string;
  upload: UploadState;
}

export type PhotoPicker = ReturnType<typeof usePhotoPicker>;

let nextPhotoKey = 0;

/**
 * The memory form's photos: the memory's own ones minus those removed, and newly chosen files.
 * A chosen file starts uploading at once (two at a time; offline, once the connection returns), so the member sees each one's progress
 * while filling in the rest, can cancel it, and learns why the server refused one before saving.
 * The server keeps an upload unattached until a save lists it (and deletes it a day later if none
 * does). A preview's object URL is revoked when the photo is removed or the form goes away, and
 * uploads still running then are cancelled.
 */
export function usePhotoPicker(initialPhotos: readonly Photo[] = []) {
  const [existingPhotos, setExistingPhotos] = useState(initialPhotos);
  const [removedIds, setRemovedIds] = useState<ReadonlySet<string>>(() => new Set());
  const [newPhotos, setNewPhotosState] = useState<NewPhoto[]>([]);

  // The uploads run outside React's render cycle: they read and write the list through this ref.
  const current = useRef<NewPhoto[]>([]);
  const running = useRef(new Map<string, AbortController>());
  const settledWaiters = useRef<(() => void)[]>([]);

  function setNewPhotos(next: NewPhoto[]) {
    current.current = next;
    setNewPhotosState(next);
    if (!next.some(isPending)) for (const resolve of settledWaiters.current.splice(0)) resolve();
  }

  useEffect(() => {
    const uploads = running.current;
    return () => {
      for (const controller of uploads.values()) controller.abort();
      for (const photo of current.current) URL.revokeObjectURL(photo.previewUrl);
    };
  }, []);

  // Photos chosen offline wait for the connection (ADR 0031), then go as if just chosen.
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const onOnline = () => {
      setOnline(true);
      startQueued();
    };
    const onOffline = () => setOnline(false);
    window.addEventListener("online", onOnline);
    window.addEventListener("offline", onOffline);
    return () => {
      window.removeEventListener("online", onOnline);
      window.removeEventListener("offline", onOffline);
    };
  });

  function setUpload(key: string, upload: UploadState) {
    // A photo removed meanwhile stays removed.
    if (!current.current.some((photo) => photo.key === key)) return;
    setNewPhotos(current.current.map((photo) => (photo.key === key ? { ...photo, upload } : photo)));
  }

  /** Starts queued uploads while fewer than the limit are on their way; offline, none. */
  function startQueued() {
    if (!navigator.onLine) return;
    for (const photo of current.current) {
      if (running.current.size >= photoUploadConcurrency) return;
      if (photo.upload.status === "queued") start(photo);
    }
  }

  function start(photo: NewPhoto) {
    const controller = new AbortController();
    running.current.set(photo.key, controller);
    setUpload(photo.key, { status: "uploading", progress: 0 });
    // A Live Photo's share of the bar: the still's bytes, then the clip's.
    const stillShare = photo.motion ? photo.file.size / Math.max(1, photo.file.size + photo.motion.size) : 1;
    uploadMedia(photo.file, {
      signal: controller.signal,
      onProgress: (progress) => setUpload(photo.key, { status: "uploading", progress: progress * stillShare }),
    })
      .then((still) =>
        photo.motion
          ? attachMotion(still.id, photo.motion, {
              signal: controller.signal,
              onProgress: (progress) =>
                setUpload(photo.key, { status: "uploading", progress: stillShare + progress * (1 - stillShare) }),
            })
          : still,
      )
      .then(
        (uploaded) => setUpload(photo.key, { status: "uploaded", photo: uploaded }),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          // Cut off by the connection going away: it waits for it to return, like a photo chosen offline.
          if (error instanceof NetworkError && !navigator.onLine) setUpload(photo.key, { status: "queued" });
          else setUpload(photo.key, { status: "failed", reason: uploadFailureReason(error) });
        },
      )
      .finally(() => {
        running.current.delete(photo.key);
        startQueued();
      });
  }

  function addFiles(files: readonly File[]) {
    // Only images and videos are uploaded; anything else is skipped without a word (the spec's rule).
    const added = pairLivePhotos(files.filter(isMediaFile)).map(({ file, motion }): NewPhoto => ({
      key: `photo-${nextPhotoKey++}`,
      file,
      ...(motion ? { motion } : {}),
      previewUrl: URL.createObjectURL(file),
      upload: { status: "queued" },
    }));
    if (added.length === 0) return;
    setNewPhotos([...current.current, ...added]);
    startQueued();
  }

  // Removals render at once (flushSync), so the caller can move focus off the vanished button.
  function removeExisting(photoId: string) {
    flushSync(() => setRemovedIds((ids) => new Set(ids).add(photoId)));
  }

  /** Takes a chosen photo out, cancelling its upload if it is still on its way. */
  function removeNew(photo: NewPhoto) {
    running.current.get(photo.key)?.abort();
    flushSync(() => setNewPhotos(current.current.filter((item) => item.key !== photo.key)));
    URL.revokeObjectURL(photo.previewUrl);
  }

  function removeFailed() {
    for (const photo of current.current.filter(isFailed)) URL.revokeObjectURL(photo.previewUrl);
    setNewPhotos(current.current.filter((photo) => !isFailed(photo)));
  }

  /** Sends the refused or broken-off photos again. */
  function retryFailed() {
    setNewPhotos(current.current.map((photo) => (isFailed(photo) ? { ...photo, upload: { status: "queued" } } : photo)));
    startQueued();
  }

  /** Resolves once no chosen photo is waiting or on its way. */
  function whenSettled(): Promise<void> {
    if (!current.current.some(isPending)) return Promise.resolve();
    return new Promise((resolve) => settledWaiters.current.push(resolve));
  }

  const keptPhotos = existingPhotos.filter((photo) => !removedIds.has(photo.id));

  return {
    /** Whether uploads can start: offline, chosen photos wait for the connection. */
    online,
    keptPhotos,
    newPhotos,
    failedPhotos: newPhotos.filter(isFailed),
    hasRemovals: removedIds.size > 0,
    addFiles,
    removeExisting,
    removeNew,
    removeFailed,
    retryFailed,
    whenSettled,
    /** The uploaded photos, in the order they were chosen; read after `whenSettled`. */
    uploadedPhotos: (): Photo[] =>
      current.current.flatMap((photo) => (photo.upload.status === "uploaded" ? [photo.upload.photo] : [])),
    /** After a conflict: the photos of the memory's current copy (removals still apply). */
    replaceExistingPhotos: setExistingPhotos,
  };
}

function isPending(photo: NewPhoto): boolean {
  return photo.upload.status === "queued" || photo.upload.status === "uploading";
}

function isFailed(photo: NewPhoto): photo is NewPhoto & { upload: { status: "failed" } } {
  return photo.upload.status === "failed";
}

/**
 * Live Photos among files chosen together: an image and a video of the same name but for the
 * extension (an iPhone's `IMG_0042.HEIC` and `IMG_0042.MOV`) are one Live Photo, the image its
 * still and the video its motion, in the image's place. Any other file stays as it is.
 */
export function pairLivePhotos(files: readonly File[]): { file: File; motion?: File }[] {
  const stem = (file: File) => file.name.replace(/\.[^.]*$/, "").toLowerCase();
  const clips = new Map<string, File>();
  for (const file of files) if (isVideoFile(file) && !clips.has(stem(file))) clips.set(stem(file), file);
  const motionOf = new Map<File, File>();
  for (const file of files) {
    const clip = isVideoFile(file) ? undefined : clips.get(stem(file));
    if (clip && ![...motionOf.values()].includes(clip)) motionOf.set(file, clip);
  }
  const paired = new Set(motionOf.values());
  return files.flatMap((file) => {
    if (paired.has(file)) return [];
    const motion = motionOf.get(file);
    return [motion ? { file, motion } : { file }];
  });
}
