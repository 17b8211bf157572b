import { z } from "zod";
import { isCalendarDate, MediaKind, MemoryLimits } from "./memories";

/**
 * Paired frames (issue #36, ADR 0076): a device in a living room that shows part of the collection.
 * It pairs with the OAuth 2.0 Device Authorization Grant (RFC 8628) as the built-in public client
 * below, and holds a session whose only scope is `frame`: it reads its own slides and their media
 * through `/api/v1/frame/*`, and the rest of the product API refuses it as it refuses every app's
 * session (`oauth_client_session_not_allowed`).
 */

/** The one scope a frame's session carries. */
export const FRAME_SCOPE = "frame";

/** The built-in public OAuth client every frame pairs as (seeded by a migration; never deleted). */
export const FRAME_CLIENT_ID = "5b0f7d1e-2c4a-4e8b-9f36-0a1d2c3e4f50";

/** RFC 8628's grant type: a frame polls `POST /auth/v1/oauth/token` with it and its `device_code`. */
export const DEVICE_CODE_GRANT_TYPE = "urn:ietf:params:oauth:grant-type:device_code";

export const FrameLimits = {
  /** A frame's name ("Living room"), counted after trimming. */
  nameMaxLength: 60,
  /** At most this many tags in a frame's selection. */
  maxTags: 20,
  /** A user code: eight letters without vowels (no words, no 0/O or 1/I), shown as XXXX-XXXX. */
  userCodeLength: 8,
  /** A slides page holds at most this many slides; a frame walks the pages with `next_cursor`. */
  slidesPageSize: 100,
} as const;

/** The letters of a user code (RFC 8628 §6.1: no vowels, nothing easily confused). */
export const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";

/**
 * A user code as a member may type it ("bcdf ghjk", "BCDF-GHJK") in its stored form ("BCDFGHJK"),
 * or null when it cannot be one.
 */
export function normalizeUserCode(value: string): string | null {
  const code = value.toUpperCase().replace(/[\s-]/g, "");
  if (code.length !== FrameLimits.userCodeLength) return null;
  for (const letter of code) if (!USER_CODE_ALPHABET.includes(letter)) return null;
  return code;
}

/** A user code as a screen shows it: "BCDF-GHJK". */
export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

const calendarDate = z.string().refine(isCalendarDate, { message: "must be a date as YYYY-MM-DD" });
const clockTime = z.string().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, { message: "must be a time as HH:MM" });

/**
 * What a frame shows: everything, memories with any of some tags, memories dated within a range
 * (either end may be open, not both), or the memories of this day in earlier years (the frame's
 * own calendar day).
 */
export const FrameSelection = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("everything") }),
  z.strictObject({
    kind: z.literal("tags"),
    tags: z
      .array(z.string().trim().min(1).max(MemoryLimits.tagMaxLength))
      .min(1, { message: "must name at least one tag" })
      .max(FrameLimits.maxTags, { message: `at most ${FrameLimits.maxTags} tags` }),
  }),
  z
    .strictObject({ kind: z.literal("dates"), from: calendarDate.nullable(), to: calendarDate.nullable() })
    .refine((range) => range.from !== null || range.to !== null, { message: "must give a first or a last day" })
    .refine((range) => range.from === null || range.to === null || range.from <= range.to, {
      message: "the first day must not be after the last",
    }),
  z.strictObject({ kind: z.literal("on-this-day") }),
]);
export type FrameSelection = z.infer<typeof FrameSelection>;

/**
 * How a frame shows: a clock in a corner or not, and dimmed at night from `from` to `to` (the
 * frame's local time; `to` before `from` spans midnight), or never dimmed when null.
 */
export const FrameDisplay = z.strictObject({
  clock: z.boolean(),
  night: z.strictObject({ from: clockTime, to: clockTime }).nullable(),
});
export type FrameDisplay = z.infer<typeof FrameDisplay>;

const frameName = z
  .string()
  .trim()
  .min(1, { message: "must not be empty" })
  .max(FrameLimits.nameMaxLength, { message: `must be at most ${FrameLimits.nameMaxLength} characters` });

