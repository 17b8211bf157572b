import fs from "node:fs";
import { createRequire } from "node:module";
import { validateStyleMin } from "@maplibre/maplibre-gl-style-spec";
import type { GeometryCollection, Topology } from "topojson-specification";
import { describe, expect, it } from "vitest";

import { atlasShapes } from "@/features/places/map/atlas";
import { embeddedPaint, embeddedStyle, type MapColours } from "@/features/places/map/embedded-style";

const require = createRequire(import.meta.url);
// The coarsest of the atlas's files, for speed; the app's is the 1:50 million one, of the same shape.
const topology = JSON.parse(fs.readFileSync(require.resolve("world-atlas/countries-110m.json"), "utf8")) as Topology<{
  countries: GeometryCollection;
}>;
const colours: MapColours = { water: "rgb(1, 2, 3)", land: "rgb(4, 5, 6)", coast: "rgb(7, 8, 9)", border: "rgb(10, 11, 12)" };

describe("the embedded world map's style", () => {
  const shapes = atlasShapes(topology);
  const style = embeddedStyle(shapes, colours, "Made with Natural Earth");

  it("is a valid MapLibre style", () => {
    expect(validateStyleMin(style)).toEqual([]);
  });

  it("fetches nothing: no URL, tiles, sprite or glyphs, and no text to draw", () => {
    expect(JSON.stringify(style)).not.toMatch(/https?:|\/\/|mapbox:|pmtiles:/);
    expect(style).not.toHaveProperty("sprite");
    expect(style).not.toHaveProperty("glyphs");
    for (const source of Object.values(style.sources)) expect(source.type).toBe("geojson");
    expect(style.layers.map((layer) => layer.type)).not.toContain("symbol");
  });

  it("draws the countries as land with their borders, over water, in the theme's colours", () => {
    expect(shapes.land.features.length).toBeGreaterThan(150);
    expect(shapes.borders.features[0]?.geometry.type).toBe("MultiLineString");
    expect(style.layers.map((layer) => layer.id)).toEqual(["water", "land", "coast", "borders"]);
    expect(JSON.stringify(style.layers)).toContain(colours.water);
    expect(JSON.stringify(style.layers)).toContain(colours.land);
  });

  it("draws no edge across the whole world where a country crosses the antimeridian", () => {
    const rings = shapes.land.features.flatMap(({ geometry }) =>
      geometry.type === "Polygon" ? geometry.coordinates : geometry.type === "MultiPolygon" ? geometry.coordinates.flat() : [],
    );
    const russia = shapes.land.features.find((country) => country.properties?.name === "Russia")!;
    const jumps = rings.filter((ring) =>
      ring.some((point, index) => index > 0 && Math.abs(point[0]! - ring[index - 1]![0]!) > 180),
    );

    // Antarctica's rings, around the pole, are the only ones left as they are.
    expect(jumps.length).toBeLessThanOrEqual(2);
    expect(JSON.stringify(russia.geometry)).toMatch(/\[18\d\.\d+,/);
    for (const ring of rings) expect(ring[0]).toEqual(ring.at(-1));
  });

  it("credits Natural Earth in the map's attribution", () => {
    expect(Object.values(style.sources).map((source) => ("attribution" in source ? source.attribution : undefined))).toContain(
      "Made with Natural Earth",
    );
  });

  it("recolours every layer it draws when the theme changes", () => {
    const dark: MapColours = {
      water: "rgb(20, 20, 20)",
      land: "rgb(30, 30, 30)",
      coast: "rgb(40, 40, 40)",
      border: "rgb(50, 50, 50)",
    };
    expect(embeddedPaint(dark).map(([layer]) => layer)).toEqual(style.layers.map((layer) => layer.id));
  });
});
