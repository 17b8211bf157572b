import { useEffect, useEffectEvent, useId, useRef, useState } from "react";
import type { GeoPoint } from "@memory-box/contract";
import type { LngLat, Marker } from "maplibre-gl";

import { MapViewState } from "@/features/places/map/map-view-state";
import { pinElement } from "@/features/places/map/pin";
import { useMap } from "@/features/places/map/use-map";
import { useIntl } from "@/lib/intl";

/** Whole world, or a city when a point is set. */
const worldView = { center: [10, 30] as [number, number], zoom: 1 };
const pointZoom = 10;

/** Five decimals: about a metre, finer than any place a member means. */
const rounded = (degrees: number) => Math.round(degrees * 1e5) / 1e5;

/**
 * A map to pick a memory's place on (issue #32): a tap or click sets the pin there; with the
 * keyboard, the arrow keys move the map (and + and - zoom) and Enter picks the point under the
 * cross in its middle. MapLibre and the map's data load with it, not with the form.
 */
export default function MapPicker({ initial, onPick }: { initial: GeoPoint | null; onPick: (point: GeoPoint) => void }) {
  const intl = useIntl();
  const hintId = useId();
  const container = useRef<HTMLDivElement>(null);
  const [picked, setPicked] = useState<GeoPoint | null>(null);
  const state = useMap(container, {
    center: initial ? [initial.longitude, initial.latitude] : worldView.center,
    zoom: initial ? pointZoom : worldView.zoom,
    label: intl.formatMessage({ id: "map.picker.label" }),
  });
  const pick = useEffectEvent((point: GeoPoint) => {
    setPicked(point);
    onPick(point);
  });
  const initialPoint = useEffectEvent(() => initial);

  const ready = state.status === "ready" ? state : null;
  const marker = useRef<Marker | null>(null);

  useEffect(() => {
    if (!ready) return;
    const { map, engine } = ready;
    const pin = new engine.Marker({ element: pinElement(), anchor: "bottom" });
    const start = initialPoint();
    if (start) pin.setLngLat([start.longitude, start.latitude]).addTo(map);
    marker.current = pin;
    const choose = (lngLat: LngLat) => {
      const wrapped = lngLat.wrap();
      pin.setLngLat(wrapped).addTo(map);
      pick({ latitude: rounded(wrapped.lat), longitude: rounded(wrapped.lng) });
    };
    const onClick = (event: { lngLat: LngLat }) => choose(event.lngLat);
    const canvas = map.getCanvas();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Enter") return;
      event.preventDefault();
      choose(map.getCenter());
    };
    map.on("click", onClick);
    canvas.addEventListener("keydown", onKeyDown);
    canvas.setAttribute("aria-describedby", hintId);
    return () => {
      map.off("click", onClick);
      canvas.removeEventListener("keydown", onKeyDown);
      pin.remove();
      marker.current = null;
    };
  }, [ready, hintId]);

  // A point chosen another way (a search, a photo's location) moves the pin, not the member's view.
  useEffect(() => {
    const pin = marker.current;
    if (!pin || !ready || !initial) return;
    const current = pin.getLngLat() as LngLat | undefined;
    if (current?.lat === initial.latitude && current.lng === initial.longitude) return;
    pin.setLngLat([initial.longitude, initial.latitude]).addTo(ready.map);
  }, [ready, initial]);

  return (
    <div className="flex flex-col gap-2">
      <div className="relative h-72 overflow-hidden rounded-xl border bg-muted">
        {/* MapLibre makes its container `position: relative`: the box that fills the frame is this one's parent. */}
        <div className="absolute inset-0">
          <div ref={container} className="size-full" />
        </div>
        {ready && (
          // What Enter picks: the middle of the map.
          <div aria-hidden="true" className="pointer-events-none absolute inset-0 flex items-center justify-center">
            <div className="size-5 rounded-full border-2 border-foreground/60" />
          </div>
        )}
        <MapViewState state={state} />
      </div>
      <p id={hintId} className="text-sm text-muted-foreground">
        {intl.formatMessage({ id: "map.picker.hint" })}
      </p>
      <p role="status" className="sr-only">
        {picked &&
          intl.formatMessage(
            { id: "map.picker.picked" },
            {
              latitude: picked.latitude.toLocaleString(intl.intlLocale, { maximumFractionDigits: 4 }),
              longitude: picked.longitude.toLocaleString(intl.intlLocale, { maximumFractionDigits: 4 }),
            },
          )}
      </p>
    </div>
  );
}
