import { useId, type ReactNode } from "react";
import { Link } from "react-router";
import type { MemoryTimeline } from "@memory-box/contract";
import { BookOpenIcon } from "lucide-react";

import { Button } from "@/components/ui/button";
import { paths } from "@/config/paths";
import { cn } from "@/lib/utils";
import { memoryCount, timelineYears, undatedStart } from "@/features/memories/utils/timeline";
import { useIntl } from "@/lib/intl";

export interface TimelineProps {
  timeline: MemoryTimeline;
  /** Where the list starts now: a month (`YYYY-MM`), `undated`, or "" for the newest. */
  current: string;
  onJump: (from: string) => void;
  className?: string;
}

export interface TimelineColumnProps extends TimelineProps {
  /** The tag filter, which a year's book (its heading's link) keeps. */
  tags?: readonly string[];
}

/**
 * The timeline index beside home's cards on wide screens: "Newest", then each year with its months
 * and how many memories each holds, then the undated ones. Choosing one starts the list there; the
 * list's start is marked `aria-current`. Scrolls on its own, so a long history never pushes the page.
 * Each year's heading links to that year as a book to print (issue #35), with the tags chosen.
 */
export function TimelineColumn({ timeline, current, onJump, tags = [], className }: TimelineColumnProps) {
  const intl = useIntl();
  return (
    <nav aria-label={intl.formatMessage({ id: "home.timeline.label" })} className={cn("overflow-y-auto", className)}>
      <ul className="flex flex-col gap-3">
        <li>
          <TimelineButton current={current === ""} onClick={() => onJump("")}>
            {intl.formatMessage({ id: "home.timeline.newest" })}
          </TimelineButton>
        </li>
        {timelineYears(timeline).map(({ year, months }) => (
          <li key={year} className="flex flex-col gap-1">
            <div className="flex items-center justify-between gap-2 ps-3 pe-1">
              <h2 className="text-sm font-semibold">{year}</h2>
              <Button asChild size="icon" variant="ghost" className="size-7 text-muted-foreground">
                <Link
                  to={paths.bookYear(year, tags)}
                  aria-label={intl.formatMessage({ id: "home.timeline.printYear" }, { year })}
                  title={intl.formatMessage({ id: "home.timeline.printYear" }, { year })}
                >
                  <BookOpenIcon aria-hidden="true" />
                </Link>
              </Button>
            </div>
            <ul className="flex flex-col gap-0.5">
              {months.map(({ month, count, short, long }) => (
                <li key={month}>
                  <TimelineButton
                    current={current === month}
                    label={intl.formatMessage({ id: "home.timeline.monthLabel" }, { month: long, count: memoryCount(count) })}
                    onClick={() => onJump(month)}
                  >
                    {short}
                    <span className="tabular-nums">{count}</span>
                  </TimelineButton>
                </li>
              ))}
            </ul>
          </li>
        ))}
        {timeline.undated > 0 && (
          <li>
            <TimelineButton
              current={current === undatedStart}
              label={intl.formatMessage({ id: "home.timeline.undatedLabel" }, { count: memoryCount(timeline.undated) })}
              onClick={() => onJump(undatedStart)}
            >
              {intl.formatMessage({ id: "home.timeline.undated" })}
              <span className="tabular-nums">{timeline.undated}</span>
            </TimelineButton>
          </li>
        )}
      </ul>
    </nav>
  );
}

function TimelineButton({
  current,
  label,
  onClick,
  children,
}: {
  current: boolean;
  label?: string;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Button
      size="sm"
      variant={current ? "default" : "ghost"}
      aria-current={current ? "true" : undefined}
      aria-label={label}
      onClick={onClick}
      className="w-full justify-between"
    >
      {children}
    </Button>
  );
}

/**
 * The same index on narrow screens: one "Jump to" select above the cards, the years as its groups.
 * Short month names keep it beside the count on a phone's width, so it never wraps onto a line of its own.
 */
export function TimelineSelect({ timeline, current, onJump, className }: TimelineProps) {
  const id = useId();
  const intl = useIntl();
  return (
    <nav aria-label={intl.formatMessage({ id: "home.timeline.label" })} className={cn("flex items-center gap-2", className)}>
      <label htmlFor={id} className="text-sm font-medium">
        {intl.formatMessage({ id: "home.timeline.jumpTo" })}
      </label>
      <select
        id={id}
        value={current}
        onChange={(event) => onJump(event.target.value)}
        className="h-9 rounded-md border border-input bg-background px-2 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 dark:bg-input/30"
      >
        <option value="">{intl.formatMessage({ id: "home.timeline.newest" })}</option>
        {timelineYears(timeline).map(({ year, months }) => (
          <optgroup key={year} label={year}>
            {months.map(({ month, count, short }) => (
              <option key={month} value={month}>
                {intl.formatMessage({ id: "home.timeline.monthOption" }, { month: short, year, count })}
              </option>
            ))}
          </optgroup>
        ))}
        {timeline.undated > 0 && (
          <option value={undatedStart}>
            {intl.formatMessage({ id: "home.timeline.undatedOption" }, { count: timeline.undated })}
          </option>
        )}
      </select>
    </nav>
  );
}
