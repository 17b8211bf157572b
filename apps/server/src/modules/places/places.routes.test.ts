import type { Memory, MemoryPage, MemoryTimeline, PlaceCountryList, PlaceMap } from "@memory-box/contract";
import { PlaceMap as PlaceMapSchema } from "@memory-box/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";

/** Rough boxes standing in for the place names' country lookup. */
async function fakeCountryAt(point: { latitude: number; longitude: number }): Promise<string | null> {
  const { latitude, longitude } = point;
  if (latitude > 36.8 && latitude < 42.2 && longitude > -9.6 && longitude < -6.1) return "PT";
  if (latitude > 30 && latitude < 46 && longitude > 129 && longitude < 146) return "JP";
  if (latitude > -21 && latitude < -15 && (longitude > 176 || longitude < -178)) return "FJ";
  return null;
}

const sintra = { name: "Sintra", latitude: 38.8029, longitude: -9.3817 };
const lisbon = { name: "Lisbon", latitude: 38.7223, longitude: -9.1393 };
const kyoto = { name: "Kyōto", latitude: 35.0116, longitude: 135.7681 };
/** Fiji's islands lie on both sides of the antimeridian. */
const suva = { name: "Suva", latitude: -18.1248, longitude: 178.4501 };
const lau = { name: "Lau Islands", latitude: -17.8, longitude: -178.8 };

