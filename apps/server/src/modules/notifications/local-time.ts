import type { QuietHours } from "@memory-box/contract";

/**
 * A device's clock: the calendar day and the minute of the day at an instant in its time zone
 * (IANA name, checked by the contract). Quiet hours and "On this day" are kept on this clock.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    formats.set(timeZone, format);
  }
  return format;
}

export interface LocalTime {
  /** "YYYY-MM-DD" */
  day: string;
  /** Minutes since local midnight. */
  minute: number;
  second: number;
}

export function localTime(at: Date, timeZone: string): LocalTime {
  const parts = Object.fromEntries(
    formatIn(timeZone)
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return {
    day: `${parts.year}-${parts.month}-${parts.day}`,
    minute: Number(parts.hour) * 60 + Number(parts.minute),
    second: Number(parts.second),
  };
}

/** "HH:MM" as minutes since midnight. */
export function minuteOf(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

/**
 * When a notification due at `at` may be shown: `at` itself, or the end of the quiet hours it
 * falls in (`from` after `to` spans midnight; equal times mean no quiet hours). The end is
 * reckoned in whole minutes from the local clock at `at`, so a daylight-saving change within the
 * quiet hours moves it by that hour at most.
 */
export function afterQuietHours(at: Date, quiet: QuietHours | null, timeZone: string): Date {
  if (!quiet) return at;
  const from = minuteOf(quiet.from);
  const to = minuteOf(quiet.to);
  if (from === to) return at;
  const { minute, second } = localTime(at, timeZone);
  const inside = from < to ? minute >= from && minute < to : minute >= from || minute < to;
  if (!inside) return at;
  const minutesLeft = (to - minute + 1440) % 1440;
  return new Date(at.getTime() + minutesLeft * 60_000 - second * 1000 - at.getUTCMilliseconds());
}
