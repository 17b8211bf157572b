import type { FeatureCollection, Geometry } from "geojson";
import type { StyleSpecification } from "maplibre-gl";

/**
 * The embedded world map (issue #32): the basemap drawn when the operator names no style, or when
 * theirs cannot be reached (offline). Countries from Natural Earth (shipped in `world-atlas`) as
 * a land fill with a coastline and borders, over a water background; no tiles, sprites or glyphs,
 * so nothing is fetched from anywhere. Plain data, built without MapLibre (tested in jsdom).
 */

/** The map's colours, read from the app's design tokens in the theme shown (`theme-colours.ts`). */
export interface MapColours {
  water: string;
  land: string;
  coast: string;
  border: string;
}

/** The atlas as GeoJSON: the countries' shapes, and the lines between them (`atlas.ts`). */
export interface AtlasShapes {
  land: FeatureCollection<Geometry>;
  borders: FeatureCollection<Geometry>;
}

/**
 * The atlas holds no more detail than 1:50 million shows at about this zoom; closer, its tiles are
 * enlarged rather than cut again (less work for the map's worker, nothing lost to the eye).
 */
const sourceMaxZoom = 6;

export const embeddedSourceIds = { land: "natural-earth-land", borders: "natural-earth-borders" } as const;
export const embeddedLayerIds = { water: "water", land: "land", coast: "coast", borders: "borders" } as const;

/** A style that draws `shapes` in `colours`; `attribution` credits Natural Earth in the map's attribution control. */
export function embeddedStyle(shapes: AtlasShapes, colours: MapColours, attribution: string): StyleSpecification {
  return {
    version: 8,
    name: "Memory Box world",
    sources: {
      [embeddedSourceIds.land]: { type: "geojson", data: shapes.land, attribution, tolerance: 0.2, maxzoom: sourceMaxZoom },
      [embeddedSourceIds.borders]: { type: "geojson", data: shapes.borders, tolerance: 0.2, maxzoom: sourceMaxZoom },
    },
    layers: [
      { id: embeddedLayerIds.water, type: "background", paint: { "background-color": colours.water } },
      { id: embeddedLayerIds.land, type: "fill", source: embeddedSourceIds.land, paint: { "fill-color": colours.land } },
      {
        id: embeddedLayerIds.coast,
        type: "line",
        source: embeddedSourceIds.land,
        paint: { "line-color": colours.coast, "line-width": ["interpolate", ["linear"], ["zoom"], 1, 0.5, 8, 1.5] },
      },
      {
        id: embeddedLayerIds.borders,
        type: "line",
        source: embeddedSourceIds.borders,
        paint: {
          "line-color": colours.border,
          "line-width": ["interpolate", ["linear"], ["zoom"], 1, 0.5, 8, 1.25],
          "line-dasharray": [3, 2],
        },
      },
    ],
  };
}

/** The paint changes that recolour a drawn embedded map when the theme changes, without reloading its data. */
export function embeddedPaint(
  colours: MapColours,
): Array<[layer: string, property: "background-color" | "fill-color" | "line-color", value: string]> {
  return [
    [embeddedLayerIds.water, "background-color", colours.water],
    [embeddedLayerIds.land, "fill-color", colours.land],
    [embeddedLayerIds.coast, "line-color", colours.coast],
    [embeddedLayerIds.borders, "line-color", colours.border],
  ];
}
