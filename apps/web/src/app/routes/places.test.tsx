import type { PlaceCluster, PlaceMap } from "@memory-box/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { paths } from "@/config/paths";
import { refreshAfterMemoryChange } from "@/features/memories/api/memory-cache";
import { FakeAuthClient, fakeSession } from "@/testing/fake-auth-client";
import { fakeId, fakeMemory } from "@/testing/memory-fixtures";
import { renderApp } from "@/testing/render-app";
import { apiError, deferred, stubMemoryApi } from "@/testing/stub-memory-api";

/*
 * jsdom draws no WebGL: MapLibre is replaced at its boundary, the engine module, by a map that
 * keeps its view and its markers' elements in the page, and fires the events a test asks for.
 */
const fake = vi.hoisted(() => {
  type Handler = () => void;
  const state = {
    box: { west: -180, south: -60, east: 180, north: 75 },
    zoom: 1.4,
    map: undefined as undefined | { fire: (type: string) => void },
    styleUrls: [] as Array<string | null>,
  };
  class Marker {
    readonly element: HTMLElement;
    constructor(options: { element?: HTMLElement } = {}) {
      this.element = options.element ?? document.createElement("div");
    }
    setLngLat() {
      return this;
    }
    addTo(map: { container: HTMLElement }) {
      map.container.append(this.element);
      return this;
    }
    remove() {
      this.element.remove();
      return this;
    }
  }
  const drawMap = async ({ container, styleUrl }: { container: HTMLElement; styleUrl: string | null }) => {
    state.styleUrls.push(styleUrl);
    const handlers = new Map<string, Set<Handler>>();
    const canvas = document.createElement("canvas");
    container.append(canvas);
    const map = {
      container,
      on: (type: string, handler: Handler) => void handlers.set(type, (handlers.get(type) ?? new Set()).add(handler)),
      off: (type: string, handler: Handler) => void handlers.get(type)?.delete(handler),
      fire: (type: string) => handlers.get(type)?.forEach((handler) => handler()),
      getBounds: () => ({
        getWest: () => state.box.west,
        getSouth: () => state.box.south,
        getEast: () => state.box.east,
        getNorth: () => state.box.north,
      }),
      getZoom: () => state.zoom,
      getCanvas: () => canvas,
    };
    state.map = map;
    return { map, remove: () => canvas.remove() };
  };
  return { state, Marker, drawMap };
});

vi.mock("@/features/places/map/map-engine", () => ({ Marker: fake.Marker, drawMap: fake.drawMap }));

const signedIn = () => new FakeAuthClient({ session: fakeSession() });

function cluster(overrides: Partial<PlaceCluster> & { title?: string } = {}): PlaceCluster {
  const { title = "Sintra", ...rest } = overrides;
  return {
    latitude: 38.8,
    longitude: -9.38,
    count: 1,
    bounds: "-9.38,38.8,-9.38,38.8",
    memory: { id: fakeId(), title, memory_date: "2024-06-01", place_name: "Sintra", thumbnail_url: null },
    ...rest,
  };
}

/** The `GET /api/v1/places/map` requests made, as their query's values. */
function mapQueries(fetchMock: ReturnType<typeof stubMemoryApi>["fetchMock"]) {
  return fetchMock.mock.calls
    .map(
      ([input]) => new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url, "http://localhost"),
    )
    .filter((url) => url.pathname === "/api/v1/places/map")
    .map((url) => Object.fromEntries(url.searchParams));
}

function requestedUrls(fetchMock: ReturnType<typeof stubMemoryApi>["fetchMock"]) {
  return fetchMock.mock.calls.map(
    ([input]) => new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url, "http://localhost"),
  );
}

