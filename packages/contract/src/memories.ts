import { z } from "zod";
import { ReactionCount } from "./comments";
import { countryCodePattern, PlaceLimits } from "./place-text";
import { BoundsText, GeoPoint, Place, PlaceInput, PointText } from "./places";
import { isMemoryYear, latestMemoryYear, MemoryLimits } from "./memory-limits";
import { requiredText } from "./text";

export { isMemoryYear, latestMemoryYear, MemoryLimits };

const trimmedOrNull = (max: number) =>
  z
    .string()
    .max(max * 2)
    .nullish()
    .transform((value) => {
      const trimmed = value?.trim() ?? "";
      return trimmed === "" ? null : trimmed;
    })
    .refine((value) => value === null || value.length <= max, { message: `must be at most ${max} characters` });

/** "YYYY-MM-DD", a real calendar date of any year; an empty string means no date. */
const anyCalendarDate = z
  .string()
  .nullish()
  .transform((value) => (value?.trim() ? value.trim() : null))
  .refine((value) => value === null || isCalendarDate(value), { message: "must be a date as YYYY-MM-DD", abort: true });

/** A date a member gives a memory: a calendar date from the year 1000 to next year (issue #34). */
const memoryDate = anyCalendarDate.refine((value) => value === null || isMemoryYear(value), {
  message: "must be a date from the year 1000 to the end of next year",
});

/** Trimmed, empty ones dropped, duplicates (ignoring case) removed; an empty list is null. */
const tags = z
  .array(z.string().max(MemoryLimits.tagMaxLength * 2))
  .max(MemoryLimits.maxTags * 2)
  .nullish()
  .transform((values) => normalizeTags(values ?? []))
  .refine((values) => values === null || values.every((tag) => tag.length <= MemoryLimits.tagMaxLength), {
    message: `each tag must be at most ${MemoryLimits.tagMaxLength} characters`,
  })
  .refine((values) => values === null || values.length <= MemoryLimits.maxTags, {
    message: `at most ${MemoryLimits.maxTags} tags`,
  });

/** Create and full update share one shape: what the memory form sends. */
export const MemoryInput = z
  .object({
    title: requiredText(MemoryLimits.titleMaxLength),
    content: trimmedOrNull(MemoryLimits.contentMaxLength),
    memory_date: memoryDate,
    tags,
    /** Uploaded photos in display order; photos of the memory not listed are removed. */
    photo_ids: z.array(z.uuid()).max(MemoryLimits.maxPhotos).default([]),
    /**
     * Where it happened (issue #32): null removes the place; left out, an edit keeps the place the
     * memory has (so a client that knows nothing of places never drops one), a new memory has none.
     */
    place: PlaceInput.nullish(),
  })
  .strict();
export type MemoryInput = z.input<typeof MemoryInput>;

/**
 * A memory's fields as an archive holds them: the member's rules, but a date of any year as it was
 * kept. The years rule is for what members type; an archive written before it (or a Day One
 * journal) is restored as it was, not refused.
 */
export const ArchivedMemoryFields = MemoryInput.extend({ memory_date: anyCalendarDate });
export type ParsedMemoryInput = z.output<typeof MemoryInput>;

/** At most this many memories (capture days) in one `POST /api/v1/memories/batch` (ADR 0063). */
export const maxMemoriesPerBatch = 31;

/**
 * Many memories made at once from photos of different capture days (ADR 0063): each item follows
 * the `MemoryInput` rules, each day's date at most once; all are written or none.
 */
export const MemoryBatchInput = z
  .object({
    items: z.array(MemoryInput).min(1).max(maxMemoriesPerBatch),
  })
  .strict()
  .superRefine((batch, context) => {
    const seen = new Set<string>();
    batch.items.forEach((item, index) => {
      const date = item.memory_date;
      if (date === null) {
        context.addIssue({ code: "custom", path: ["items", index, "memory_date"], message: "each day's memory needs its date" });
      } else if (seen.has(date)) {
        context.addIssue({ code: "custom", path: ["items", index, "memory_date"], message: "is another item's day" });
      } else {
        seen.add(date);
      }
    });
  });
