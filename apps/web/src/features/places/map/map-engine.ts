/**
 * The map engine (issue #32, ADR 0057): MapLibre GL JS, its stylesheet, its worker and the
 * embedded world map. Loaded only by the screens that draw a map (`load-engine.ts`), never with
 * home's or the sign-in page's code.
 *
 * MapLibre starts its worker from the URL given here, a file of the app's own origin (Vite's
 * `?url`), as a module worker: no `blob:` or `data:` worker and no `eval`, so the app's
 * Content-Security-Policy (`script-src 'self'`, `worker-src 'self'`) needs nothing more for the
 * embedded map. An operator's style (`MAP_STYLE_URL`) needs its hosts in `connect-src` (style,
 * tiles, sprites, glyphs) and `img-src` for raster tiles.
 */
import { AttributionControl, Map as MapLibreMap, Marker, NavigationControl, setWorkerUrl, type LngLatLike } from "maplibre-gl";
import "maplibre-gl/dist/maplibre-gl.css";
import workerUrl from "maplibre-gl/dist/maplibre-gl-worker.mjs?url";

import { loadAtlas } from "@/features/places/map/atlas";
import { embeddedPaint, embeddedStyle } from "@/features/places/map/embedded-style";
import { mapColours, watchTheme } from "@/features/places/map/theme-colours";

export { Marker };
export type { MapLibreMap };

/** How long an operator's style may take to arrive before the embedded map is drawn instead. */
const styleTimeoutMs = 8_000;

/** MapLibre's own texts (its controls' names) in the reader's language, from the catalogue. */
export interface MapTexts {
  /** The map's accessible name. */
  label: string;
  zoomIn: string;
  zoomOut: string;
  toggleAttribution: string;
  closePopup: string;
  marker: string;
  /** Credits Natural Earth under the embedded map. */
  naturalEarth: string;
}

export interface MapOptions {
  container: HTMLElement;
  /** The operator's style (`GET /api/v1/places/settings`); null draws the embedded world map. */
  styleUrl: string | null;
  center: LngLatLike;
  zoom: number;
  texts: MapTexts;
  /** Right to left: the controls go to the other side, where a reader of the language looks for them. */
  rtl: boolean;
  /** Zoom buttons (the picker and the collection's map); a mini-map has none. */
  controls?: boolean;
  /** A still map (the mini-map): no panning, zooming or keyboard. */
  interactive?: boolean;
}

export interface DrawnMap {
  map: MapLibreMap;
  /** Stops following the theme and the network, and frees the map's WebGL context. */
  remove(): void;
}

let workerSet = false;

/**
 * A map in `container`: the operator's style when there is one and the network is up, the embedded
 * world map otherwise, or when that style fails to load, or the device goes offline. The embedded
 * map follows the app's theme (light or dark) as it changes.
 */
export async function drawMap(options: MapOptions): Promise<DrawnMap> {
  if (!workerSet) {
    setWorkerUrl(new URL(workerUrl, window.location.href).href);
    workerSet = true;
  }
  const { container, styleUrl, texts } = options;
  const operatorStyle = styleUrl !== null && navigator.onLine;
  const embedded = async () => embeddedStyle(await loadAtlas(), mapColours(container), texts.naturalEarth);

  const interactive = options.interactive ?? true;
  const map = new MapLibreMap({
    container,
    style: operatorStyle ? styleUrl : await embedded(),
    center: options.center,
    zoom: options.zoom,
    interactive,
    attributionControl: false,
    // A photo journal's map is seen from above, north up: no rotation or tilt to get lost in.
    dragRotate: false,
    pitchWithRotate: false,
    touchPitch: false,
    renderWorldCopies: true,
    locale: {
      "Map.Title": texts.label,
      "NavigationControl.ZoomIn": texts.zoomIn,
      "NavigationControl.ZoomOut": texts.zoomOut,
      "AttributionControl.ToggleAttribution": texts.toggleAttribution,
      "Popup.Close": texts.closePopup,
      "Marker.Title": texts.marker,
    },
  });
  map.touchZoomRotate.disableRotation();
  map.keyboard.disableRotation();
  const end = options.rtl ? "top-left" : "top-right";
  if (options.controls ?? interactive) map.addControl(new NavigationControl({ showCompass: false }), end);
  // Bottom right in both directions: MapLibre lays out its compact attribution for that corner only.
  map.addControl(new AttributionControl({ compact: true }), "bottom-right");

  let isEmbedded = !operatorStyle;
  let styleLoaded = !operatorStyle;
  const switchToEmbedded = async () => {
    if (isEmbedded) return;
    isEmbedded = true;
    try {
      map.setStyle(await embedded());
    } catch (error) {
      console.warn("The embedded world map could not be drawn.", error);
    }
  };
  const cleanups: Array<() => void> = [];
  if (!isEmbedded) {
    map.once("style.load", () => {
      styleLoaded = true;
    });
    // Only a style that never arrived is replaced; a tile missing later leaves the operator's map as it is.
    map.on("error", (event) => {
      if (!styleLoaded) {
        console.warn("The map style could not be loaded; drawing the embedded world map.", event.error);
        void switchToEmbedded();
      }
    });
    const timer = setTimeout(() => {
      if (!styleLoaded) void switchToEmbedded();
    }, styleTimeoutMs);
    cleanups.push(() => clearTimeout(timer));
    // Offline, the operator's tiles cannot come: the embedded map can always be drawn.
    const offline = () => void switchToEmbedded();
    window.addEventListener("offline", offline);
    cleanups.push(() => window.removeEventListener("offline", offline));
  }
  cleanups.push(
    watchTheme(() => {
      if (!isEmbedded || !map.isStyleLoaded()) return;
      for (const [layer, property, value] of embeddedPaint(mapColours(container))) map.setPaintProperty(layer, property, value);
    }),
  );

  return {
    map,
    remove() {
      for (const cleanup of cleanups) cleanup();
      map.remove();
    },
  };
}
