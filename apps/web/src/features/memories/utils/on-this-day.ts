import { activeIntl } from "@/lib/intl";

/** Today as this device's calendar shows it ("YYYY-MM-DD"): "On this day" is the member's day, wherever they are. */
export function localCalendarDate(now: Date = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** "1 year ago", "5 years ago". */
export function yearsAgoLabel(years: number): string {
  return activeIntl().formatMessage({ id: "onThisDay.yearsAgo" }, { years });
}