describe("/places", () => {
  afterEach(() => {
    fake.state.box = { west: -180, south: -60, east: 180, north: 75 };
    fake.state.zoom = 1.4;
    fake.state.styleUrls = [];
    vi.restoreAllMocks();
  });

  it("asks for the marks of the map's view and draws the embedded map when the operator names no style", async () => {
    const single = cluster({ title: "Sintra picnic" });
    const api = stubMemoryApi({
      "GET /api/v1/places/settings": () => ({ style_url: null }),
      "GET /api/v1/places/map": (): PlaceMap => ({ clusters: [single], total: 1 }),
    });
    renderApp(paths.places, { client: signedIn() });

    const mark = await screen.findByRole("link", { name: "Sintra picnic, Sintra" });
    expect(mark).toHaveAttribute("href", paths.memory(single.memory.id));
    expect(mapQueries(api.fetchMock)).toEqual([{ bounds: "-180,-60,180,75", zoom: "1" }]);
    expect(fake.state.styleUrls).toEqual([null]);
    expect(screen.getByRole("heading", { level: 1, name: "Places" })).toBeInTheDocument();
  });

  it("draws the operator's style when one is set", async () => {
    stubMemoryApi({
      "GET /api/v1/places/settings": () => ({ style_url: "https://tiles.example/style.json" }),
      "GET /api/v1/places/map": (): PlaceMap => ({ clusters: [], total: 0 }),
    });
    renderApp(paths.places, { client: signedIn() });

    await waitFor(() => expect(fake.state.styleUrls).toEqual(["https://tiles.example/style.json"]));
  });

  it("asks again once the moved map has rested, keeping the marks it has meanwhile", async () => {
    const answers = [deferred<PlaceMap>(), deferred<PlaceMap>()];
    const api = stubMemoryApi({
      "GET /api/v1/places/settings": () => ({ style_url: null }),
      "GET /api/v1/places/map": () => answers[Math.min(mapQueries(api.fetchMock).length, 2) - 1]!.promise,
    });
    answers[0]!.resolve({ clusters: [cluster()], total: 1 });
    renderApp(paths.places, { client: signedIn() });
    await screen.findByRole("link", { name: "Sintra, Sintra" });

    fake.state.box = { west: -10.2, south: 38.5, east: -8.9, north: 39.1 };
    fake.state.zoom = 9.6;
    fake.state.map!.fire("moveend");
    fake.state.map!.fire("moveend");

    await waitFor(() => expect(mapQueries(api.fetchMock)).toHaveLength(2));
    expect(mapQueries(api.fetchMock)[1]).toEqual({ bounds: "-10.2,38.5,-8.9,39.1", zoom: "9" });
    // The new view's answer has not come: the marks already shown stay.
    expect(screen.getByRole("link", { name: "Sintra, Sintra" })).toBeInTheDocument();
    answers[1]!.resolve({ clusters: [cluster()], total: 1 });
    expect(await screen.findByRole("link", { name: "Sintra, Sintra" })).toBeInTheDocument();
  });

  it("lists a cluster's memories from the list's within filter, each a link to its page", async () => {
    const group = cluster({ count: 2, bounds: "-9.5,38.7,-9.1,38.9" });
    const beach = fakeMemory({
      title: "Beach day",
      memory_date: "2024-06-02",
      place: { name: "Cascais", latitude: 38.7, longitude: -9.42, country_code: "PT" },
    });
    const palace = fakeMemory({
      title: "The palace",
      memory_date: null,
      place: { name: "Sintra", latitude: 38.8, longitude: -9.38, country_code: "PT" },
    });
    const api = stubMemoryApi({
      "GET /api/v1/places/settings": () => ({ style_url: null }),
      "GET /api/v1/places/map": (): PlaceMap => ({ clusters: [group], total: 2 }),
      "GET /api/v1/memories": () => ({ items: [beach, palace], next_cursor: null, matched: 2, total: 5 }),
    });
    const { user } = renderApp(paths.places, { client: signedIn() });

    await user.click(await screen.findByRole("button", { name: "2 memories around Sintra: show the list" }));

    const panel = await screen.findByRole("complementary", { name: "2 memories around Sintra" });
    expect(await within(panel).findByRole("link", { name: /Beach day/ })).toHaveAttribute("href", paths.memory(beach.id));
    expect(within(panel).getByRole("link", { name: /The palace/ })).toHaveAttribute("href", paths.memory(palace.id));
    const lists = requestedUrls(api.fetchMock).filter((url) => url.pathname === "/api/v1/memories");
    expect(lists.map((url) => url.searchParams.get("within"))).toEqual(["-9.5,38.7,-9.1,38.9"]);
    expect(within(panel).getByText("Place names from GeoNames (CC BY 4.0)")).toBeInTheDocument();

    await user.click(within(panel).getByRole("button", { name: "Close" }));
    expect(screen.queryByRole("complementary")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "2 memories around Sintra: show the list" })).toHaveFocus();
  });

  it("refreshes the marks when a memory changes (this member's save or the live stream's news)", async () => {
    let clusters = [cluster()];
    const api = stubMemoryApi({
      "GET /api/v1/places/settings": () => ({ style_url: null }),
      "GET /api/v1/places/map": (): PlaceMap => ({ clusters, total: clusters.length }),
    });
    const { queryClient } = renderApp(paths.places, { client: signedIn() });
    await screen.findByRole("link", { name: "Sintra, Sintra" });

    clusters = [cluster({ title: "Porto", latitude: 41.15, longitude: -8.61 })];
    await refreshAfterMemoryChange(queryClient, fakeId());

    expect(await screen.findByRole("link", { name: "Porto, Sintra" })).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Sintra, Sintra" })).not.toBeInTheDocument();
    expect(mapQueries(api.fetchMock)).toHaveLength(2);
  });

  it("says how to give a memory a place when none has one", async () => {
    stubMemoryApi({
      "GET /api/v1/places/settings": () => ({ style_url: null }),
      "GET /api/v1/places/map": (): PlaceMap => ({ clusters: [], total: 0 }),
    });
    renderApp(paths.places, { client: signedIn() });

    expect(await screen.findByRole("heading", { name: "No memories have a place yet" })).toBeInTheDocument();
    expect(screen.getByText(/search for a town, use a photo's location, or pick a point on the map/)).toBeInTheDocument();
  });

  it("says when the marks could not be loaded, and tries again on request", async () => {
    let fail = true;
    stubMemoryApi({
      "GET /api/v1/places/settings": () => ({ style_url: null }),
      "GET /api/v1/places/map": () => (fail ? apiError(500, "internal_error") : { clusters: [cluster()], total: 1 }),
    });
    const { user } = renderApp(paths.places, { client: signedIn() });

    expect(await screen.findByText("Places could not be loaded.")).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("link", { name: "Sintra, Sintra" })).toBeInTheDocument();
  });
});
