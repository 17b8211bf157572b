import type { FrameSelection } from "@memory-box/contract";

import { dateTimeFormat, type AppIntl } from "@/lib/intl";

/** A calendar date ("2024-06-01") in the member's language ("June 1, 2024"), as that local day. */
function formatCalendarDate(value: string, intl: AppIntl): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return value;
  const date = new Date(2000, Number(match[2]) - 1, Number(match[3]));
  date.setFullYear(Number(match[1]));
  return dateTimeFormat({ year: "numeric", month: "long", day: "numeric" }, intl).format(date);
}

/** What a frame shows, in words: "Everything", "Tags: beach, kids", "From June 1, 2024 to …", "On this day". */
export function selectionWords(selection: FrameSelection, intl: AppIntl): string {
  switch (selection.kind) {
    case "everything":
      return intl.formatMessage({ id: "frames.shows.everything" });
    case "on-this-day":
      return intl.formatMessage({ id: "frames.shows.onThisDay" });
    case "tags":
      return intl.formatMessage({ id: "frames.shows.tags" }, { tags: selection.tags.join(", ") });
    case "dates": {
      const from = selection.from ? formatCalendarDate(selection.from, intl) : "";
      const to = selection.to ? formatCalendarDate(selection.to, intl) : "";
      if (from && to) return intl.formatMessage({ id: "frames.shows.between" }, { from, to });
      if (from) return intl.formatMessage({ id: "frames.shows.since" }, { from });
      return intl.formatMessage({ id: "frames.shows.until" }, { to });
    }
  }
}
