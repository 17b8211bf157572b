/**
 * When digests leave (ADR 0060): daily at 08:00 on the member's clock, weekly on Monday at 08:00.
 * A period is named by the member's local date its digest leaves on ("2026-11-30"), so the name
 * depends only on the clock and the time zone: every server process, before or after a restart,
 * finds the same period due and claims the same row.
 */
export type DigestSchedule = "daily" | "weekly";

/** The hour on the member's clock at which a digest leaves. */
export const digestHour = 8;

interface LocalTime {
  /** "YYYY-MM-DD" on the member's calendar. */
  date: string;
  /** 0 for Monday … 6 for Sunday. */
  weekday: number;
  hour: number;
}

const weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
// Building a DateTimeFormat costs far more than using one; a member's time zone is used every tick.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      hourCycle: "h23",
      weekday: "short",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The date, weekday and hour that `instant` is on the clocks of `timeZone`. */
export function localTime(instant: Date, timeZone: string): LocalTime {
  const parts = Object.fromEntries(
    formatterFor(timeZone)
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    weekday: weekdays.indexOf(parts.weekday ?? ""),
    hour: Number(parts.hour),
  };
}

/** `date` ("YYYY-MM-DD") moved by `days` on the calendar. */
function addDays(date: string, days: number): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/**
 * The period whose digest is the latest to have become due at `now`: today's date from 08:00 on
 * (yesterday's before it) for a daily digest, this week's Monday from Monday 08:00 on for a weekly
 * one. A digest is owed when this is later than the last period done.
 */
export function currentPeriod(schedule: DigestSchedule, timeZone: string, now: Date): string {
  const local = localTime(now, timeZone);
  const beforeHour = local.hour < digestHour;
  if (schedule === "daily") return beforeHour ? addDays(local.date, -1) : local.date;
  const daysSinceMonday = local.weekday === 0 && beforeHour ? 7 : local.weekday;
  return addDays(local.date, -daysSinceMonday);
}