export type MemoryBatchInput = z.input<typeof MemoryBatchInput>;
export type ParsedMemoryBatchInput = z.output<typeof MemoryBatchInput>;

/**
 * What one of a memory's media is (issue #31): a still photo, a video, or a Live Photo (a still
 * with its short clip of motion, played on press or hover).
 */
export const MediaKind = z.enum(["photo", "video", "live"]);
export type MediaKind = z.infer<typeof MediaKind>;

/**
 * Whether a media's copies are all made: a video is `processing` while its web copy is prepared
 * (its poster is there from the start), `failed` when it could not be (`error_code` says why).
 * A still photo is always `ready`.
 */
export const MediaStatus = z.enum(["ready", "processing", "failed"]);
export type MediaStatus = z.infer<typeof MediaStatus>;

/** One of a memory's media: a photo, a video or a Live Photo (the name stays the spec's). */
export const Photo = z.object({
  id: z.uuid(),
  /**
   * Stable URLs, loaded with the member's bearer token or photo access cookie: the full-size display
   * copy (without the original's metadata), a ~1600 px preview and a ~400 px thumbnail. For a video,
   * its poster frame's; for a Live Photo, its still's.
   */
  url: z.string(),
  preview_url: z.string(),
  thumbnail_url: z.string(),
  content_type: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  taken_at: z.string().nullable(),
  /** A ThumbHash (base64) to paint while the image loads. */
  placeholder: z.string(),
  /**
   * Where the original was taken, from its GPS metadata (issue #32), for the form to offer as the
   * memory's place; null when it carries none. The files served keep no location.
   */
  location: GeoPoint.nullable(),
  kind: MediaKind,
  /** A video's length, or a Live Photo's motion's, in seconds; null for a still photo. */
  duration_seconds: z.number().nonnegative().nullable(),
  /**
   * What plays: the metadata-free web copy of a video or of a Live Photo's motion (MP4 or WebM,
   * range requests answered), loaded like `url`; null for a still photo and until it is ready.
   */
  video_url: z.string().nullable(),
  /** The type of what `video_url` serves (`video/mp4`, `video/webm`); null when it is. */
  video_content_type: z.string().nullable(),
  status: MediaStatus,
  /** Why a `failed` video could not be prepared (a stable error code); null otherwise. */
  error_code: z.string().nullable(),
  /**
   * The member's words under the photo (issue #34), null without. Always sent; optional so that
   * a copy kept on the device before it existed still reads.
   */
  caption: z.string().nullable().optional(),
});
export type Photo = z.infer<typeof Photo>;

/** Limits of a photo's own fields (issue #34). */
export const PhotoLimits = { captionMaxLength: 500 } as const;

/** `PUT /api/v1/photos/{id}/caption`: the caption, trimmed; empty or null removes it. */
export const PhotoCaptionInput = z.object({
  caption: z
    .string()
    .max(PhotoLimits.captionMaxLength * 2)
    .nullable()
    .transform((value) => (value?.trim() ? value.trim() : null))
    .refine((value) => value === null || value.length <= PhotoLimits.captionMaxLength, {
      message: `must be at most ${PhotoLimits.captionMaxLength} characters`,
    }),
});
export type PhotoCaptionInput = z.input<typeof PhotoCaptionInput>;

/** `PUT /api/v1/memories/{id}/cover`: one of the memory's own photos, or null for "the first one". */
export const MemoryCoverInput = z.object({ photo_id: z.uuid().nullable() });
export type MemoryCoverInput = z.infer<typeof MemoryCoverInput>;

/** `POST /api/v1/photo-access`: the cookie that lets this browser load photos is renewed for `expires_in` seconds. */
export const PhotoAccessGrant = z.object({ expires_in: z.number().int() });
export type PhotoAccessGrant = z.infer<typeof PhotoAccessGrant>;