describe.each(testEngines())("places on %s", (engine) => {
  let testApp: TestApp;
  let ann: TestMember;

  beforeAll(async () => {
    testApp = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" }, countryAt: fakeCountryAt });
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
  });
  afterAll(() => testApp.close());

  const request = (member: TestMember | null, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown) =>
    testApp.app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
      headers: member ? member.headers : {},
    });
  const create = async (body: Record<string, unknown>) => {
    const response = await request(ann, "POST", "/api/v1/memories", body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Memory>();
  };
  const list = async (query = "") => {
    const response = await request(ann, "GET", `/api/v1/memories${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<MemoryPage>();
  };
  const titles = async (query: string) => (await list(query)).items.map((memory) => memory.title);

  describe("a memory's place", () => {
    it("is saved with the country found from its point, and shown in the list and the memory", async () => {
      const memory = await create({ title: "Palace in the fog", place: sintra });
      expect(memory.place).toEqual({ ...sintra, country_code: "PT" });
      const shown = await request(ann, "GET", `/api/v1/memories/${memory.id}`);
      expect(shown.json<Memory>().place).toEqual({ ...sintra, country_code: "PT" });
      expect((await list()).items.find((item) => item.id === memory.id)?.place).toEqual({ ...sintra, country_code: "PT" });
      // A place at sea has no country.
      expect((await create({ title: "Crossing", place: { name: "Atlantic", latitude: 40, longitude: -30 } })).place).toEqual({
        name: "Atlantic",
        latitude: 40,
        longitude: -30,
        country_code: null,
      });
      expect((await create({ title: "Nowhere in particular" })).place).toBeNull();
    });

    it("stays when an edit leaves it out, goes when it is null, and each change is a new version", async () => {
      const memory = await create({ title: "Tram 28", place: lisbon });
      const kept = await request(ann, "PUT", `/api/v1/memories/${memory.id}`, { title: "Tram 28, again" });
      expect(kept.statusCode, kept.body).toBe(200);
      expect(kept.json<Memory>()).toMatchObject({ version: 2, place: { ...lisbon, country_code: "PT" } });
      const moved = await request(ann, "PUT", `/api/v1/memories/${memory.id}`, { title: "Tram 28, again", place: sintra });
      expect(moved.json<Memory>()).toMatchObject({ version: 3, place: { ...sintra, country_code: "PT" } });
      const removed = await request(ann, "PUT", `/api/v1/memories/${memory.id}`, { title: "Tram 28, again", place: null });
      expect(removed.json<Memory>()).toMatchObject({ version: 4, place: null });
      expect((await list("?place=sintra")).items.some((item) => item.id === memory.id)).toBe(false);
    });

    it.each([
      [{ ...sintra, latitude: 90.5 }, "body.place.latitude"],
      [{ ...sintra, latitude: -91 }, "body.place.latitude"],
      [{ ...sintra, longitude: 180.01 }, "body.place.longitude"],
      [{ ...sintra, longitude: -200 }, "body.place.longitude"],
      [{ ...sintra, latitude: "38.8" }, "body.place.latitude"],
      [{ ...sintra, latitude: "NaN" }, "body.place.latitude"],
      [{ ...sintra, longitude: null }, "body.place.longitude"],
      [{ ...sintra, name: "" }, "body.place.name"],
      [{ ...sintra, name: "   " }, "body.place.name"],
      [{ ...sintra, name: "x".repeat(201) }, "body.place.name"],
      [{ ...sintra, name: 7 }, "body.place.name"],
      [{ ...sintra, country_code: "US" }, "body.place"],
      [{ name: "Sintra" }, "body.place.latitude"],
      ["Sintra", "body.place"],
    ])("refuses the place %j with 400 naming %s, saving nothing", async (place, path) => {
      const memory = await create({ title: "Before", place: lisbon });
      const before = (await list()).total;
      for (const [method, url] of [
        ["POST", "/api/v1/memories"],
        ["PUT", `/api/v1/memories/${memory.id}`],
      ] as const) {
        const response = await request(ann, method, url, { title: "After", place });
        expect(response.statusCode, response.body).toBe(400);
        const error = response.json<{ code: string; details: { path: string }[] }>();
        expect(error.code).toBe("validation_failed");
        expect(error.details.map((detail) => detail.path)).toContain(path);
      }
      expect((await list()).total).toBe(before);
      const unchanged = (await request(ann, "GET", `/api/v1/memories/${memory.id}`)).json<Memory>();
      expect(unchanged).toMatchObject({ title: "Before", version: 1, place: { ...lisbon, country_code: "PT" } });
    });

    it("never takes a country from the client", async () => {
      const response = await request(ann, "POST", "/api/v1/memories", {
        title: "Claimed",
        place: { ...sintra, country_code: "JP" },
      });
      expect(response.statusCode).toBe(400);
    });
  });

  describe("search and filters", () => {
    beforeAll(async () => {
      await create({ title: "Temple gardens", place: kyoto });
      await create({ title: "Harbour market", place: suva });
      await create({ title: "Reef at dawn", place: lau });
      await create({ title: "Moorish castle", place: { ...sintra, name: "SINTRA " } });
    });

    it("finds a memory by its place's name and by its country's name in the app's languages", async () => {
      expect(await titles("?q=kyoto")).toEqual(["Temple gardens"]);
      expect(await titles("?q=japan")).toEqual(["Temple gardens"]);
      expect(await titles("?q=JAPON")).toEqual(["Temple gardens"]);
      expect(await titles("?q=%E6%97%A5%E6%9C%AC")).toEqual(["Temple gardens"]); // 日本
      expect(await titles("?q=fidschi")).toEqual(["Reef at dawn", "Harbour market"]);
      expect(await titles("?q=castle%20portugal")).toEqual(["Moorish castle"]);
    });

    it("filters by country, by place name (case and accents ignored) and counts what matches", async () => {
      const japan = await list("?country=JP");
      expect(japan.items.map((memory) => memory.title)).toEqual(["Temple gardens"]);
      expect(japan.matched).toBe(1);
      const sintras = await list("?place=sintra");
      expect(sintras.items.map((memory) => memory.title)).toEqual(["Moorish castle", "Palace in the fog"]);
      expect(sintras.matched).toBe(2);
      expect(await titles("?place=KYOTO")).toEqual(["Temple gardens"]);
      expect(await titles("?country=PT&q=castle")).toEqual(["Moorish castle"]);
      expect((await list("?country=DE")).matched).toBe(0);
    });

    it("filters by bounds, across the antimeridian too", async () => {
      expect(await titles("?within=-10,38,-9,39&q=castle")).toEqual(["Moorish castle"]);
      expect(await titles("?within=170,-25,-170,-10")).toEqual(["Reef at dawn", "Harbour market"]);
      expect(await titles("?within=178,-25,179,-10")).toEqual(["Harbour market"]);
      expect((await list("?within=-180,-90,180,90")).matched).toBe((await list("?within=-180,-90,180,90")).items.length);
    });

    it("finds memories near a point, within 25 km, across the antimeridian", async () => {
      // Sintra is ~22 km from Lisbon's centre: near; Kyoto is not.
      const near = await list(`?near=${lisbon.latitude},${lisbon.longitude}`);
      expect(near.items.every((memory) => memory.place?.country_code === "PT")).toBe(true);
      expect(near.items.map((memory) => memory.title)).toContain("Moorish castle");
      // Suva to the Lau Islands is ~300 km: neither near the other; both near themselves.
      expect(await titles(`?near=${suva.latitude},${suva.longitude}`)).toEqual(["Harbour market"]);
      expect(await titles("?near=-17.8,179.99")).toEqual([]);
      expect(await titles("?near=-17.8,-178.7")).toEqual(["Reef at dawn"]);
      // 30 km east of Sintra along its parallel: outside the circle though inside its bounding box corner.
      expect(await titles("?near=38.99,-9.15&q=castle")).toEqual([]);
    });

    it("counts the timeline's months under the same filters", async () => {
      const response = await request(ann, "GET", "/api/v1/memories/timeline?country=JP");
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<MemoryTimeline>()).toEqual({ months: [], undated: 1 });
    });

    it.each([
      "country=pt",
      "country=PRT",
      "country=",
      "within=1,2,3",
      "within=-181,0,10,10",
      "within=0,-91,10,10",
      "within=0,10,10,5",
      "within=a,b,c,d",
      "within=1e2,0,3,4",
      "near=91,0",
      "near=0,181",
      "near=abc",
      `place=${"x".repeat(401)}`,
      "nearby=1,1",
    ])("answers ?%s with 400 validation_failed", async (query) => {
      for (const path of ["/api/v1/memories", "/api/v1/memories/timeline"]) {
        const response = await request(ann, "GET", `${path}?${query}`);
        expect(response.statusCode, `${path}?${query}`).toBe(400);
        expect(response.json()).toMatchObject({ code: "validation_failed" });
      }
    });
  });

  describe("the map", () => {
    it("answers members only", async () => {
      for (const url of [
        "/api/v1/places/map?bounds=-180,-85,180,85&zoom=0",
        "/api/v1/places/countries",
        "/api/v1/places/settings",
      ]) {
        const response = await request(null, "GET", url);
        expect(response.statusCode, url).toBe(401);
        expect(response.json()).toMatchObject({ code: "not_authenticated" });
      }
    });

    it.each([
      "bounds=-180,-85,180&zoom=0",
      "bounds=-180,-85,180,85",
      "zoom=3",
      "bounds=-180,-85,180,85&zoom=25",
      "bounds=-180,-85,180,85&zoom=-1",
      "bounds=-180,-85,180,85&zoom=abc",
      "bounds=-190,-85,180,85&zoom=2",
      "bounds=-180,85,180,-85&zoom=2",
      "bounds=-180,-95,180,85&zoom=2",
      "bounds=-180,-85,180,85&zoom=2&extra=1",
    ])("answers ?%s with 400 validation_failed", async (query) => {
      const response = await request(ann, "GET", `/api/v1/places/map?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({ code: "validation_failed" });
    });

    it("groups the whole world into a few marks, and a city's into its places", async () => {
      const world = await request(ann, "GET", "/api/v1/places/map?bounds=-180,-85,180,85&zoom=0");
      expect(world.statusCode, world.body).toBe(200);
      const map = PlaceMapSchema.parse(world.json<PlaceMap>());
      const placed = (await list("?within=-180,-90,180,90&limit=100")).matched;
      expect(map.total).toBe(placed);
      expect(map.clusters.reduce((sum, cluster) => sum + cluster.count, 0)).toBe(placed);
      // At zoom 0 a cell is a sixteenth of the world across: Portugal's memories, Japan's and
      // Fiji's (the Lau Islands lie in another cell, across the antimeridian) and the Atlantic's.
      const holds = (bounds: string, point: { latitude: number; longitude: number }) => {
        const [west, south, east, north] = bounds.split(",").map(Number) as [number, number, number, number];
        return west <= point.longitude && point.longitude <= east && south <= point.latitude && point.latitude <= north;
      };
      const portugal = map.clusters.filter((cluster) => holds(cluster.bounds, sintra) && holds(cluster.bounds, lisbon));
      expect(portugal).toHaveLength(1);
      expect(portugal[0]!.count).toBeGreaterThan((await list("?country=PT&limit=100")).matched - 1);
      expect(map.clusters.length).toBeLessThanOrEqual(5);
      // A cluster's bounds list exactly its memories.
      for (const cluster of map.clusters) {
        const listed = await list(`?within=${cluster.bounds}&limit=100`);
        expect(listed.matched, cluster.bounds).toBe(cluster.count);
        expect(listed.items[0]!.id).toBe(cluster.memory.id);
      }
      // Around Sintra at a city's zoom: each memory its own mark.
      const city = (await request(ann, "GET", "/api/v1/places/map?bounds=-9.6,38.6,-9,39&zoom=13")).json<PlaceMap>();
      expect(city.clusters.length).toBeGreaterThanOrEqual(2);
      expect(city.clusters.every((cluster) => cluster.count >= 1 && cluster.memory.thumbnail_url === null)).toBe(true);
      // A view across the antimeridian.
      const pacific = (await request(ann, "GET", "/api/v1/places/map?bounds=170,-25,-170,-10&zoom=4")).json<PlaceMap>();
      expect(pacific.clusters.reduce((sum, cluster) => sum + cluster.count, 0)).toBe(2);
    });

    it("shows a change at once, at a zoom whose cells it keeps and at one it reads afresh", async () => {
      const count = async (query: string) =>
        (await request(ann, "GET", `/api/v1/places/map?${query}`))
          .json<PlaceMap>()
          .clusters.reduce((sum, cluster) => sum + cluster.count, 0);
      const world = "bounds=-180,-85,180,85&zoom=1";
      const city = "bounds=135.5,34.8,136,35.2&zoom=12";
      const [worldBefore, cityBefore] = [await count(world), await count(city)];
      const added = await create({ title: "Moss garden", place: { ...kyoto, latitude: 35.01 } });
      expect([await count(world), await count(city)]).toEqual([worldBefore + 1, cityBefore + 1]);
      await request(ann, "DELETE", `/api/v1/memories/${added.id}`);
      expect([await count(world), await count(city)]).toEqual([worldBefore, cityBefore]);
    });

    it("keeps an answer small for bounds far larger than the zoom's screen", async () => {
      const response = await request(ann, "GET", "/api/v1/places/map?bounds=-180,-85,180,85&zoom=20");
      expect(response.statusCode).toBe(200);
      expect(response.json<PlaceMap>().clusters.length).toBeLessThanOrEqual(1024);
    });

    it("lists the countries, most memories first", async () => {
      const response = await request(ann, "GET", "/api/v1/places/countries");
      const { countries } = response.json<PlaceCountryList>();
      expect(countries[0]!.country_code).toBe("PT");
      expect(countries.map((country) => country.country_code)).toEqual(expect.arrayContaining(["PT", "JP", "FJ"]));
    });

    it("names no basemap without MAP_STYLE_URL", async () => {
      expect((await request(ann, "GET", "/api/v1/places/settings")).json()).toEqual({ style_url: null });
    });
  });
});

