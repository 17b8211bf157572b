import { z } from "zod";

/** Limits of the account area, shared by the form and the server. */
export const AccountLimits = {
  /** A display name (`full_name`), counted after trimming. */
  displayNameMaxLength: 80,
} as const;

/**
 * The language a member chose for Memory Box (`user_metadata.locale`, set with `PUT /auth/v1/user`
 * `{data: {locale}}`): one of `locales`, the languages offered (`supportedLocales` of
 * @memory-box/messages, passed in: the contract imports only zod), or null to follow the browser.
 * Mails to the member are written in it; the server refuses any other value with 400
 * `validation_failed`.
 */
export function AccountLocale<const Locales extends readonly [string, ...string[]]>(locales: Locales) {
  return z.enum(locales).nullable();
}

/** A signed-in device of the caller's account: one session of the auth service. */
export const Device = z.object({
  id: z.uuid(),
  /** "Firefox 128", from the device's user agent; null when it sent none we can read. */
  browser: z.string().nullable(),
  /** "macOS 15.1", "Android 15", "iOS 18.2". */
  system: z.string().nullable(),
  signed_in_at: z.string(),
  /** The newest sign-in or token refresh of this device. */
  last_active_at: z.string(),
  /** The device asking. */
  current: z.boolean(),
});
export type Device = z.infer<typeof Device>;

/** `GET /api/v1/account/devices`: the caller's devices, most recently active first. */
export const DeviceList = z.object({ devices: z.array(Device) });
export type DeviceList = z.infer<typeof DeviceList>;

/**
 * `POST /api/v1/account/export`: where to download the archive from. The URL carries a ticket
 * for this session that works for a minute; opening it starts the download.
 */
export const ExportLink = z.object({ url: z.string(), expires_at: z.number().int() });
export type ExportLink = z.infer<typeof ExportLink>;

/** Where an archive to import comes from: a Memory Box export, or a Day One JSON export. */
export const ImportFormat = z.enum(["memory-box", "dayone"]);
export type ImportFormat = z.infer<typeof ImportFormat>;

/**
 * What an import brought in: memories, photos (stills and Live Photos) and videos; memories the
 * instance already held (by id) are counted apart and left as they were.
 */
export const ImportResult = z.object({
  memories: z.number().int(),
  photos: z.number().int(),
  videos: z.number().int(),
  already_here: z.number().int(),
});
export type ImportResult = z.infer<typeof ImportResult>;

/** The running import's progress (owners only), or null when none runs. */
export const ImportProgress = z
  .object({
    phase: z.enum(["receiving", "checking", "photos", "saving", "done"]),
    done: z.number().int(),
    total: z.number().int(),
    /** Whether the archive holds videos: the `photos` phase then brings in photos and videos, counted together. */
    with_videos: z.boolean(),
  })
  .nullable();
export type ImportProgress = z.infer<typeof ImportProgress>;

/** How many of something and the bytes its files take. */
export const UsageFigure = z.object({ count: z.number().int(), bytes: z.number().int() });
export type UsageFigure = z.infer<typeof UsageFigure>;

/**
 * `GET /api/v1/account/usage`: what the caller's uploads take on the server ("Settings → Your
 * data"). `photos`: stills and Live Photos (their originals, and a Live Photo's motion with its web
 * copy); `videos`: videos (their originals as uploaded and the copies that play). Posters and
 * thumbnails are not counted.
 */
export const AccountUsage = z.object({ photos: UsageFigure, videos: UsageFigure });
export type AccountUsage = z.infer<typeof AccountUsage>;

/**
 * `GET /api/v1/account/guide`: whether the caller's first-run guide on home is still to be shown
 * (`dismissed_at` null) or was closed (when, on any of their devices), and their role, which decides
 * whether it has the step about inviting the partner (owners only).
 */
export const FirstRunGuide = z.object({
  dismissed_at: z.string().nullable(),
  role: z.enum(["owner", "member"]),
});
export type FirstRunGuide = z.infer<typeof FirstRunGuide>;

/** `PUT /api/v1/account/guide`: `true` closes the caller's guide, `false` shows it again ("Show the guide again"). */
export const FirstRunGuideChange = z.strictObject({ dismissed: z.boolean() });
export type FirstRunGuideChange = z.infer<typeof FirstRunGuideChange>;
