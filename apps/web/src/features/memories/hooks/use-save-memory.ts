import { useRef, useState } from "react";
import { ErrorCode, type Memory } from "@memory-box/contract";
import { useQueryClient } from "@tanstack/react-query";

import { useCreateMemory } from "@/features/memories/api/create-memory";
import { memoryQueryOptions } from "@/features/memories/api/get-memory";
import { isMemoryChanged, useUpdateMemory } from "@/features/memories/api/update-memory";
import type { PhotoPicker } from "@/features/memories/hooks/use-photo-picker";
import { mergeConcurrentEdit, type ConcurrentChange } from "@/features/memories/utils/memory-conflict";
import { queueMemory, type PhotoToQueue } from "@/features/memories/utils/outbox-sender";
import { toMemoryInput, type MemoryFormValues } from "@/features/memories/utils/memory-input";
import { formProblems, problemsFromApi, type FieldProblems } from "@/features/memories/utils/memory-rules";
import { ApiError, NetworkError } from "@/lib/api-client";
import { getAuthClient } from "@/lib/auth-client";
import { CreateAttempt } from "@/lib/idempotency-key";
import { notify } from "@/lib/notify";
import { activeIntl } from "@/lib/intl";

export type SavePhase = "idle" | "uploading" | "saving";

/** Why the last save did not go through, for the form to show where it can be fixed. */
export type SaveProblem =
  /** Some chosen photos were refused or broke off: retry them, remove them, or save without them. */
  | { kind: "uploads" }
  /** The fields break the server's rules (checked here first, or refused by the server). */
  | { kind: "fields"; fields: FieldProblems }
  /** Someone else saved the memory since the form opened; their changes, and how they were merged. */
  | { kind: "conflict"; headline: string; changes: ConcurrentChange[]; photosChanged: boolean }
  /** Nothing was saved, for a reason the member should read (offline, storage full, session ended). */
  | { kind: "message"; message: string };

/** How long a save may wait for the server before the member is told it did not go through. */
const saveTimeoutMs = 30_000;

export interface SaveMemoryOptions {
  /** The memory being edited; without it the save adds a new one. */
  memory?: Memory;
  photos: PhotoPicker;
  onSaved: (memory: Memory) => void;
  /** Puts values into the form: another member's changes taken in after a conflict. */
  onValuesMerged: (values: MemoryFormValues) => void;
  /** Told whenever uploading or saving starts or ends. */
  onBusyChange?: (busy: boolean) => void;
  /** A new memory saved offline was kept on this device, to be added later; without it, offline saves fail. */
  onQueued?: () => void;
}

/**
 * The memory form's save. Photos upload as they are chosen; a save waits for those still on
 * their way, and never goes ahead while one failed unless the member says to save without it.
 * Then the memory is created, or updated with the kept photos' ids followed by the new ones'
 * (photos removed from an existing memory leave with the update: the server drops every photo
 * not listed). An update refused because someone else changed the memory (409) merges their
 * changes into the form and shows them; the next save is guarded by the version just read.
 */
