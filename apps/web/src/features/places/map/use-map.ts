import { useEffect, useEffectEvent, useState, type RefObject } from "react";
import type { LngLatLike } from "maplibre-gl";

import { useMapSettings } from "@/features/places/api/map";
import type * as Engine from "@/features/places/map/map-engine";
import type { MapLibreMap, MapTexts } from "@/features/places/map/map-engine";
import { useIntl } from "@/lib/intl";
import { textDirection } from "@/lib/locale";

/** The engine's module, loaded with the first map drawn (MapLibre, its worker's URL, the atlas loader). */
export type MapEngine = typeof Engine;

let engine: Promise<MapEngine> | undefined;

/** MapLibre and the embedded map's code, fetched once, when a screen first draws a map. */
export function loadMapEngine(): Promise<MapEngine> {
  engine ??= import("@/features/places/map/map-engine").catch((error: unknown) => {
    engine = undefined;
    throw error;
  });
  return engine;
}

export interface UseMapOptions {
  /** Where the map opens; later changes do not move it (the screen moves the map itself). */
  center: LngLatLike;
  zoom: number;
  /** The map's accessible name. */
  label: string;
  controls?: boolean;
  interactive?: boolean;
}

export type MapState =
  { status: "loading" } | { status: "ready"; map: MapLibreMap; engine: MapEngine } | { status: "failed"; retry: () => void };

/**
 * A MapLibre map in `container`, drawn once the operator's style choice is known (an unanswered
 * settings request draws the embedded world map). The map is removed with the component.
 */
export function useMap(container: RefObject<HTMLElement | null>, options: UseMapOptions): MapState {
  const intl = useIntl();
  const settings = useMapSettings();
  const [state, setState] = useState<MapState>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);
  const settled = !settings.isPending;
  const styleUrl = settings.data?.style_url ?? null;
  // The first view and the texts are read when the map is drawn; they do not redraw it.
  const initial = useEffectEvent(() => ({ options, intl }));

  useEffect(() => {
    const element = container.current;
    if (!settled || !element) return;
    let cancelled = false;
    let remove: (() => void) | undefined;
    const { options: first, intl: language } = initial();
    const texts: MapTexts = {
      label: first.label,
      zoomIn: language.formatMessage({ id: "map.zoomIn" }),
      zoomOut: language.formatMessage({ id: "map.zoomOut" }),
      toggleAttribution: language.formatMessage({ id: "map.credits" }),
      closePopup: language.formatMessage({ id: "map.close" }),
      marker: language.formatMessage({ id: "map.marker" }),
      naturalEarth: language.formatMessage({ id: "map.naturalEarth" }),
    };
    loadMapEngine()
      .then(async (loaded) => {
        const drawn = await loaded.drawMap({
          container: element,
          styleUrl,
          center: first.center,
          zoom: first.zoom,
          texts,
          rtl: textDirection(language.locale) === "rtl",
          controls: first.controls,
          interactive: first.interactive,
        });
        if (cancelled) {
          drawn.remove();
          return;
        }
        remove = () => drawn.remove();
        setState({ status: "ready", map: drawn.map, engine: loaded });
      })
      .catch((error: unknown) => {
        console.warn("The map could not be drawn.", error);
        if (!cancelled) setState({ status: "failed", retry: () => setAttempt((count) => count + 1) });
      });
    return () => {
      cancelled = true;
      remove?.();
      setState({ status: "loading" });
    };
  }, [container, settled, styleUrl, attempt]);

  return state;
}
