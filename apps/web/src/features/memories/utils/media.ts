import type { Photo } from "@memory-box/contract";
import type { WebMessageId } from "@memory-box/messages/web";

import { activeIntl, type AppIntl } from "@/lib/intl";

/** The video types the picker offers and the server accepts (issue #31): MP4, MOV and WebM. */
export const videoTypes = ["video/mp4", "video/quicktime", "video/webm"] as const;

/** The memory form's file picker: any image, and the three video types. */
export const mediaAccept = ["image/*", ...videoTypes].join(",");

export function isVideoFile(file: File): boolean {
  return (videoTypes as readonly string[]).includes(file.type) || /\.(mp4|m4v|mov|webm)$/i.test(file.name);
}

/** What the form uploads: files whose type starts with `image/` (the spec's rule) and videos (issue #31); anything else is skipped. */
export function isMediaFile(file: File): boolean {
  return file.type.startsWith("image/") || isVideoFile(file);
}

/** Whether a media moves: a video or a Live Photo (with its clip once it is ready). */
export function isMoving(photo: Photo): boolean {
  return photo.kind === "video" || photo.kind === "live";
}

/** Whether `photo` can be played now: a video with its playable copy. */
export function isPlayableVideo(photo: Photo): photo is Photo & { video_url: string } {
  return photo.kind === "video" && photo.video_url !== null;
}

const numberFormats = new Map<string, Intl.NumberFormat>();

function digits(locale: string, minimumIntegerDigits: number): Intl.NumberFormat {
  const key = `${locale} ${minimumIntegerDigits}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { minimumIntegerDigits, useGrouping: false });
    numberFormats.set(key, format);
  }
  return format;
}

/**
 * A video's length as a player shows it, "0:42" or "1:02:03", in the language's digits (Arabic's
 * own in Arabic). `Intl.DurationFormat`'s digital style pads the minutes ("00:42"), which no player
 * does, so it is put together from the numbers.
 */
export function formatDuration(seconds: number, intl: Pick<AppIntl, "intlLocale"> = activeIntl()): string {
  const total = Math.max(0, Math.round(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  const locale = intl.intlLocale;
  const parts =
    hours > 0
      ? [digits(locale, 1).format(hours), digits(locale, 2).format(minutes), digits(locale, 2).format(rest)]
      : [digits(locale, 1).format(minutes), digits(locale, 2).format(rest)];
  return parts.join(":");
}

/** Why a video could not be prepared, by the server's error code (its errors.json's words, in the web catalogue). */
const failureMessages: Partial<Record<string, WebMessageId>> = {
  corrupt_video: "memory.video.problem.corrupt",
  undecodable_video: "memory.video.problem.undecodable",
  video_timeout: "memory.video.problem.timeout",
  video_too_long: "memory.video.problem.tooLong",
  video_dimensions_unsupported: "memory.video.problem.dimensions",
};

/** A failed video's reason in the member's words; a code this app does not know yet reads as a general failure. */
export function videoFailureReason(code: string | null, intl: AppIntl = activeIntl()): string {
  return intl.formatMessage({ id: (code && failureMessages[code]) || "memory.video.problem.other" });
}

/** The accessible name of a media in a list ("Photo 2", "Video 2, 0:42", "Live Photo 2"). */
export function mediaLabel(photo: Photo, number: number, intl: AppIntl = activeIntl()): string {
  if (photo.kind === "video") {
    return photo.duration_seconds === null
      ? intl.formatMessage({ id: "memory.video.altNoDuration" }, { number })
      : intl.formatMessage({ id: "memory.video.alt" }, { number, duration: formatDuration(photo.duration_seconds, intl) });
  }
  if (photo.kind === "live") return intl.formatMessage({ id: "memory.live.alt" }, { number });
  return intl.formatMessage({ id: "memory.photo.alt" }, { number });
}
