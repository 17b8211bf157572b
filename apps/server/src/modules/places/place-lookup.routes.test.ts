import type { PlaceSearchResult, ReversePlaceResult } from "@memory-box/contract";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";

describe.each(testEngines())("place lookup API on %s", (engine) => {
  let testApp: TestApp;
  let ann: TestMember;

  beforeAll(async () => {
    testApp = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
  });
  afterAll(() => testApp.close());

  const get = (url: string, member: TestMember | null = ann) =>
    testApp.app.inject({ method: "GET", url, headers: member ? member.headers : {} });

  it("is for signed-in members only", async () => {
    for (const url of ["/api/v1/places/search?q=sintra", "/api/v1/places/reverse?latitude=38.8&longitude=-9.38"]) {
      const response = await get(url, null);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: "not_authenticated" });
      const forged = await testApp.app.inject({ method: "GET", url, headers: { authorization: "Bearer not-a-token" } });
      expect(forged.statusCode).toBe(401);
    }
  });

  it("finds places by name, most populous first, narrowed by a country after a comma", async () => {
    const response = await get("/api/v1/places/search?q=sao%20paulo");
    expect(response.statusCode, response.body).toBe(200);
    const { places } = response.json<PlaceSearchResult>();
    expect(places[0]).toMatchObject({ name: "São Paulo", country_code: "BR" });
    expect(places.length).toBeLessThanOrEqual(8);
    expect(places[0]!.population).toBeGreaterThan(1_000_000);

    const narrowed = (
      await get(`/api/v1/places/search?q=${encodeURIComponent("Sintra, Portugal")}&limit=3`)
    ).json<PlaceSearchResult>();
    expect(narrowed.places.map((place) => `${place.name} ${place.country_code}`)).toEqual(["Sintra PT"]);
    expect((await get("/api/v1/places/search?q=s&limit=20")).json<PlaceSearchResult>().places).toHaveLength(20);
  });

  it("names the nearest place to a point, and nothing mid-ocean", async () => {
    const sintra = await get("/api/v1/places/reverse?latitude=38.80&longitude=-9.38");
    expect(sintra.statusCode, sintra.body).toBe(200);
    expect(sintra.json<ReversePlaceResult>().place).toMatchObject({ name: "Sintra", country_code: "PT" });
    const atlantic = await get("/api/v1/places/reverse?latitude=30&longitude=-40");
    expect(atlantic.statusCode).toBe(200);
    expect(atlantic.json<ReversePlaceResult>()).toEqual({ place: null });
  });

  it.each([
    ["/api/v1/places/search", "querystring.q"],
    ["/api/v1/places/search?q=", "querystring.q"],
    ["/api/v1/places/search?q=%20%20%20", "querystring.q"],
    [`/api/v1/places/search?q=${"a".repeat(101)}`, "querystring.q"],
    [`/api/v1/places/search?q=${"a".repeat(5000)}`, "querystring.q"],
    ["/api/v1/places/search?q=x&limit=0", "querystring.limit"],
    ["/api/v1/places/search?q=x&limit=21", "querystring.limit"],
    ["/api/v1/places/search?q=x&limit=two", "querystring.limit"],
    ["/api/v1/places/search?q=x&near=1", "querystring"],
    ["/api/v1/places/reverse?longitude=-9.38", "querystring.latitude"],
    ["/api/v1/places/reverse?latitude=38.8", "querystring.longitude"],
    ["/api/v1/places/reverse?latitude=&longitude=-9.38", "querystring.latitude"],
    ["/api/v1/places/reverse?latitude=%20&longitude=-9.38", "querystring.latitude"],
    ["/api/v1/places/reverse?latitude=90.1&longitude=0", "querystring.latitude"],
    ["/api/v1/places/reverse?latitude=-91&longitude=0", "querystring.latitude"],
    ["/api/v1/places/reverse?latitude=0&longitude=180.5", "querystring.longitude"],
    ["/api/v1/places/reverse?latitude=0&longitude=-181", "querystring.longitude"],
    ["/api/v1/places/reverse?latitude=NaN&longitude=0", "querystring.latitude"],
    ["/api/v1/places/reverse?latitude=Infinity&longitude=0", "querystring.latitude"],
    ["/api/v1/places/reverse?latitude=north&longitude=0", "querystring.latitude"],
    ["/api/v1/places/reverse?latitude=1&latitude=2&longitude=0", "querystring.latitude"],
    ["/api/v1/places/reverse?latitude=1&longitude=2&zoom=3", "querystring"],
  ])("refuses %s with 400 naming %s", async (url, path) => {
    const response = await get(url);
    expect(response.statusCode, response.body).toBe(400);
    const error = response.json<{ code: string; details: { path: string }[] }>();
    expect(error.code).toBe("validation_failed");
    expect(error.details.map((detail) => detail.path).join(" ")).toContain(path);
  });

  it("answers any query with 200 or 400, never a failure", async () => {
    const text = fc.oneof(fc.string({ maxLength: 120 }), fc.string({ unit: "grapheme", maxLength: 40 }), fc.double().map(String));
    await fc.assert(
      fc.asyncProperty(text, text, text, async (a, b, c) => {
        for (const url of [
          `/api/v1/places/search?q=${encodeURIComponent(a)}&limit=${encodeURIComponent(b)}`,
          `/api/v1/places/search?q=${encodeURIComponent(`${a}, ${c}`)}`,
          `/api/v1/places/reverse?latitude=${encodeURIComponent(b)}&longitude=${encodeURIComponent(c)}`,
        ]) {
          const response = await get(url);
          expect([200, 400], `${url}: ${response.body}`).toContain(response.statusCode);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("is in the OpenAPI document", async () => {
    const { paths } = (await testApp.app.inject({ method: "GET", url: "/api/openapi.json" })).json<{
      paths: Record<string, { get?: { parameters?: { name: string }[] } }>;
    }>();
    expect(paths["/api/v1/places/search"]?.get?.parameters?.map((parameter) => parameter.name)).toEqual(["q", "limit"]);
    expect(paths["/api/v1/places/reverse"]?.get?.parameters?.map((parameter) => parameter.name)).toEqual([
      "latitude",
      "longitude",
    ]);
  });
});
