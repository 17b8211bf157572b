import { z } from "zod";

import { memoryEventTypes } from "./event-messages";
import { MediaStatus } from "./memories";

/**
 * The live stream `GET /api/v1/events` (Server-Sent Events). Each change to the collection is an
 * SSE message whose `event:` field is the change's `type` and whose `data:` is the JSON of
 * `MemoryEventData`; its `id:` lets a reconnecting client resume. A message of type
 * `resyncEventType` (data `{}`) means "what you missed is no longer known: reload everything".
 */
export const MemoryEventType = z.enum(memoryEventTypes);
export type MemoryEventType = z.infer<typeof MemoryEventType>;

/** Something a member did that other members' screens should show at once. */
export const MemoryEvent = z.object({
  type: MemoryEventType,
  /**
   * The memory's id (for comments and reactions too: the memory they are on); for `profile.updated`
   * (a member's display name changed), the member's user id; for `box.updated` (an owner saved the
   * box's name, cover or together-since date, ADR 0065), "box".
   */
  id: z.string().min(1),
  /** The member who did it (their user id). */
  actor: z.string().min(1),
});
export type MemoryEvent = z.infer<typeof MemoryEvent>;

/** The `data:` of a memory event's SSE message (its type travels in the `event:` field). */
export const MemoryEventData = MemoryEvent.omit({ type: true });
export type MemoryEventData = z.infer<typeof MemoryEventData>;

/** The `data:` of a `media.progress` message (`mediaProgressEventType`): a video's preparation moving on. */
export const MediaProgressData = z.object({
  id: z.string().min(1),
  memory_id: z.string().nullable(),
  status: MediaStatus,
  progress: z.number().min(0).max(1),
  error_code: z.string().nullable(),
});
export type MediaProgressData = z.infer<typeof MediaProgressData>;