export function useSaveMemory({ memory, photos, onSaved, onValuesMerged, onBusyChange, onQueued }: SaveMemoryOptions) {
  const queryClient = useQueryClient();
  const createMemory = useCreateMemory();
  const updateMemory = useUpdateMemory();
  // The copy the edit is based on guards the update (its version), so another member's change is not overwritten.
  const [base, setBase] = useState(memory);
  const [phase, setPhaseState] = useState<SavePhase>("idle");
  const [problem, setProblem] = useState<SaveProblem>();
  // Set before the first re-render, so a second submit in the same moment is ignored.
  const busyRef = useRef(false);
  // Saving the same new memory again (after a dropped connection or a timeout) never adds it twice.
  const createAttempt = useRef(new CreateAttempt());

  function setPhase(next: SavePhase) {
    busyRef.current = next !== "idle";
    setPhaseState(next);
    onBusyChange?.(next !== "idle");
  }

  /** After a 409: the saved copy becomes the base; fields only they changed are taken into the form. */
  async function mergeSavedCopy(edited: Memory, values: MemoryFormValues) {
    try {
      const saved = await queryClient.fetchQuery({ ...memoryQueryOptions(edited.id), staleTime: 0 });
      const merge = mergeConcurrentEdit(edited, saved, values);
      setBase(saved);
      photos.replaceExistingPhotos(saved.photos);
      onValuesMerged(merge.values);
      const { data } = await getAuthClient().getSession();
      setProblem({
        kind: "conflict",
        headline: conflictHeadline(saved, data.session?.user.id),
        changes: merge.changes,
        photosChanged: merge.photosChanged,
      });
    } catch {
      // Still the old copy: the next save is refused again rather than overwriting blindly.
      setProblem({ kind: "message", message: activeIntl().formatMessage({ id: "save.conflictReloadFailed" }) });
    }
  }

  /** The spec's toasts for a save that did not happen. */
  function notifyFailure() {
    if (base === undefined) {
      notify.error(
        activeIntl().formatMessage({ id: "toast.error" }),
        activeIntl().formatMessage({ id: "save.toast.saveFailed" }),
      );
      return;
    }
    notify.error(
      activeIntl().formatMessage({ id: "toast.error" }),
      activeIntl().formatMessage({ id: "save.toast.updateFailed" }),
    );
    // Removals happen with the update, so they did not happen either.
    if (photos.hasRemovals)
      notify.error(
        activeIntl().formatMessage({ id: "toast.error" }),
        activeIntl().formatMessage({ id: "save.toast.removeFailed" }),
      );
  }

  /**
   * Offline: a new memory is kept on this device with its photos and added when the connection
   * returns (ADR 0031); an edit is not saved (it needs the saved copy's version), and says so.
   * Refused photos stop it as they stop an online save.
   */
  async function saveOffline(values: MemoryFormValues, withoutFailedPhotos: boolean) {
    if (photos.failedPhotos.length > 0 && !withoutFailedPhotos) {
      notify.error(
        activeIntl().formatMessage({ id: "save.toast.uploadFailed" }),
        activeIntl().formatMessage({ id: "save.toast.uploadFailedDetail" }),
      );
      setProblem({ kind: "uploads" });
      setPhase("idle");
      return;
    }
    const member = base === undefined && onQueued ? (await getAuthClient().getSession()).data.session?.user.id : undefined;
    if (member === undefined) {
      notifyFailure();
      setProblem(problemOf(new NetworkError()));
      setPhase("idle");
      return;
    }
    setPhase("saving");
    try {
      await queueMemory(
        member,
        values,
        // An uploaded Live Photo has its clip on the server already; one not yet uploaded takes its clip along.
        photos.newPhotos.flatMap((photo): PhotoToQueue[] =>
          photo.upload.status === "failed"
            ? []
            : photo.upload.status === "uploaded"
              ? [{ file: photo.file, uploadedId: photo.upload.photo.id }]
              : [{ file: photo.file, ...(photo.motion ? { motion: photo.motion } : {}) }],
        ),
      );
    } catch (error) {
      console.error("Could not keep the memory on this device:", error);
      notifyFailure();
      setProblem(problemOf(new NetworkError()));
      setPhase("idle");
      return;
    }
    notify.success(
      activeIntl().formatMessage({ id: "save.toast.queued" }),
      activeIntl().formatMessage({ id: "save.toast.queuedDetail" }),
    );
    setPhase("idle");
    onQueued?.();
  }

  async function save(values: MemoryFormValues, { withoutFailedPhotos = false } = {}) {
    if (busyRef.current) return;
    busyRef.current = true;
    setProblem(undefined);

    const fields = formProblems(values);
    if (Object.keys(fields).length > 0) {
      setProblem({ kind: "fields", fields });
      busyRef.current = false;
      return;
    }

    if (!navigator.onLine) {
      await saveOffline(values, withoutFailedPhotos);
      return;
    }

    setPhase("uploading");
    // Photos cut off by the connection going away wait for it: the save goes on offline.
    if ((await settledOrOffline(photos)) === "offline") {
      await saveOffline(values, withoutFailedPhotos);
      return;
    }
    if (photos.failedPhotos.length > 0 && !withoutFailedPhotos) {
      notify.error(
        activeIntl().formatMessage({ id: "save.toast.uploadFailed" }),
        activeIntl().formatMessage({ id: "save.toast.uploadFailedDetail" }),
      );
      setProblem({ kind: "uploads" });
      setPhase("idle");
      return;
    }
    const uploaded = photos.uploadedPhotos();

    setPhase("saving");
    const input = toMemoryInput(
      values,
      [...photos.keptPhotos.map((photo) => photo.id), ...uploaded.map((photo) => photo.id)],
      base,
    );
    try {
      const saved = await withTimeout(
        base === undefined
          ? createMemory.mutateAsync({ input, idempotencyKey: createAttempt.current.keyFor(input) })
          : updateMemory.mutateAsync({ id: base.id, input, version: base.version }),
      );
      if (base === undefined) createAttempt.current.answered();
      if (uploaded.length > 0)
        notify.success(
          activeIntl().formatMessage({ id: "save.toast.photosUploaded" }),
          activeIntl().formatMessage({ id: "save.toast.photosUploadedDetail" }, { count: uploaded.length }),
        );
      if (base === undefined)
        notify.success(
          activeIntl().formatMessage({ id: "save.toast.added" }),
          activeIntl().formatMessage({ id: "save.toast.addedDetail" }),
        );
      else notify.success(activeIntl().formatMessage({ id: "save.toast.updated" }));
      setPhase("idle");
      onSaved(saved);
    } catch (error) {
      notifyFailure();
      if (base !== undefined && isMemoryChanged(error)) await mergeSavedCopy(base, values);
      else setProblem(problemOf(error));
      setPhase("idle");
    }
  }

  return { phase, busy: phase !== "idle", problem, save, dismissProblem: () => setProblem(undefined) };
}