describe("the map's basemap setting", () => {
  it("answers the operator's style", async () => {
    const testApp = await createTestApp("sqlite", {
      env: { AUTH_RATE_LIMITS: "false", MAP_STYLE_URL: "https://tiles.example.org/styles/basic.json" },
    });
    try {
      const ann = await createMember(testApp, "ann@memory-box.test", "Ann");
      const response = await testApp.app.inject({ method: "GET", url: "/api/v1/places/settings", headers: ann.headers });
      expect(response.json()).toEqual({ style_url: "https://tiles.example.org/styles/basic.json" });
    } finally {
      await testApp.close();
    }
  });
});

describe("the page's Content-Security-Policy and the map", () => {
  const policyOf = async (env: Record<string, string>) => {
    const testApp = await createTestApp("sqlite", { env: { AUTH_RATE_LIMITS: "false", ...env } });
    try {
      const header = (await testApp.app.inject({ method: "GET", url: "/api/health" })).headers["content-security-policy"];
      return new Map(
        String(header)
          .split(";")
          .map((directive) => directive.trim().split(/\s+/))
          .map(([name, ...values]) => [name!, values]),
      );
    } finally {
      await testApp.close();
    }
  };

  it("names only the app itself without MAP_STYLE_URL, and the style's and content origins with it", async () => {
    const embedded = await policyOf({});
    expect(embedded.get("connect-src")).toEqual(["'self'"]);
    expect(embedded.get("img-src")).toEqual(["'self'", "data:", "blob:"]);
    const styled = await policyOf({
      MAP_STYLE_URL: "https://maps.example.org/styles/basic.json",
      MAP_CONTENT_ORIGINS: "https://tiles.example.net",
    });
    expect(styled.get("connect-src")).toEqual(["'self'", "https://maps.example.org", "https://tiles.example.net"]);
    expect(styled.get("img-src")).toEqual(["'self'", "data:", "blob:", "https://maps.example.org", "https://tiles.example.net"]);
    // Nothing else opens up: scripts, frames, workers stay the app's own.
    for (const directive of ["script-src", "default-src", "worker-src", "frame-ancestors", "style-src"]) {
      expect(styled.get(directive), directive).toEqual(embedded.get(directive));
    }
  });
});

describe("the OpenAPI document", () => {
  it("describes the places routes and the list's place filters", async () => {
    const testApp = await createTestApp("sqlite");
    try {
      const document = (await testApp.app.inject({ method: "GET", url: "/api/openapi.json" })).json<{
        paths: Record<string, { get?: { parameters?: { name: string }[] } }>;
      }>();
      for (const path of ["/api/v1/places/map", "/api/v1/places/countries", "/api/v1/places/settings"])
        expect(document.paths, path).toHaveProperty([path]);
      const parameters = document.paths["/api/v1/memories"]!.get!.parameters!.map((parameter) => parameter.name);
      expect(parameters).toEqual(expect.arrayContaining(["country", "place", "within", "near"]));
    } finally {
      await testApp.close();
    }
  });
});