export const Memory = z.object({
  id: z.uuid(),
  title: z.string(),
  content: z.string().nullable(),
  memory_date: z.string().nullable(),
  tags: z.array(z.string()).nullable(),
  /** The originals' signed URLs, in order (the spec's field); `photos` has more. */
  photo_urls: z.array(z.string()).nullable(),
  photos: z.array(Photo),
  user_id: z.string().nullable(),
  profiles: z.object({ display_name: z.string() }).nullable(),
  /** Who saved the last change (their user id), and their display name as it is now. */
  updated_by: z.string().nullable(),
  updated_by_profile: z.object({ display_name: z.string() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Increases with every change. Send it back as `If-Match` to refuse overwriting someone else's edit. */
  version: z.number().int(),
  /** How many comments the memory has (comments and reactions do not change `version`). */
  comment_count: z.number().int(),
  /** Its reactions counted by emoji, in the reaction bar's order, none at zero; the member's own are at `/reactions`. */
  reactions: z.array(ReactionCount),
  /** Where it happened, or null. */
  place: Place.nullable(),
  /**
   * The photo that leads the memory's page (issue #34): one of `photos`, or null when the first
   * one does. Always sent; optional so that a copy kept on the device before it existed still reads.
   */
  cover_photo_id: z.uuid().nullable().optional(),
});
export type Memory = z.infer<typeof Memory>;

/** The memories a batch made, in the request's order. */
export const MemoryBatch = z.object({ memories: z.array(Memory) });
export type MemoryBatch = z.infer<typeof MemoryBatch>;

export const MemoryListQuery = z
  .object({
    q: z.string().max(200).optional(),
    /**
     * Only memories carrying every one of these tags (ignoring case): one `tag`, or repeated
     * (`?tag=a&tag=b`) for several at once, at most `MemoryLimits.maxTags` (a memory has no more).
     */
    tag: z
      .union([
        z.string().max(MemoryLimits.tagMaxLength * 2),
        z
          .array(z.string().max(MemoryLimits.tagMaxLength * 2))
          .max(MemoryLimits.maxTags, { message: `at most ${MemoryLimits.maxTags} tags` }),
      ])
      .optional(),
    cursor: z.string().max(500).optional(),
    /** Only memories whose place is in this country (ISO 3166-1 alpha-2, "PT"). */
    country: z.string().regex(countryCodePattern, { message: "must be a country code such as PT" }).optional(),
    /** Only memories whose place has this name (folded: case and accents ignored). */
    place: z
      .string()
      .max(PlaceLimits.nameMaxLength * 2)
      .optional(),
    /** Only memories whose place lies within `west,south,east,north` (a map cluster's `bounds`). */
    within: BoundsText.optional(),
    /** Only memories within `PlaceLimits.nearRadiusKm` of `latitude,longitude` ("memories near here"). */
    near: PointText.optional(),
    /**
     * Starts the list at a month of the timeline (`YYYY-MM`: its newest memory first) or at the
     * undated memories (`undated`); `cursor` carries on from there. Ignored when `cursor` is given.
     */
    from: z
      .string()
      .regex(/^(\d{4}-(0[1-9]|1[0-2])|undated)$/, { message: "must be a month (YYYY-MM) or undated" })
      .optional(),
    limit: z.coerce.number().int().min(1).max(MemoryLimits.pageSizeMax).default(MemoryLimits.pageSizeDefault),
  })
  .strict();
export type MemoryListQuery = z.input<typeof MemoryListQuery>;

/** `GET /api/v1/memories/timeline`: the list's search and filters, nothing else. */
export const MemoryTimelineQuery = MemoryListQuery.pick({
  q: true,
  tag: true,
  country: true,
  place: true,
  within: true,
  near: true,
});
export type MemoryTimelineQuery = z.input<typeof MemoryTimelineQuery>;

/**
 * How the memories a search and tag filter match spread over time: each month that has any
 * (`YYYY-MM`, newest first, as the list runs) and how many it has, then the undated ones.
 */
export const MemoryTimeline = z.object({
  months: z.array(z.object({ month: z.string(), count: z.number().int() })),
  undated: z.number().int(),
});
export type MemoryTimeline = z.infer<typeof MemoryTimeline>;

export const MemoryPage = z.object({
  items: z.array(Memory),
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: z.string().nullable(),
  /** Memories matching the search and tag filter. */
  matched: z.number().int(),
  /** All memories in the collection. */
  total: z.number().int(),
});
export type MemoryPage = z.infer<typeof MemoryPage>;

export const TagCount = z.object({ tag: z.string(), count: z.number().int() });
export const TagList = z.object({ tags: z.array(TagCount) });
export type TagList = z.infer<typeof TagList>;

/** `PUT /api/v1/tags/{name}`'s path: the tag to rename, as any memory spells it (case ignored). */
export const TagParams = z.object({ name: z.string().max(MemoryLimits.tagMaxLength * 2) });

/**
 * `PUT /api/v1/tags/{name}` (owners, issue #34): the tag's new name on every memory carrying it.
 * A name another tag already has (ignoring case) merges the two: a memory with both keeps one.
 */
export const TagRename = z
  .object({
    name: z
      .string()
      .max(MemoryLimits.tagMaxLength * 2)
      .transform((value) => value.trim())
      .refine((value) => value.length > 0, { message: "is required" })
      .refine((value) => value.length <= MemoryLimits.tagMaxLength, {
        message: `must be at most ${MemoryLimits.tagMaxLength} characters`,
      })
      .refine((value) => !tagSeparators.test(value), { message: "must not contain a comma" }),
  })
  .strict();
export type TagRename = z.input<typeof TagRename>;

/** What a rename did: how many memories it changed, and the name they now carry. */
export const TagRenamed = z.object({ name: z.string(), memories: z.number().int() });
export type TagRenamed = z.infer<typeof TagRenamed>;

export function normalizeTags(values: string[]): string[] | null {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const raw of values) {
    const tag = raw.trim();
    const key = tag.toLowerCase();
    if (tag === "" || seen.has(key)) continue;
    seen.add(key);
    result.push(tag);
  }
  return result.length > 0 ? result : null;
}

/** `GET /api/v1/memories/on-this-day?date=`: the member's own calendar day, so the answer is right in any time zone. */
export const OnThisDayQuery = z.object({
  date: z.string().refine(isCalendarDate, { message: "must be a date as YYYY-MM-DD" }),
});

/** Memories of the same days in one earlier year, newest first. */
export const OnThisDayGroup = z.object({
  years_ago: z.number().int().min(1),
  memories: z.array(Memory),
});

/** Memories dated within `window_days` of `date`'s month and day in earlier years, the nearest year first; empty groups are left out. */
export const OnThisDay = z.object({
  date: z.string(),
  window_days: z.number().int(),
  groups: z.array(OnThisDayGroup),
});
export type OnThisDay = z.infer<typeof OnThisDay>;

/** A memory named by another screen: enough to link to it. */
export const MemoryLink = z.object({ id: z.string(), title: z.string(), memory_date: z.string().nullable() });

/** The memories either side of one in the list's order (newest first): `previous` is the newer, `next` the older; null at either end. */
export const MemoryNeighbours = z.object({ previous: MemoryLink.nullable(), next: MemoryLink.nullable() });
export type MemoryNeighbours = z.infer<typeof MemoryNeighbours>;

/**
 * What separates tags in typed text: the comma the member's keyboard types, the ASCII comma, the
 * ideographic and full-width ones of Japanese and Chinese (、，) and the Arabic one (،).
 */
export const tagSeparators = /[,、，،]/;

/** The form's comma-separated text → tags, by the same rules as the server. */
export function parseTagText(text: string): string[] | null {
  return normalizeTags(text.split(tagSeparators));
}

/** Whether `value` is "YYYY-MM-DD" and a real calendar date (from the year 1). */
export function isCalendarDate(value: string): boolean {
  // Year 0 exists for JavaScript's Date but not for PostgreSQL's date.
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || value < "0001-01-01") return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}
