import { useSyncExternalStore } from "react";

/** How far a video's preparation is, as the live stream last told it (`media.progress`). */
export interface MediaProgress {
  status: "ready" | "processing" | "failed";
  /** 0..1 */
  progress: number;
  error_code: string | null;
}

/*
 * The videos being prepared, by media id: what the live stream says between the upload and the
 * fresh answer that has the video's `video_url` or `error_code`. Kept outside the query cache (it
 * is no server answer) and small: an entry goes once its video is ready or failed and the memory
 * has been fetched again.
 */
const progressById = new Map<string, MediaProgress>();
const listeners = new Set<() => void>();

export function setMediaProgress(id: string, progress: MediaProgress | undefined): void {
  if (progress === undefined) {
    if (!progressById.delete(id)) return;
  } else progressById.set(id, progress);
  for (const listener of listeners) listener();
}

export function mediaProgressOf(id: string): MediaProgress | undefined {
  return progressById.get(id);
}

/*
 * Media the stream said were ready or failed, most recent last: a save's answer read before that
 * news (the copy finished while the memory was being saved) still says "processing", and is known
 * stale by it. A few hundred ids are plenty for the saves of one session.
 */
const settledIds = new Set<string>();
const settledKept = 500;

export function markMediaSettled(id: string): void {
  settledIds.delete(id);
  settledIds.add(id);
  if (settledIds.size > settledKept) settledIds.delete(settledIds.values().next().value!);
}

/** Whether the stream said media `id` was ready or failed. */
export function isMediaSettled(id: string): boolean {
  return settledIds.has(id);
}

/** Forgets every entry (sign-out; tests). */
export function clearMediaProgress(): void {
  progressById.clear();
  settledIds.clear();
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The live progress of media `id`, re-rendering as it moves. */
export function useMediaProgress(id: string): MediaProgress | undefined {
  return useSyncExternalStore(
    subscribe,
    () => progressById.get(id),
    () => undefined,
  );
}
