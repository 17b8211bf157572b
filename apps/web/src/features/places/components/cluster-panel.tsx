import { useEffect, useRef } from "react";
import type { PlaceCluster } from "@memory-box/contract";
import { Link } from "react-router";
import { XIcon } from "lucide-react";

import { Button } from "@/components/ui/button";
import { paths } from "@/config/paths";
import { useMemoriesWithin, type ListsKey } from "@/features/places/api/map";
import { dateTimeFormat, useIntl } from "@/lib/intl";

/** A memory's calendar date ("2024-06-01") in the reader's language, as that day (not midnight UTC). */
function formatDay(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return value;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return dateTimeFormat({ year: "numeric", month: "short", day: "numeric" }).format(date);
}

/**
 * The memories of a cluster the member opened, each a link to its page: beside the map on a wide
 * screen, a sheet over its lower half on a phone. Escape or the close button closes it; it takes
 * the focus when it opens, so a keyboard is in the list at once.
 */
export function ClusterPanel({ cluster, lists, onClose }: { cluster: PlaceCluster; lists: ListsKey; onClose: () => void }) {
  const intl = useIntl();
  const memories = useMemoriesWithin(lists, cluster.bounds);
  const heading = useRef<HTMLHeadingElement>(null);
  const items = memories.data?.pages.flatMap((page) => page.items) ?? [];

  useEffect(() => {
    heading.current?.focus();
  }, [cluster.bounds]);

  return (
    <aside
      aria-labelledby="cluster-panel-heading"
      onKeyDown={(event) => {
        if (event.key === "Escape") onClose();
      }}
      className="fixed inset-x-0 bottom-0 z-10 flex max-h-[55svh] flex-col rounded-t-xl border-t bg-background shadow-lg md:static md:z-auto md:max-h-none md:w-80 md:shrink-0 md:rounded-none md:border-t-0 md:border-s md:shadow-none"
      data-testid="cluster-panel"
    >
      <div className="flex items-center justify-between gap-2 border-b px-4 py-3">
        <h2 id="cluster-panel-heading" ref={heading} tabIndex={-1} className="font-semibold focus:outline-none">
          {intl.formatMessage({ id: "map.places.panelTitle" }, { count: cluster.count, place: cluster.memory.place_name })}
        </h2>
        <Button type="button" variant="ghost" size="icon" onClick={onClose} aria-label={intl.formatMessage({ id: "map.close" })}>
          <XIcon aria-hidden="true" />
        </Button>
      </div>
      <div className="flex-1 overflow-y-auto p-2">
        {memories.isPending ? (
          <p role="status" className="p-2 text-sm text-muted-foreground">
            {intl.formatMessage({ id: "map.places.panelLoading" })}
          </p>
        ) : memories.isError && items.length === 0 ? (
          <div className="flex flex-col items-start gap-2 p-2">
            <p role="alert" className="text-sm text-problem">
              {intl.formatMessage({ id: "map.places.panelFailed" })}
            </p>
            <Button type="button" variant="outline" size="sm" onClick={() => void memories.refetch()}>
              {intl.formatMessage({ id: "map.retry" })}
            </Button>
          </div>
        ) : (
          <>
            <ul className="flex flex-col">
              {items.map((memory) => (
                <li key={memory.id}>
                  <Link
                    to={paths.memory(memory.id)}
                    className="flex flex-col rounded-md px-2 py-2 hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
                  >
                    <span className="font-medium">{memory.title}</span>
                    <span className="text-sm text-muted-foreground">
                      {[memory.memory_date && formatDay(memory.memory_date), memory.place?.name].filter(Boolean).join(" · ")}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
            {memories.hasNextPage && (
              <Button
                type="button"
                variant="outline"
                size="sm"
                className="m-2"
                disabled={memories.isFetchingNextPage}
                onClick={() => void memories.fetchNextPage()}
              >
                {intl.formatMessage({ id: "map.places.more" })}
              </Button>
            )}
          </>
        )}
      </div>
      <p className="border-t px-4 py-2 text-xs text-muted-foreground">{intl.formatMessage({ id: "map.attribution" })}</p>
    </aside>
  );
}
