/*
 * The live stream's message names, and readers for its messages that the web app's home uses.
 * Home reads every event, and the schema library is a tenth of the JavaScript its first screen may
 * load (issue #16: 200 KB), so this module does not import it: the readers apply the rules of
 * `events.ts`' schemas by hand, and a web test holds them to those schemas. `events.ts` builds its
 * schemas from these names, so this module imports nothing from it: the types below are the
 * schemas' types, written out.
 */

export const memoryEventTypes = [
  "memory.created",
  "memory.updated",
  "memory.deleted",
  "profile.updated",
  "comment.created",
  "comment.updated",
  "comment.deleted",
  "reaction.changed",
  "box.updated",
] as const;

export const resyncEventType = "resync";

/**
 * The stream's last message when the member's session ended elsewhere (a sign-out everywhere, a
 * removal, a revocation, a ban): data `{"code": …}`, the code the API's next answer would carry
 * (`session_not_found`, `email_not_invited`, `user_banned`, `user_not_found`). The app signs out
 * at once and forgets what it kept (ADR 0050).
 */
export const sessionEndedEventType = "session.ended";

/**
 * A video's preparation moving on (issue #31): data `MediaProgressData`, the media's id, its
 * status and how far its web copy is (0..1). Sent to the uploader while the video is in no memory
 * yet, to every member once it is; "ready" or "failed" is the last one, after which the memory's
 * (or the upload's) fresh answer has its `video_url` or `error_code`.
 */
export const mediaProgressEventType = "media.progress";

/** `MediaProgressData` (events.ts), without the schema library. */
interface MediaProgressData {
  /** The media's (`Photo`'s) id. */
  id: string;
  /** The memory it is in, or null while it is in none. */
  memory_id: string | null;
  status: "ready" | "processing" | "failed";
  /** How much of the web copy is made, 0..1 (1 once ready). */
  progress: number;
  error_code: string | null;
}

/** `MediaProgressData.safeParse(JSON.parse(data))`'s data, or undefined, without the schema library. */
export function readMediaProgressData(data: string): MediaProgressData | undefined {
  const value = jsonObject(data);
  if (!value) return undefined;
  const { id, memory_id, status, progress, error_code } = value;
  if (typeof id !== "string" || id.length === 0) return undefined;
  if (memory_id !== null && typeof memory_id !== "string") return undefined;
  if (status !== "ready" && status !== "processing" && status !== "failed") return undefined;
  if (typeof progress !== "number" || !(progress >= 0 && progress <= 1)) return undefined;
  if (error_code !== null && typeof error_code !== "string") return undefined;
  return { id, memory_id, status, progress, error_code };
}

/** `MemoryEventType` (events.ts), without the schema library. */
type MemoryEventType = (typeof memoryEventTypes)[number];

/** `MemoryEventData` (events.ts), without the schema library. */
interface MemoryEventData {
  id: string;
  actor: string;
}

/** `MemoryEventType.safeParse(type).success`, without the schema library. */
export function isMemoryEventType(type: string): type is MemoryEventType {
  return (memoryEventTypes as readonly string[]).includes(type);
}

/** `MemoryEventData.safeParse(JSON.parse(data))`'s data, or undefined, without the schema library. */
export function readMemoryEventData(data: string): MemoryEventData | undefined {
  const value = jsonObject(data);
  if (!value) return undefined;
  const { id, actor } = value;
  if (typeof id !== "string" || id.length === 0 || typeof actor !== "string" || actor.length === 0) return undefined;
  return { id, actor };
}

/** A message's data as a JSON object, or undefined when it is not one. */
function jsonObject(data: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
}
