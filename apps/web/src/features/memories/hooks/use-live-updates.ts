import { useEffect } from "react";
import {
  isMemoryEventType,
  mediaProgressEventType,
  readMediaProgressData,
  readMemoryEventData,
  resyncEventType,
  sessionEndedEventType,
} from "@memory-box/contract";
import { useQueryClient, type QueryClient } from "@tanstack/react-query";

import { isDeletedHere } from "@/features/memories/api/delete-memory";
import { refreshAfterMemoryChange, refreshAfterResponseChange } from "@/features/memories/api/memory-cache";
import { memoryKeys } from "@/features/memories/api/memory-keys";
import { clearMediaProgress, markMediaSettled, setMediaProgress } from "@/features/memories/utils/media-progress";
import { endSessionGoneFromServer } from "@/lib/api-client";
import { getAuthClient } from "@/lib/auth-client";
import { useAuth } from "@/lib/auth-context";
import { boxKey } from "@/lib/box-key";
import { takeEarlyAnswerTaken } from "@/lib/first-screen";
import { EventStreamError, openEventStream, type SseEvent } from "@/lib/sse";

export const liveEventsPath = "/api/v1/events";

/**
 * Keeps the memory screens current while someone else (or this member in another tab) adds,
 * edits or deletes, comments or reacts: follows `GET /api/v1/events` and refetches what changed, and
 * keeps how far each video's preparation is (`media.progress`) for its cards to show. Runs while signed
 * in; reconnects with backoff (1 s → 30 s) and resumes from the last event id. A session ended
 * elsewhere (the server's `session.ended`, or a reconnection refused with 401) ends it here at
 * once: the app goes to sign-in and forgets what it kept, without waiting for a request (ADR 0050).
 */
export function useLiveUpdates(): void {
  const { status, session } = useAuth();
  const queryClient = useQueryClient();
  const userId = session?.user.id;
  const signedIn = status === "signedIn";

  useEffect(() => {
    if (!signedIn || userId === undefined) return;
    const close = openEventStream({
      url: liveEventsPath,
      headers: authorization,
      onEvent: (event) => {
        if (event.type === sessionEndedEventType) {
          endSessionGoneFromServer();
          return;
        }
        applyLiveEvent(queryClient, event);
        if (isOwnProfileChange(event, userId)) void refreshOwnProfile();
      },
      onOpen: ({ reconnected, resumed }) => {
        // Changes made while the stream was down are unknown: reload (a resumed stream replays
        // them). So are those made after the first screen's early answers (ADR 0026) were given.
        const missedChanges = reconnected ? !resumed : takeEarlyAnswerTaken();
        if (missedChanges) {
          void queryClient.invalidateQueries({ queryKey: memoryKeys.all });
          void queryClient.invalidateQueries({ queryKey: boxKey });
        }
      },
      // A dropped stream is routine (the server ends it when the access token expires); only a
      // third failure in a row, with no stream opened since, is worth a warning.
      onError: (error, retryInMs) => {
        // Tokens are refreshed before each attempt, so a 401 means the session itself is gone.
        if (error instanceof EventStreamError && error.status === 401) {
          endSessionGoneFromServer();
          return;
        }
        if (retryInMs >= 4_000) console.warn(`Live updates unavailable; retrying in ${retryInMs / 1000} s.`, error);
      },
    });
    return () => {
      close();
      // What the stream told this member is not kept past their session.
      clearMediaProgress();
    };
  }, [signedIn, userId, queryClient]);
}

/** This member renamed themselves (here or on another device): the greeting follows. */
function isOwnProfileChange(event: SseEvent, userId: string): boolean {
  if (event.type !== "profile.updated") return false;
  return readMemoryEventData(event.data)?.id === userId;
}

/** A refreshed session carries the account as it is now, display name included. */
async function refreshOwnProfile(): Promise<void> {
  const { error } = await getAuthClient().refreshSession();
  if (error) console.warn("Could not reload your profile after a change.", error);
}

async function authorization(): Promise<Record<string, string>> {
  const { data } = await getAuthClient().getSession();
  return data.session ? { Authorization: `Bearer ${data.session.access_token}` } : {};
}

/** What one event means for the cache. Exported for tests. */
export function applyLiveEvent(queryClient: QueryClient, event: SseEvent): void {
  if (event.type === resyncEventType) {
    void queryClient.invalidateQueries({ queryKey: memoryKeys.all });
    void queryClient.invalidateQueries({ queryKey: boxKey });
    return;
  }
  if (event.type === mediaProgressEventType) {
    applyMediaProgress(queryClient, event);
    return;
  }
  const type = event.type;
  if (!isMemoryEventType(type)) return;
  // An owner saved the box's name, cover or together-since date (ADR 0065): home and Settings show it.
  if (type === "box.updated") {
    void queryClient.invalidateQueries({ queryKey: boxKey });
    return;
  }
  // A display name is on every card and detail page the member wrote or edited.
  if (type === "profile.updated") {
    void queryClient.invalidateQueries({ queryKey: memoryKeys.all });
    return;
  }

  // A comment or reaction changes the memory's counts (its cards, its page) and its comments or
  // reactions. Data not as the contract says: what does not need the id is refreshed all the same.
  const data = readMemoryEventData(event.data);
  if (type.startsWith("comment.") || type === "reaction.changed") {
    void refreshAfterResponseChange(queryClient, data?.id, type === "reaction.changed" ? "reactions" : "comments");
    return;
  }
  // This screen's own delete: the detail page is leaving, and must not refetch a 404 first.
  const deletedHere = type === "memory.deleted" && data !== undefined && isDeletedHere(queryClient, data.id);
  void refreshAfterMemoryChange(queryClient, deletedHere ? undefined : data?.id);
}

/**
 * A video's preparation moved on: its cards show how far. Once it is ready or has failed, the
 * memory it is in (its page, the lists, On this day) is fetched again for its playable copy or its
 * reason; the progress is kept until that answer is there, so the card does not step back to
 * "Preparing video…" meanwhile. A video in no memory yet (in the form) needs no refetch.
 */
function applyMediaProgress(queryClient: QueryClient, event: SseEvent): void {
  const data = readMediaProgressData(event.data);
  if (data === undefined) return;
  const { id, memory_id, status, progress, error_code } = data;
  setMediaProgress(id, { status, progress, error_code });
  if (status === "processing") return;
  markMediaSettled(id);
  if (memory_id === null) return;
  void refreshAfterMemoryChange(queryClient, memory_id).finally(() => setMediaProgress(id, undefined));
}
