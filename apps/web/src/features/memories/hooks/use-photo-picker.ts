import { useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import type { Photo } from "@memory-box/contract";

import { isImageFile, uploadPhotos } from "@/features/memories/api/upload-photo";

/** A photo chosen in the form, shown from an object URL; `uploaded` once the server has it. */
export interface NewPhoto {
  key: string;
  file: File;
  previewUrl: string;
  uploaded?: Photo;
}

export interface PhotoUploadResult {
  /** Photos sent this time, and how many of them the server took. */
  attempted: number;
  succeeded: number;
  /** Every chosen photo the server has by now, in the order they were chosen. */
  uploadedIds: string[];
}

export type PhotoPicker = ReturnType<typeof usePhotoPicker>;

let nextPhotoKey = 0;

/**
 * The memory form's photos: the memory's own ones minus those removed, and newly chosen files
 * with previews. A preview's object URL is revoked when the photo is removed or the form goes away.
 */
export function usePhotoPicker(initialPhotos: readonly Photo[] = []) {
  const [existingPhotos, setExistingPhotos] = useState(initialPhotos);
  const [removedIds, setRemovedIds] = useState<ReadonlySet<string>>(() => new Set());
  const [newPhotos, setNewPhotos] = useState<NewPhoto[]>([]);

  const objectUrls = useRef(new Set<string>());
  useEffect(() => {
    const urls = objectUrls.current;
    return () => {
      for (const url of urls) URL.revokeObjectURL(url);
      urls.clear();
    };
  }, []);

  const keptPhotos = existingPhotos.filter((photo) => !removedIds.has(photo.id));
  // Photos uploaded by an earlier attempt whose save failed are not sent twice.
  const pendingPhotos = newPhotos.filter((photo) => photo.uploaded === undefined);

  function addFiles(files: readonly File[]) {
    // Only images are uploaded; anything else is skipped without a word (the spec's rule).
    const added = files.filter(isImageFile).map((file): NewPhoto => {
      const previewUrl = URL.createObjectURL(file);
      objectUrls.current.add(previewUrl);
      return { key: `photo-${nextPhotoKey++}`, file, previewUrl };
    });
    if (added.length > 0) setNewPhotos((current) => [...current, ...added]);
  }

  // Removals render at once (flushSync), so the caller can move focus off the vanished button.
  function removeExisting(photoId: string) {
    flushSync(() => setRemovedIds((current) => new Set(current).add(photoId)));
  }

  function removeNew(photo: NewPhoto) {
    flushSync(() => setNewPhotos((current) => current.filter((item) => item.key !== photo.key)));
    URL.revokeObjectURL(photo.previewUrl);
    objectUrls.current.delete(photo.previewUrl);
  }

  /** Uploads the chosen photos the server does not have yet (two at a time) and records each success. */
  async function uploadPending(): Promise<PhotoUploadResult> {
    let photos = newPhotos;
    let succeeded = 0;
    if (pendingPhotos.length > 0) {
      const results = await uploadPhotos(pendingPhotos.map((photo) => photo.file));
      const uploaded = new Map<string, Photo>();
      results.forEach((result, index) => {
        if (result.status === "fulfilled") uploaded.set(pendingPhotos[index]!.key, result.value);
      });
      photos = newPhotos.map((photo) => {
        const done = uploaded.get(photo.key);
        return done ? { ...photo, uploaded: done } : photo;
      });
      setNewPhotos(photos);
      succeeded = uploaded.size;
    }
    return {
      attempted: pendingPhotos.length,
      succeeded,
      uploadedIds: photos.flatMap((photo) => (photo.uploaded ? [photo.uploaded.id] : [])),
    };
  }

  return {
    keptPhotos,
    newPhotos,
    hasPendingUploads: pendingPhotos.length > 0,
    hasRemovals: removedIds.size > 0,
    addFiles,
    removeExisting,
    removeNew,
    uploadPending,
    /** After a conflict: the photos of the memory's current copy (removals still apply). */
    replaceExistingPhotos: setExistingPhotos,
  };
}
