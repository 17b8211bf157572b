import { activeIntl } from "@/lib/intl";

export { localCalendarDate } from "@/features/memories/utils/calendar-date";

/** "1 year ago", "5 years ago". */
export function yearsAgoLabel(years: number): string {
  return activeIntl().formatMessage({ id: "onThisDay.yearsAgo" }, { years });
}