const userCode = z
  .string()
  .max(32)
  .transform((value, context) => {
    const code = normalizeUserCode(value);
    if (code === null) {
      context.addIssue({ code: "custom", message: "must be the code the frame shows" });
      return z.NEVER;
    }
    return code;
  });

/** `GET /api/v1/frames/pairing?user_code=`: the pairing a frame asks for, before a member answers it. */
export const FramePairingQuery = z.object({ user_code: userCode });
export const FramePairing = z.object({
  /** As the frame shows it: `XXXX-XXXX` (`formatUserCode`). */
  user_code: z.string(),
  /** When the code stops working (ISO 8601). */
  expires_at: z.string(),
});
export type FramePairing = z.infer<typeof FramePairing>;

/** `POST /api/v1/frames`: a member approves the pairing a frame shows the code of, naming the frame and what it shows. */
export const FramePairingApproval = z.strictObject({
  user_code: userCode,
  name: frameName,
  selection: FrameSelection,
  display: FrameDisplay,
});
export type FramePairingApproval = z.input<typeof FramePairingApproval>;

/** `POST /api/v1/frames/pairing/deny`: a member refuses it (the frame hears `access_denied`). */
export const FramePairingDenial = z.strictObject({ user_code: userCode });
export type FramePairingDenial = z.input<typeof FramePairingDenial>;

/** A paired frame as Settings → Frames lists it (`GET /api/v1/frames`, newest first). */
export const Frame = z.object({
  id: z.uuid(),
  name: z.string(),
  selection: FrameSelection,
  display: FrameDisplay,
  /** The member who approved it. */
  paired_by: z.object({ id: z.string(), name: z.string() }),
  paired_at: z.string(),
  /** When it last asked for its slides; null before it first did. */
  last_seen_at: z.string().nullable(),
});
export type Frame = z.infer<typeof Frame>;
export const FrameList = z.object({ frames: z.array(Frame) });
export type FrameList = z.infer<typeof FrameList>;

/** `PATCH /api/v1/frames/:id`: any of name, selection and display. `DELETE` removes the frame and ends its session. */
export const FrameChange = z.strictObject({
  name: frameName.optional(),
  selection: FrameSelection.optional(),
  display: FrameDisplay.optional(),
});
export type FrameChange = z.input<typeof FrameChange>;

/** `GET /api/v1/frame/slides?today=YYYY-MM-DD&cursor=`: `today` is the frame's calendar day (for "On this day"). */
export const FrameSlidesQuery = z.object({ today: calendarDate, cursor: z.string().max(200).optional() });

/**
 * One photo or video of a memory the frame shows. `url` is its display copy (a video's poster),
 * `video_url` its web copy (null for a still photo and until it is ready); both are under
 * `/api/v1/frame/media/` and load with the frame's bearer token only.
 */
export const FrameSlide = z.object({
  photo_id: z.uuid(),
  memory_id: z.uuid(),
  title: z.string(),
  memory_date: z.string().nullable(),
  kind: MediaKind,
  width: z.number().int(),
  height: z.number().int(),
  placeholder: z.string(),
  url: z.string(),
  video_url: z.string().nullable(),
});
export type FrameSlide = z.infer<typeof FrameSlide>;

/** What a frame shows, a page at a time; the frame asks again after `refresh_seconds` (new memories, a removal). */
export const FrameSlides = z.object({
  frame: z.object({ id: z.uuid(), name: z.string(), display: FrameDisplay }),
  slides: z.array(FrameSlide),
  next_cursor: z.string().nullable(),
  refresh_seconds: z.number().int().positive(),
});
export type FrameSlides = z.infer<typeof FrameSlides>;

/** RFC 8628 §3.2: `POST /auth/v1/oauth/device_authorization`'s answer. */
export const DeviceAuthorization = z.object({
  device_code: z.string(),
  /** As the frame shows it: `XXXX-XXXX`; a member may type it in any case, with or without the dash. */
  user_code: z.string(),
  verification_uri: z.string(),
  /** `verification_uri` with `?user_code=`, for the QR code. */
  verification_uri_complete: z.string(),
  expires_in: z.number().int(),
  interval: z.number().int(),
});
export type DeviceAuthorization = z.infer<typeof DeviceAuthorization>;
