import { activeIntl, dateTimeFormat } from "@/lib/intl";

/**
 * Dates as the spec shows them: en-US with a short month, in the viewer's time zone (another
 * language: that language's own medium date, by `Intl`). One formatter
 * each, made on first use: `toLocaleDateString` with options builds a new one per call, which for
 * a page of cards cost more than rendering them. Calendar dates need none.
 */

/**
 * A calendar date ("2024-06-01") → "Jun 1, 2024". Built from its Y-M-D parts as a local date:
 * `new Date("2024-06-01")` would be midnight UTC, which is still May 31 west of Greenwich.
 */
export function formatMemoryDate(value: string): string {
  const date = calendarDate(value);
  if (!date) return value;
  const intl = activeIntl();
  if (intl.locale !== "en") return dateTimeFormat({ year: "numeric", month: "short", day: "numeric" }, intl).format(date);
  return `${shortMonths[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`;
}

/**
 * The months as `Intl.DateTimeFormat("en-US", { month: "short" })` writes them. Written without
 * `Intl`: the first date formatter a page makes costs ~20 ms on a slow machine, at the moment
 * home's first screen is built (ADR 0039); a test holds the two to the same text.
 */
const shortMonths = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A calendar date ("2024-06-01") as that day's local midnight; null for anything else. */
export function calendarDate(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const date = new Date(2000, Number(match[2]) - 1, Number(match[3]));
  // Set apart: `new Date(1, 0, 1)` means 1901, so a year below 100 came out 1900 years late.
  date.setFullYear(Number(match[1]));
  return date;
}

/** An instant ("2024-06-01T18:30:00.000Z") → "Jun 1, 2024, 8:30 PM" in local time. */
export function formatTimestamp(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return dateTimeFormat({ year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit" }).format(date);
}

/** Whether two instants differ (compared as times, not as strings). */
export function isSameInstant(a: string, b: string): boolean {
  return new Date(a).getTime() === new Date(b).getTime();
}
