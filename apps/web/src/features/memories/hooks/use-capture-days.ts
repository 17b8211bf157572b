import { useRef, useState } from "react";
import { ErrorCode, type Memory, type Photo } from "@memory-box/contract";

import { useCreateMemories } from "@/features/memories/api/create-memories";
import type { PhotoPicker } from "@/features/memories/hooks/use-photo-picker";
import { withTimeout } from "@/features/memories/hooks/use-save-memory";
import { captureDayItems, groupByCaptureDay, offersOnePerDay, type CaptureDays } from "@/features/memories/utils/capture-days";
import { calendarDate } from "@/features/memories/utils/memory-dates";
import { ApiError, NetworkError } from "@/lib/api-client";
import { CreateAttempt } from "@/lib/idempotency-key";
import { notify } from "@/lib/notify";
import { activeIntl, dateTimeFormat } from "@/lib/intl";

export interface CaptureDaysOptions {
  photos: PhotoPicker;
  /** Whether the step may be offered: a new memory whose fields the member has not begun to fill in. */
  allowed: boolean;
  /** The memories were made, one per day. */
  onSavedMany: (memories: Memory[]) => void;
  /** Told whenever sending the memories starts or ends. */
  onBusyChange?: (busy: boolean) => void;
}

/**
 * "12 photos from 3 days → 3 memories?" (issue #34, ADR 0063): once every chosen photo is on the
 * server (its capture day is known only from the upload's answer) and they span 2 to 31 days, the
 * form offers one memory per day. Accepted, the days go to `POST /api/v1/memories/batch` in one
 * request, all or none; declined, the form goes on with every photo in one memory and does not ask
 * again. Not offered offline (the uploads wait, and the offline queue keeps one memory per send),
 * nor once a photo failed (the form says what to do with it first).
 */
export function useCaptureDays({ photos, allowed, onSavedMany, onBusyChange }: CaptureDaysOptions) {
  const createMemories = useCreateMemories();
  const [declined, setDeclined] = useState(false);
  const [sending, setSendingState] = useState(false);
  const [problem, setProblem] = useState<string>();
  const sendingRef = useRef(false);
  // Sending the same days again (after a dropped connection) never makes them twice.
  const attempt = useRef(new CreateAttempt());

  const settled = photos.newPhotos.length > 1 && photos.newPhotos.every((photo) => photo.upload.status === "uploaded");
  const grouped: CaptureDays<Photo> | undefined = settled
    ? groupByCaptureDay(photos.newPhotos.flatMap((photo) => (photo.upload.status === "uploaded" ? [photo.upload.photo] : [])))
    : undefined;
  // Once shown, the step stays while its memories are sent, and to say why they were not.
  const offered =
    grouped !== undefined &&
    offersOnePerDay(grouped) &&
    !declined &&
    (sending || problem !== undefined || (allowed && photos.online));

  function setSending(next: boolean) {
    sendingRef.current = next;
    setSendingState(next);
    onBusyChange?.(next);
  }

  async function accept() {
    if (!grouped || sendingRef.current) return;
    // Offline the request would wait for the connection: say so now instead.
    if (!navigator.onLine) {
      setProblem(activeIntl().formatMessage({ id: "captureDays.problem.offline" }));
      return;
    }
    setProblem(undefined);
    setSending(true);
    const items = captureDayItems(grouped, dayTitle);
    try {
      const memories = await withTimeout(createMemories.mutateAsync({ items, idempotencyKey: attempt.current.keyFor(items) }));
      attempt.current.answered();
      notify.success(
        activeIntl().formatMessage({ id: "captureDays.toast.added" }, { count: memories.length }),
        activeIntl().formatMessage({ id: "captureDays.toast.addedDetail" }),
      );
      setSending(false);
      onSavedMany(memories);
    } catch (error) {
      setProblem(problemOf(error));
      setSending(false);
    }
  }

  function decline() {
    setProblem(undefined);
    setDeclined(true);
  }

  return { offered: offered ? grouped : undefined, sending, problem, accept, decline };
}

/** A day's memory's title: its date as the member's language writes it in full ("January 3, 2026", "3 janvier 2026"). */
export function dayTitle(date: string): string {
  const day = calendarDate(date);
  return day ? dateTimeFormat({ year: "numeric", month: "long", day: "numeric" }).format(day) : date;
}

/** Why no memory was made, in the member's words; nothing was written (the route is all or none). */
function problemOf(error: unknown): string {
  const intl = activeIntl();
  if (error instanceof NetworkError)
    return navigator.onLine
      ? intl.formatMessage({ id: "captureDays.problem.dropped" })
      : intl.formatMessage({ id: "captureDays.problem.offline" });
  if (error instanceof ApiError) {
    if (error.status === 401 || error.status === 403) return intl.formatMessage({ id: "save.sessionEnded" });
    if (error.status === 413) return intl.formatMessage({ id: "captureDays.problem.tooLarge" });
    if (error.code === ErrorCode.photo_in_use) return intl.formatMessage({ id: "captureDays.problem.photoInUse" });
    if (error.code === ErrorCode.unknown_photo) return intl.formatMessage({ id: "captureDays.problem.photoGone" });
    if (error.status === 507) return error.message;
  }
  return intl.formatMessage({ id: "captureDays.problem.refused" });
}
