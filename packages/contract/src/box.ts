import { z } from "zod";
import { isCalendarDate } from "./memories";

/** Limits of the box's own look (ADR 0065), shared by the Settings form and the server. */
export const BoxLimits = {
  /** The box's name, counted after trimming. */
  nameMaxLength: 80,
  /** "Together since" is from this year on, and never after today. */
  earliestYear: 1000,
} as const;

/**
 * The box's cover as a member's screen shows it: the photo's stable URLs of its display copy and
 * thumbnail, loaded with the member's bearer token or signed, expiring photo access cookie as every
 * photo is (never a public URL), and its ThumbHash placeholder while it loads.
 */
export const BoxCover = z.object({
  /** The photo's id, as in its memory. */
  id: z.uuid(),
  url: z.string(),
  thumbnail_url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  placeholder: z.string(),
});
export type BoxCover = z.infer<typeof BoxCover>;

/**
 * `GET /api/v1/box` (every member) and the answer to `PUT /api/v1/box` (owners): the box's name,
 * cover and "together since" ("YYYY-MM-DD"), each null when not set; `updated_at` and `updated_by`
 * (a user id) of the last save, null when no owner ever saved.
 */
export const BoxSettings = z.object({
  name: z.string().nullable(),
  cover: BoxCover.nullable(),
  together_since: z.string().nullable(),
  updated_at: z.string().nullable(),
  updated_by: z.string().nullable(),
});
export type BoxSettings = z.infer<typeof BoxSettings>;

/**
 * `PUT /api/v1/box`: all three, each null (or an empty name) to unset it. The name is trimmed and
 * 1–80 characters; the cover is a photo in one of the collection's memories (checked by the
 * server); "together since" a calendar date from the year 1000 and not after today (the server's
 * rule, by its clock).
 */
export const BoxSettingsChange = z.strictObject({
  name: z
    .string()
    .max(BoxLimits.nameMaxLength * 2, { message: `must be at most ${BoxLimits.nameMaxLength} characters` })
    .nullable()
    .transform((value) => {
      const trimmed = value?.trim() ?? "";
      return trimmed === "" ? null : trimmed;
    })
    .refine((value) => value === null || value.length <= BoxLimits.nameMaxLength, {
      message: `must be at most ${BoxLimits.nameMaxLength} characters`,
    }),
  cover_photo_id: z.uuid({ message: "must be the id of a photo in the collection" }).nullable(),
  together_since: z
    .string()
    .nullable()
    .refine((value) => value === null || isCalendarDate(value), { message: "must be a date as YYYY-MM-DD", abort: true })
    .refine((value) => value === null || Number(value.slice(0, 4)) >= BoxLimits.earliestYear, {
      message: `must be a date from the year ${BoxLimits.earliestYear} on`,
    }),
});
export type BoxSettingsChange = z.infer<typeof BoxSettingsChange>;