/** What the member reads beside the spec's toast when a save fails. */
function problemOf(error: unknown): SaveProblem | undefined {
  if (error instanceof NetworkError) {
    return {
      kind: "message",
      message: navigator.onLine
        ? activeIntl().formatMessage({ id: "save.dropped" })
        : activeIntl().formatMessage({ id: "save.offline" }),
    };
  }
  if (!(error instanceof ApiError)) return undefined;
  if (error.code === ErrorCode.validation_failed) {
    const fields = problemsFromApi(error.fieldErrors);
    if (Object.keys(fields).length > 0) return { kind: "fields", fields };
  }
  if (error.status === 401 || error.status === 403)
    return { kind: "message", message: activeIntl().formatMessage({ id: "save.sessionEnded" }) };
  // The server's own words where it refused for a reason the member can act on (a full disk, a photo gone).
  if (error.status < 500 || error.status === 507) return { kind: "message", message: error.message };
  return undefined;
}

/** Who changed the memory, as the conflict's headline says it. */
function conflictHeadline(saved: Memory, userId: string | undefined): string {
  if (saved.updated_by !== null && saved.updated_by === userId) return activeIntl().formatMessage({ id: "save.conflict.self" });
  return activeIntl().formatMessage(
    { id: "save.conflict.other" },
    {
      name: saved.updated_by_profile?.display_name ?? activeIntl().formatMessage({ id: "save.conflict.anotherMember" }),
    },
  );
}

/** A save still unanswered after `saveTimeoutMs` is reported as a dropped connection, never left spinning. */
export function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new NetworkError()), saveTimeoutMs);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Resolves when no chosen photo is waiting or on its way, or as the browser goes offline, whichever is first. */
function settledOrOffline(photos: PhotoPicker): Promise<"settled" | "offline"> {
  let onOffline: (() => void) | undefined;
  const offline = new Promise<"offline">((resolve) => {
    onOffline = () => resolve("offline");
    window.addEventListener("offline", onOffline);
  });
  return Promise.race([photos.whenSettled().then(() => "settled" as const), offline]).finally(() =>
    window.removeEventListener("offline", onOffline!),
  );
}
