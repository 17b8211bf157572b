import type { OnThisDay } from "@memory-box/contract";
import { Link } from "react-router";

import { paths } from "@/config/paths";
import { MediaMark } from "@/features/memories/components/media-mark";
import { PhotoImage } from "@/features/memories/components/photo-image";
import { formatMemoryDate } from "@/features/memories/utils/memory-dates";
import { yearsAgoLabel } from "@/features/memories/utils/on-this-day";
import { useIntl } from "@/lib/intl";

/**
 * "On this day" above home's list: the memories of the same days in earlier years, one row per
 * year, the nearest first; nothing at all when there are none. Without state: the first screen's
 * script draws it too (ADR 0039), so nothing moves when the app takes over.
 */
export function OnThisDaySection({ answer }: { answer: OnThisDay }) {
  const intl = useIntl();
  if (answer.groups.length === 0) return null;
  return (
    <section aria-labelledby="on-this-day-heading" className="mb-6 flex flex-col gap-3">
      <h2 id="on-this-day-heading" className="text-lg font-semibold">
        {intl.formatMessage({ id: "onThisDay.heading" })}
      </h2>
      {/* One row, scrolled sideways: however many years there are, the list stays near the top. */}
      <div className="flex gap-6 overflow-x-auto pb-1">
        {answer.groups.map((group) => (
          <div key={group.years_ago} className="flex shrink-0 flex-col gap-2">
            <h3 className="text-sm font-medium">{yearsAgoLabel(group.years_ago)}</h3>
            <ul aria-label={yearsAgoLabel(group.years_ago)} className="flex gap-3">
              {group.memories.map((memory) => (
                <li key={memory.id} className="w-32 shrink-0">
                  <Link
                    to={paths.memory(memory.id)}
                    className="flex flex-col gap-1.5 rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
                  >
                    <div className="relative aspect-square overflow-hidden rounded-md border bg-card">
                      {memory.photos[0] ? (
                        <>
                          <PhotoImage
                            photo={memory.photos[0]}
                            size="thumbnail"
                            alt=""
                            className="size-full object-cover"
                            loading="eager"
                          />
                          <MediaMark photo={memory.photos[0]} small />
                        </>
                      ) : (
                        memory.content && (
                          <p dir="auto" className="line-clamp-5 p-2 text-xs break-words">
                            {memory.content}
                          </p>
                        )
                      )}
                    </div>
                    <span dir="auto" className="truncate text-sm font-medium">
                      {memory.title}
                    </span>
                    {memory.memory_date && (
                      <time dateTime={memory.memory_date} className="text-xs">
                        {formatMemoryDate(memory.memory_date)}
                      </time>
                    )}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </section>
  );
}
