import { z } from "zod";

/**
 * Notifications (issue #33, ADR 0059): a partner's new memories, comments and reactions, and
 * "On this day" each morning, sent by Web Push to each device that allows it, or gathered into an
 * e-mail digest. Preferences belong to a device (push) or to the member (e-mail); everything here
 * is for members only, and a device's subscription ends with its session.
 */

export const NotificationLimits = {
  /** A push service's endpoint URL. */
  endpointMaxLength: 2_048,
  /** A time zone's IANA name ("Europe/Lisbon"). */
  timeZoneMaxLength: 64,
  /** Changes by one member within this window become one notification ("Ben added 3 memories"). */
  groupingWindowSeconds: 120,
} as const;

/** What a device may be told about, each switched on or off on its own. */
export const notificationTopics = ["memories", "comments", "reactions", "on_this_day"] as const;
export const NotificationTopic = z.enum(notificationTopics);
export type NotificationTopic = z.infer<typeof NotificationTopic>;

/** A time of day on the member's clock, "HH:MM" (24-hour). */
export const TimeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: "must be a time as HH:MM" });
export type TimeOfDay = z.infer<typeof TimeOfDay>;

/** Whether the runtime knows `name` as a time zone ("Europe/Lisbon", "UTC"). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** An IANA time zone the runtime knows; the device sends its own (`Intl.DateTimeFormat().resolvedOptions().timeZone`). */
export const TimeZone = z
  .string()
  .min(1)
  .max(NotificationLimits.timeZoneMaxLength)
  .refine(isTimeZone, { message: "must be a known time zone" });

/** Hours in which nothing is shown on the device; `from` after `to` spans midnight ("22:00" to "07:00"). */
export const QuietHours = z.object({ from: TimeOfDay, to: TimeOfDay }).strict();
export type QuietHours = z.infer<typeof QuietHours>;

/**
 * What one device wants to be told, and when. A notification held back by quiet hours is shown
 * once they end (grouped with whatever else came meanwhile), never dropped.
 */
export const PushPreferences = z
  .object({
    /** A partner added a memory. */
    memories: z.boolean(),
    /** A partner commented on a memory. */
    comments: z.boolean(),
    /** A partner reacted to one of my memories. */
    reactions: z.boolean(),
    /** "On this day" each morning, only when there is something to show. */
    on_this_day: z.boolean(),
    /** When "On this day" arrives, on the device's clock. */
    on_this_day_at: TimeOfDay,
    quiet_hours: QuietHours.nullable(),
    time_zone: TimeZone,
    /** Whether a notification may show the memory's title and the comment's words (off: "Ben added a memory"). */
    show_words: z.boolean(),
  })
  .strict();
export type PushPreferences = z.infer<typeof PushPreferences>;

/** What a device starts with when it first turns notifications on (its own time zone added). */
export const defaultPushPreferences: Omit<PushPreferences, "time_zone"> = {
  memories: true,
  comments: true,
  reactions: true,
  on_this_day: true,
  on_this_day_at: "08:00",
  quiet_hours: { from: "22:00", to: "07:00" },
  show_words: false,
};

const base64url = z.string().regex(/^[A-Za-z0-9_-]+={0,2}$/, { message: "must be base64url" });

/** The browser's `PushSubscription.toJSON()`, as much of it as the server keeps. */
export const PushSubscriptionInput = z
  .object({
    endpoint: z.url({ protocol: /^https?$/ }).max(NotificationLimits.endpointMaxLength),
    keys: z.object({ p256dh: base64url.max(200), auth: base64url.max(100) }),
  })
  .strip();
export type PushSubscriptionInput = z.infer<typeof PushSubscriptionInput>;

/** `GET /api/v1/notifications/push-key`: the instance's VAPID public key (base64url), for `pushManager.subscribe`. */
export const PushKey = z.object({ public_key: z.string() });
export type PushKey = z.infer<typeof PushKey>;

/** `PUT /api/v1/notifications/device`: this device (the caller's session) subscribes, or changes what it wants. */
export const DeviceNotificationsInput = z.object({ subscription: PushSubscriptionInput, preferences: PushPreferences }).strict();
export type DeviceNotificationsInput = z.input<typeof DeviceNotificationsInput>;

/**
 * `GET` and `PUT /api/v1/notifications/device`: whether this device is subscribed and what it
 * wants. Not subscribed: `preferences` is null. `DELETE` turns notifications off on this device (204).
 */
export const DeviceNotifications = z.object({ subscribed: z.boolean(), preferences: PushPreferences.nullable() });
export type DeviceNotifications = z.infer<typeof DeviceNotifications>;

/** How often the e-mail digest of the partners' additions is sent; "off" sends none. */
export const EmailDigestFrequency = z.enum(["off", "daily", "weekly"]);
export type EmailDigestFrequency = z.infer<typeof EmailDigestFrequency>;

/**
 * `GET` and `PUT /api/v1/notifications/email`: the member's e-mail digest. Daily digests leave at
 * 08:00 on the member's clock, weekly ones on Monday at 08:00, only when a partner added something.
 */
export const EmailDigestPreferences = z.object({ digest: EmailDigestFrequency, time_zone: TimeZone }).strict();
export type EmailDigestPreferences = z.infer<typeof EmailDigestPreferences>;

/** What a member who never chose a digest has: none, on UTC's clock until they pick theirs. */
export const defaultEmailDigestPreferences: EmailDigestPreferences = { digest: "off", time_zone: "UTC" };

/**
 * `POST /api/v1/notifications/email/unsubscribe?token=…` (RFC 8058 one-click unsubscribe): the
 * digest's `List-Unsubscribe` URL, posted with the form body `List-Unsubscribe=One-Click`
 * (`application/x-www-form-urlencoded`), without a session. The `/unsubscribe?token=…` page posts
 * the same after the member confirms (a `GET` of the URL only redirects there). The token is the
 * one in the mail's link; a forged one, or one made for anything else, is 400
 * `unsubscribe_link_invalid`. The answer says the digest is now off (also when it already was).
 */
export const EmailUnsubscribed = z.object({ digest: z.literal("off") });
export type EmailUnsubscribed = z.infer<typeof EmailUnsubscribed>;

/**
 * What the service worker receives in a push message (JSON, encrypted by the push protocol). The
 * text is already written in the member's language; `url` is the page a click opens. `tag` groups
 * what replaces an earlier notification on the device.
 */
export const PushMessage = z.object({
  title: z.string(),
  body: z.string(),
  url: z.string(),
  tag: z.string(),
  /** When the change happened (ms since the epoch). */
  timestamp: z.number().int(),
});
export type PushMessage = z.infer<typeof PushMessage>;
