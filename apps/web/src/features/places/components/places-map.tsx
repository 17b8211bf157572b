import { useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import type { PlaceCluster } from "@memory-box/contract";
import type { Marker } from "maplibre-gl";
import { MapPinIcon } from "lucide-react";

import { EmptyState } from "@/components/empty-state";
import { Button } from "@/components/ui/button";
import { usePlaceMap, type ListsKey, type MapView } from "@/features/places/api/map";
import { ClusterMark } from "@/features/places/components/cluster-mark";
import { ClusterPanel } from "@/features/places/components/cluster-panel";
import { MapViewState } from "@/features/places/map/map-view-state";
import { useMap } from "@/features/places/map/use-map";
import { mapViewOf } from "@/features/places/map/view-bounds";
import { useIntl } from "@/lib/intl";

/** A moving map asks again once it has rested this long: a drag or a wheel spin is one request. */
export const viewDebounceMs = 300;

const worldView = { center: [10, 30] as [number, number], zoom: 1 };

/** A mark is the same mark while it stands for the same memories at the same spot. */
const markKey = (cluster: PlaceCluster) => `${cluster.bounds}|${cluster.count}|${cluster.memory.id}`;

/**
 * The collection's map (`/places`, issue #32): every memory with a place as a mark, memories close
 * together at the zoom shown as one with their count (the server clusters, `GET
 * /api/v1/places/map`, asked again for each view the map rests on). A single memory's mark opens
 * it; a cluster's lists its memories beside the map. `lists` is the key family a change to the
 * memories refreshes (api/map.ts).
 */
export function PlacesMap({ lists }: { lists: ListsKey }) {
  const intl = useIntl();
  const container = useRef<HTMLDivElement>(null);
  const state = useMap(container, { ...worldView, label: intl.formatMessage({ id: "map.places.label" }) });
  const [view, setView] = useState<MapView | null>(null);
  const [open, setOpen] = useState<PlaceCluster | null>(null);
  // The mark that opened the list: the focus goes back to it when the list closes.
  const opener = useRef<HTMLElement | null>(null);
  const openCluster = (cluster: PlaceCluster) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setOpen(cluster);
  };
  const closeCluster = () => {
    setOpen(null);
    if (opener.current?.isConnected) opener.current.focus();
  };
  const places = usePlaceMap(lists, view);
  const ready = state.status === "ready" ? state : null;

  // The view the map rests on, asked for once it has rested `viewDebounceMs`.
  useEffect(() => {
    if (!ready) return;
    const { map } = ready;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = () => {
      const bounds = map.getBounds();
      setView(
        mapViewOf(
          { west: bounds.getWest(), south: bounds.getSouth(), east: bounds.getEast(), north: bounds.getNorth() },
          map.getZoom(),
        ),
      );
    };
    const onMoveEnd = () => {
      clearTimeout(timer);
      timer = setTimeout(read, viewDebounceMs);
    };
    read();
    map.on("moveend", onMoveEnd);
    return () => {
      clearTimeout(timer);
      map.off("moveend", onMoveEnd);
    };
  }, [ready]);

  // The marks on the map, each an element MapLibre places; React draws into them (below).
  const [marks, setMarks] = useState<Array<{ key: string; cluster: PlaceCluster; element: HTMLElement }>>([]);
  const placed = useRef(new Map<string, { marker: Marker; element: HTMLElement }>());
  const clusters = places.data?.clusters;
  useEffect(() => {
    if (!ready) return;
    const current = placed.current;
    const wanted = new Map((clusters ?? []).map((cluster) => [markKey(cluster), cluster]));
    for (const [key, { marker }] of current)
      if (!wanted.has(key)) {
        marker.remove();
        current.delete(key);
      }
    for (const [key, cluster] of wanted) {
      if (current.has(key)) continue;
      const element = document.createElement("div");
      const marker = new ready.engine.Marker({ element }).setLngLat([cluster.longitude, cluster.latitude]).addTo(ready.map);
      current.set(key, { marker, element });
    }
    setMarks([...wanted].map(([key, cluster]) => ({ key, cluster, element: current.get(key)!.element })));
  }, [ready, clusters]);
  useEffect(
    () => () => {
      for (const { marker } of placed.current.values()) marker.remove();
      placed.current.clear();
    },
    [ready],
  );

  const empty = places.data?.total === 0;
  return (
    <div className="flex min-h-0 flex-1 flex-col md:flex-row">
      <div className="relative min-h-0 flex-1">
        {/* MapLibre makes its container `position: relative`: the box that fills the frame is this one's parent. */}
        <div className="absolute inset-0">
          <div ref={container} className="size-full" data-testid="places-map" />
        </div>
        <MapViewState state={state} />
        {ready && (
          <div className="pointer-events-none absolute inset-x-0 top-3 flex justify-center px-16">
            {places.isError ? (
              <div
                role="alert"
                className="pointer-events-auto flex items-center gap-2 rounded-full border bg-background px-4 py-1.5 text-sm shadow-sm"
              >
                <span className="text-problem">{intl.formatMessage({ id: "map.places.failed" })}</span>
                <Button type="button" variant="ghost" size="sm" onClick={() => void places.refetch()}>
                  {intl.formatMessage({ id: "map.retry" })}
                </Button>
              </div>
            ) : (
              (places.isPending || places.isPlaceholderData) && (
                <p
                  role="status"
                  className="rounded-full border bg-background px-4 py-1.5 text-sm text-muted-foreground shadow-sm"
                >
                  {intl.formatMessage({ id: "map.places.loading" })}
                </p>
              )
            )}
          </div>
        )}
        {ready && empty && (
          <div className="pointer-events-none absolute inset-0 flex items-center justify-center p-4">
            <EmptyState
              className="pointer-events-auto max-w-md"
              icon={MapPinIcon}
              title={intl.formatMessage({ id: "map.places.emptyTitle" })}
              description={intl.formatMessage({ id: "map.places.emptyHint" })}
            />
          </div>
        )}
        {marks.map(({ key, cluster, element }) =>
          createPortal(<ClusterMark cluster={cluster} onOpen={openCluster} />, element, key),
        )}
      </div>
      {open && <ClusterPanel cluster={open} lists={lists} onClose={closeCluster} />}
    </div>
  );
}
