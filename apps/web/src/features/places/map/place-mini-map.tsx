import { useEffect, useRef } from "react";
import type { Place } from "@memory-box/contract";

import { MapViewState } from "@/features/places/map/map-view-state";
import { pinElement } from "@/features/places/map/pin";
import { useMap } from "@/features/places/map/use-map";
import { useIntl } from "@/lib/intl";

/**
 * The region around the place: the embedded world map has no streets or names, so a city's width
 * would be a blank field; at this zoom its coasts and borders say where the place is.
 */
const regionZoom = 5;

/**
 * A memory's place on a small still map (issue #32): centred on it with a pin, with its region around it, in a
 * box rounded like the app's cards. MapLibre and the map's data load with it, not with the page.
 */
export default function PlaceMiniMap({ place }: { place: Place }) {
  const intl = useIntl();
  const container = useRef<HTMLDivElement>(null);
  const state = useMap(container, {
    center: [place.longitude, place.latitude],
    zoom: regionZoom,
    label: intl.formatMessage({ id: "map.mini.label" }, { place: place.name }),
    interactive: false,
  });
  const ready = state.status === "ready" ? state : null;

  useEffect(() => {
    if (!ready) return;
    const center: [number, number] = [place.longitude, place.latitude];
    ready.map.jumpTo({ center, zoom: regionZoom });
    const pin = new ready.engine.Marker({ element: pinElement(), anchor: "bottom" }).setLngLat(center).addTo(ready.map);
    return () => {
      pin.remove();
    };
  }, [ready, place.latitude, place.longitude]);

  return (
    <div className="relative h-[200px] overflow-hidden rounded-xl border bg-muted shadow-sm">
      {/* MapLibre makes its container `position: relative`: the box that fills the frame is this one's parent. */}
      <div className="absolute inset-0">
        <div ref={container} className="size-full" />
      </div>
      <MapViewState state={state} />
    </div>
  );
}
