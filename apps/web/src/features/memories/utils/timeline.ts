import type { MemoryTimeline } from "@memory-box/contract";
import { activeIntl, dateTimeFormat } from "@/lib/intl";

/** `from` for the undated memories, after every month. */
export const undatedStart = "undated";

export interface TimelineMonth {
  /** `YYYY-MM`, as `from` takes it. */
  month: string;
  count: number;
  /** "Jun". */
  short: string;
  /** "June 2024". */
  long: string;
}

export interface TimelineYear {
  year: string;
  months: TimelineMonth[];
}

/** The timeline's months grouped by year, newest first as the API sends them. */
export function timelineYears(timeline: MemoryTimeline): TimelineYear[] {
  // Made on first use, as in memory-dates.ts: not while home's first screen is being built.
  const shortMonth = dateTimeFormat({ month: "short" });
  const longMonth = dateTimeFormat({ month: "long", year: "numeric" });
  const years: TimelineYear[] = [];
  for (const { month, count } of timeline.months) {
    const [year = "", number = "1"] = month.split("-");
    const date = new Date(Number(year), Number(number) - 1, 1);
    const entry = { month, count, short: shortMonth.format(date), long: longMonth.format(date) };
    const last = years[years.length - 1];
    if (last?.year === year) last.months.push(entry);
    else years.push({ year, months: [entry] });
  }
  return years;
}

/** The index is worth showing once the dated memories spread over more than one month. */
export function showsTimeline(timeline: MemoryTimeline | undefined): timeline is MemoryTimeline {
  return timeline !== undefined && timeline.months.length > 1;
}

/** "2 memories", "1 memory". */
export function memoryCount(count: number): string {
  return activeIntl().formatMessage({ id: "home.timeline.memoryCount" }, { count });
}
