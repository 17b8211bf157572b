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
  for (const country of land.features) unwrapGeometry(country.geometry);
  const borders = mesh(topology, countries, (a, b) => a !== b);
  unwrapGeometry(borders);
  return { land, borders: { type: "FeatureCollection", features: [{ type: "Feature", properties: {}, geometry: borders }] } };
}

type Position = number[];

/**
 * Natural Earth's shapes that cross the antimeridian (Russia's east, Fiji) step from 180° to -180°
 * between two points; drawn as they are, that step is an edge across the whole world. Such a line
 * is made continuous instead, running past ±180° (MapLibre draws those longitudes on the next copy
 * of the world). A ring around the pole (Antarctica's) would no longer close: it stays as it is.
 */
function unwrapLine(line: Position[]): void {
  const longitudes = line.map((point) => point[0]!);
  let shift = 0;
  for (let index = 1; index < longitudes.length; index += 1) {
    const step = longitudes[index]! + shift - longitudes[index - 1]!;
    if (step > 180) shift -= 360;
    else if (step < -180) shift += 360;
    longitudes[index] = longitudes[index]! + shift;
  }
  const closedBefore = line.length > 1 && line[0]![0] === line.at(-1)![0];
  if (closedBefore && longitudes[0] !== longitudes.at(-1)) return;
  line.forEach((point, index) => {
    point[0] = longitudes[index]!;
  });
}

function unwrapGeometry(geometry: Geometry): void {
  switch (geometry.type) {
    case "LineString":
      unwrapLine(geometry.coordinates);
      break;
    case "MultiLineString":
    case "Polygon":
      geometry.coordinates.forEach(unwrapLine);
      break;
    case "MultiPolygon":
      for (const polygon of geometry.coordinates) polygon.forEach(unwrapLine);
      break;
    case "Point":
    case "MultiPoint":
    case "GeometryCollection":
      break;
  }
}
