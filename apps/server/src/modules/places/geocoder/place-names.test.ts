import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { foldForSearch } from "../../../lib/search-text";
import { foldPlaceName } from "./place-fold";
import { GeoNamesPlaceNames, loadPlaceData } from "./place-names";

const places = new GeoNamesPlaceNames();
const names = (found: { name: string; country_code: string }[]) => found.map((place) => `${place.name}, ${place.country_code}`);

describe("place names from the GeoNames cities data", () => {
  it("loads once, however many ask at the same time", async () => {
    const [first, second] = [loadPlaceData(), loadPlaceData()];
    expect(first).toBe(second);
    const { places: data } = await first;
    expect(data.size).toBeGreaterThan(130_000);
    await expect(Promise.all([places.reverse({ latitude: 0, longitude: 0 }), places.search("a", 1)])).resolves.toBeDefined();
    expect(loadPlaceData()).toBe(first);
  });

  it("finds names by their start, case and accents ignored, most populous first", async () => {
    expect(names(await places.search("sao paulo", 3))[0]).toBe("São Paulo, BR");
    expect(names(await places.search("SÃO PAU", 1))).toEqual(["São Paulo, BR"]);
    expect(names(await places.search("lodz", 1))).toEqual(["Łódź, PL"]);
    expect(names(await places.search("reykjavik", 1))).toEqual(["Reykjavík, IS"]);
    // GeoNames' main names only (ADR 0058): another language's name is not one of them.
    expect(names(await places.search("munich", 1))).toEqual(["Munich, DE"]);
    expect(await places.search("lisboa, pt", 1)).toEqual([]);
    expect(names(await places.search("saint etienne", 1))).toEqual(["Saint-Étienne, FR"]);
    const lisbons = await places.search("lisbon", 5);
    expect(names(lisbons)[0]).toBe("Lisbon, PT");
    const populations = lisbons.map((place) => place.population);
    expect(populations).toEqual([...populations].sort((a, b) => b - a));
    expect(await places.search("s", 20)).toHaveLength(20);
    expect(await places.search("zzzzqx", 8)).toEqual([]);
    expect(await places.search("  ,  ", 8)).toEqual([]);
  });

  it("narrows by the country after a comma: its code, or its name in any of the app's languages", async () => {
    for (const query of [
      "Sintra, Portugal",
      "Sintra, PT",
      "sintra,pt",
      "Sintra, Portugalia",
      "Sintra, ポルトガル",
      "Sintra, البرتغال",
      "Sintra, Port",
    ]) {
      expect(names(await places.search(query, 8)), query).toEqual(["Sintra, PT"]);
    }
    expect(names(await places.search("Paris, États-Unis", 20)).every((name) => name.endsWith(", US"))).toBe(true);
    expect(names(await places.search("Paris, US", 20))).not.toContain("Paris, FR");
    expect(await places.search("Sintra, Narnia", 8)).toEqual([]);
    // A comma with nothing after it narrows nothing.
    expect(names(await places.search("Sintra,", 1))).toEqual(["Sintra, PT"]);
  });

  it("names the nearest place within 50 km, and nothing at sea or far from any town", async () => {
    const sintra = await places.reverse({ latitude: 38.8, longitude: -9.38 });
    expect(sintra).toMatchObject({ name: "Sintra", country_code: "PT" });
    expect(Math.abs(sintra!.latitude - 38.8)).toBeLessThan(0.05);
    expect(Math.abs(sintra!.longitude + 9.38)).toBeLessThan(0.05);
    expect(await places.reverse({ latitude: 30, longitude: -40 })).toBeNull();
    expect(await places.reverse({ latitude: 90, longitude: 180 })).toBeNull();
    expect(await places.reverse({ latitude: -90, longitude: -180 })).toBeNull();
    // Across the antimeridian: Egvekinot is at 179.12° west.
    expect(await places.reverse({ latitude: 66.32, longitude: 179.9 })).toMatchObject({ name: "Egvekinot", country_code: "RU" });
  });

  it("gives a point its country from the nearest place within 200 km, at sea too", async () => {
    expect(await places.countryAt({ latitude: 38.8, longitude: -9.38 })).toBe("PT");
    // 100 km off Portugal's coast; and Fiji's Levuka, 80 km away across the antimeridian.
    expect(await places.countryAt({ latitude: 38.8, longitude: -10.6 })).toBe("PT");
    expect(await places.countryAt({ latitude: -18.1, longitude: -179.9 })).toBe("FJ");
    expect(await places.countryAt({ latitude: 30, longitude: -40 })).toBeNull();
  });

  it("answers any point on the earth without throwing", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.double({ min: -90, max: 90, noNaN: true }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        async (latitude, longitude) => {
          const place = await places.reverse({ latitude, longitude });
          if (place !== null) expect(place.country_code).toMatch(/^[A-Z]{2}$/);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("foldPlaceName", () => {
  it("ignores case, accents and punctuation, and spells letters without a decomposition plainly", () => {
    expect(foldPlaceName("  Saint-Étienne  ")).toBe("saint etienne");
    expect(foldPlaceName("Łódź")).toBe("lodz");
    expect(foldPlaceName("Ærøskøbing")).toBe("aeroskobing");
    expect(foldPlaceName("Straßburg")).toBe("strassburg");
    expect(foldPlaceName("St. John's")).toBe("st john s");
  });

  it("folds plain ASCII as the general path does", () => {
    const general = (text: string) =>
      foldForSearch(text)
        .replace(/[\p{P}\p{S}\s]+/gu, " ")
        .trim();
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)) }), (text) => {
        expect(foldPlaceName(text)).toBe(general(text));
      }),
    );
  });
});
