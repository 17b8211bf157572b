import type { PlaceCluster } from "@memory-box/contract";
import { Link } from "react-router";

import { paths } from "@/config/paths";
import { useIntl } from "@/lib/intl";
import { cn } from "@/lib/utils";

const markRing = "shadow-md ring-2 ring-background focus-visible:ring-[3px] focus-visible:ring-ring focus-visible:outline-none";

/**
 * One mark of the collection's map: a single memory as its thumbnail (or its first letter), a link
 * to its page; several as a bubble with their count, which lists them (`onOpen`).
 */
export function ClusterMark({ cluster, onOpen }: { cluster: PlaceCluster; onOpen: (cluster: PlaceCluster) => void }) {
  const intl = useIntl();
  const { memory } = cluster;
  if (cluster.count === 1) {
    return (
      <Link
        to={paths.memory(memory.id)}
        aria-label={intl.formatMessage({ id: "map.places.memoryMark" }, { title: memory.title, place: memory.place_name })}
        className={cn("block size-12 overflow-hidden rounded-full bg-primary text-primary-foreground", markRing)}
        data-testid="place-mark"
      >
        {memory.thumbnail_url ? (
          <img src={memory.thumbnail_url} alt="" className="size-full object-cover" draggable={false} />
        ) : (
          <span aria-hidden="true" className="flex size-full items-center justify-center text-lg font-semibold">
            {Array.from(memory.title.trim())[0]?.toLocaleUpperCase(intl.intlLocale) ?? ""}
          </span>
        )}
      </Link>
    );
  }
  return (
    <button
      type="button"
      onClick={() => onOpen(cluster)}
      aria-label={intl.formatMessage({ id: "map.places.clusterMark" }, { count: cluster.count, place: memory.place_name })}
      className={cn(
        "flex min-w-11 items-center justify-center rounded-full bg-primary px-2 py-2 text-sm font-semibold text-primary-foreground tabular-nums",
        markRing,
      )}
      data-testid="place-cluster"
    >
      {cluster.count.toLocaleString(intl.intlLocale)}
    </button>
  );
}
