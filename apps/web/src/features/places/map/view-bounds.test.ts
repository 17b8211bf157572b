import { PlaceMapQuery } from "@memory-box/contract";
import { describe, expect, it } from "vitest";

import { placeMapPath } from "@/features/places/api/map";
import { boundsParam, mapViewOf } from "@/features/places/map/view-bounds";

describe("a map's view as the places query", () => {
  it("writes west,south,east,north with four decimals at most", () => {
    expect(boundsParam({ west: -9.5012345, south: 38.7, east: -9.1, north: 38.80000001 })).toBe("-9.5012,38.7,-9.1,38.8");
  });

  it("brings a wrapped world's longitudes back within ±180, crossing the antimeridian as west > east", () => {
    expect(boundsParam({ west: 170, south: -20, east: 190, north: 10 })).toBe("170,-20,-170,10");
    expect(boundsParam({ west: -190, south: -20, east: -170, north: 10 })).toBe("170,-20,-170,10");
  });

  it("asks for the whole world when the view shows all of it, and keeps latitudes within ±90", () => {
    expect(boundsParam({ west: -400, south: -95, east: 400, north: 95 })).toBe("-180,-90,180,90");
  });

  it("asks per whole zoom level, within the contract's range", () => {
    expect(mapViewOf({ west: 0, south: 0, east: 10, north: 10 }, 5.8).zoom).toBe(5);
    expect(mapViewOf({ west: 0, south: 0, east: 10, north: 10 }, -0.5).zoom).toBe(0);
  });

  it("makes a query the contract accepts", () => {
    const view = mapViewOf({ west: -200.123456, south: -85.0511, east: 200, north: 85.0511 }, 0.7);
    const query = Object.fromEntries(new URL(placeMapPath(view), "http://localhost").searchParams);

    expect(PlaceMapQuery.safeParse(query).success).toBe(true);
    expect(query).toEqual({ bounds: "-180,-85.0511,180,85.0511", zoom: "0" });
  });
});
