import type { FeatureCollection, Geometry } from "geojson";
import { feature, mesh } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
// Served from the app's own origin as a file of its own (hashed name), fetched when a map is first
// drawn and kept by the service worker from then on (ADR 0057), never in a script.
import atlasUrl from "world-atlas/countries-50m.json?url";

import type { AtlasShapes } from "@/features/places/map/embedded-style";

type Countries = Topology<{ countries: GeometryCollection }>;

let shapes: Promise<AtlasShapes> | undefined;

/**
 * Natural Earth's countries at 1:50 million (`world-atlas`), as GeoJSON: every country's shape (the
 * land) and the borders between two of them. Fetched and converted once per page.
 */
export function loadAtlas(): Promise<AtlasShapes> {
  shapes ??= (async () => {
    const response = await fetch(atlasUrl);
    if (!response.ok) throw new Error(`The world map's data could not be loaded (${response.status}).`);
    return atlasShapes((await response.json()) as Countries);
  })().catch((error: unknown) => {
    // The next map drawn tries again (the network may be back).
    shapes = undefined;
    throw error;
  });
  return shapes;
}

/** The atlas's TopoJSON as the two GeoJSON layers the embedded style draws. */
export function atlasShapes(topology: Countries): AtlasShapes {
  const countries = topology.objects.countries;
  const land = feature(topology, countries) as FeatureCollection<Geometry>;
  const borders: FeatureCollection<Geometry> = {
    type: "FeatureCollection",
    features: [{ type: "Feature", properties: {}, geometry: mesh(topology, countries, (a, b) => a !== b) }],
  };
  return { land, borders };
}
