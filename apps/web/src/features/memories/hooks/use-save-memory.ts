import { useRef, useState } from "react";
import type { Memory } from "@memory-box/contract";
import { useQueryClient } from "@tanstack/react-query";

import { useCreateMemory } from "@/features/memories/api/create-memory";
import { memoryQueryOptions } from "@/features/memories/api/get-memory";
import { isMemoryChanged, useUpdateMemory } from "@/features/memories/api/update-memory";
import type { PhotoPicker } from "@/features/memories/hooks/use-photo-picker";
import { toMemoryInput, type MemoryFormValues } from "@/features/memories/utils/memory-input";
import { notify } from "@/lib/notify";

export type SavePhase = "idle" | "uploading" | "saving";

export interface SaveMemoryOptions {
  /** The memory being edited; without it the save adds a new one. */
  memory?: Memory;
  photos: PhotoPicker;
  onSaved: (memory: Memory) => void;
  /** Told whenever uploading or saving starts or ends. */
  onBusyChange?: (busy: boolean) => void;
}

/**
 * The memory form's save: new photos are uploaded first, then the memory is created, or updated
 * with the kept photos' ids followed by the new ones'. Photos removed from an existing memory
 * leave with the update: the server drops every photo not listed. An update refused because
 * someone else changed the memory (409) starts over from the current copy.
 */
export function useSaveMemory({ memory, photos, onSaved, onBusyChange }: SaveMemoryOptions) {
  const queryClient = useQueryClient();
  const createMemory = useCreateMemory();
  const updateMemory = useUpdateMemory();
  // The version the edit started from guards the update, so another member's change is not overwritten.
  const [version, setVersion] = useState(memory?.version);
  const [phase, setPhaseState] = useState<SavePhase>("idle");
  // Set before the first re-render, so a second submit in the same moment is ignored.
  const busyRef = useRef(false);

  function setPhase(next: SavePhase) {
    busyRef.current = next !== "idle";
    setPhaseState(next);
    onBusyChange?.(next !== "idle");
  }

  /** After a 409: the current copy's version and photos; the typed fields stay. */
  async function startOverFromCurrentCopy(memoryId: string) {
    try {
      const current = await queryClient.fetchQuery(memoryQueryOptions(memoryId));
      setVersion(current.version);
      photos.replaceExistingPhotos(current.photos);
    } catch {
      // Still the old copy: the next save is refused again rather than overwriting blindly.
    }
  }

  async function save(values: MemoryFormValues) {
    if (busyRef.current) return;
    busyRef.current = true;

    if (photos.hasPendingUploads) setPhase("uploading");
    const upload = await photos.uploadPending();
    if (upload.succeeded > 0) notify.success("Photos uploaded!", `${upload.succeeded} photo(s) added successfully.`);
    if (upload.succeeded < upload.attempted) notify.error("Upload failed", "Some photos couldn't be uploaded. Please try again.");

    setPhase("saving");
    const input = toMemoryInput(values, [...photos.keptPhotos.map((photo) => photo.id), ...upload.uploadedIds]);

    if (memory === undefined) {
      try {
        const saved = await createMemory.mutateAsync(input);
        notify.success("Memory added!", "Your memory has been saved successfully.");
        setPhase("idle");
        onSaved(saved);
      } catch {
        notify.error("Error", "Failed to save memory. Please try again.");
        setPhase("idle");
      }
      return;
    }

    try {
      const saved = await updateMemory.mutateAsync({ id: memory.id, input, version });
      notify.success("Memory updated!");
      setPhase("idle");
      onSaved(saved);
    } catch (error) {
      notify.error("Error", "Failed to update memory. Please try again.");
      // Removals happen with the update, so they did not happen either.
      if (photos.hasRemovals) notify.error("Error", "Failed to remove photo.");
      if (isMemoryChanged(error)) await startOverFromCurrentCopy(memory.id);
      setPhase("idle");
    }
  }

  return { phase, busy: phase !== "idle", save };
}
