import type { Place } from "@memory-box/contract";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";

import MapPicker from "@/features/places/map/map-picker";
import PlaceMiniMap from "@/features/places/map/place-mini-map";
import { stubMemoryApi } from "@/testing/stub-memory-api";

/*
 * MapLibre replaced at its boundary, the engine module: a map that remembers how it was drawn and
 * where its pins are, and lets a test click it or press keys on its canvas.
 */
const fake = vi.hoisted(() => {
  type Handler = (event: { lngLat: { lat: number; lng: number; wrap: () => { lat: number; lng: number } } }) => void;
  const lngLat = (lng: number, lat: number) => ({
    lat,
    lng,
    wrap: () => ({ lat, lng: ((((lng + 180) % 360) + 360) % 360) - 180 }),
  });
  const state = {
    drawn: [] as Array<{ center: unknown; zoom: number; interactive?: boolean; label: string }>,
    pins: [] as Array<{ at: unknown; shown: boolean }>,
    click: undefined as undefined | ((lng: number, lat: number) => void),
    canvas: undefined as undefined | HTMLCanvasElement,
    center: lngLat(-9.38, 38.8),
    lngLat,
  };
  class Marker {
    readonly record: { at: unknown; shown: boolean } = { at: undefined, shown: false };
    constructor() {
      state.pins.push(this.record);
    }
    setLngLat(at: unknown) {
      this.record.at = at;
      return this;
    }
    getLngLat() {
      return this.record.at;
    }
    addTo() {
      this.record.shown = true;
      return this;
    }
    remove() {
      this.record.shown = false;
      return this;
    }
  }
  const drawMap = async (options: {
    container: HTMLElement;
    center: unknown;
    zoom: number;
    interactive?: boolean;
    texts: { label: string };
  }) => {
    state.drawn.push({
      center: options.center,
      zoom: options.zoom,
      interactive: options.interactive,
      label: options.texts.label,
    });
    const canvas = document.createElement("canvas");
    canvas.tabIndex = 0;
    options.container.append(canvas);
    state.canvas = canvas;
    const handlers = new Set<Handler>();
    state.click = (lng, lat) => handlers.forEach((handler) => handler({ lngLat: lngLat(lng, lat) }));
    const map = {
      on: (_type: string, handler: Handler) => void handlers.add(handler),
      off: (_type: string, handler: Handler) => void handlers.delete(handler),
      getCanvas: () => canvas,
      getCenter: () => state.center,
      jumpTo: () => undefined,
    };
    return { map, remove: () => canvas.remove() };
  };
  return { state, Marker, drawMap };
});

vi.mock("@/features/places/map/map-engine", () => ({ Marker: fake.Marker, drawMap: fake.drawMap }));

function withQueries(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

describe("the map picker", () => {
  afterEach(() => {
    fake.state.drawn = [];
    fake.state.pins = [];
    fake.state.canvas = undefined;
    fake.state.click = undefined;
    vi.restoreAllMocks();
  });

  it("sets the pin where the map is clicked and says which point, wrapped within ±180°", async () => {
    stubMemoryApi({ "GET /api/v1/places/settings": () => ({ style_url: null }) });
    const onPick = vi.fn();
    render(withQueries(<MapPicker initial={null} onPick={onPick} />));

    await waitFor(() => expect(fake.state.drawn).toHaveLength(1));
    expect(fake.state.drawn[0]).toMatchObject({ zoom: 1, label: "Map for choosing the place" });
    await waitFor(() => expect(fake.state.click).toBeDefined());
    fake.state.click!(370.1234567, 45.5);

    await waitFor(() => expect(onPick).toHaveBeenCalledWith({ latitude: 45.5, longitude: 10.12346 }));
    expect(fake.state.pins.filter((pin) => pin.shown)).toHaveLength(1);
    expect(screen.getByRole("status")).toHaveTextContent("Place set at 45.5, 10.1235");
  });

  it("picks the middle of the map with Enter, and tells keyboards how in the map's description", async () => {
    stubMemoryApi({ "GET /api/v1/places/settings": () => ({ style_url: null }) });
    const onPick = vi.fn();
    render(withQueries(<MapPicker initial={{ latitude: 41.15, longitude: -8.61 }} onPick={onPick} />));

    await waitFor(() => expect(fake.state.canvas?.getAttribute("aria-describedby")).toBeTruthy());
    expect(fake.state.drawn[0]).toMatchObject({ center: [-8.61, 41.15], zoom: 10 });
    const hint = document.getElementById(fake.state.canvas!.getAttribute("aria-describedby")!);
    expect(hint).toHaveTextContent(/arrow keys move the map/);
    // The given point is pinned from the start.
    expect(fake.state.pins[0]).toEqual({ at: [-8.61, 41.15], shown: true });

    fake.state.canvas!.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));

    expect(onPick).toHaveBeenCalledWith({ latitude: 38.8, longitude: -9.38 });
  });
});

describe("the place's mini-map", () => {
  afterEach(() => {
    fake.state.drawn = [];
    fake.state.pins = [];
    fake.state.canvas = undefined;
    fake.state.click = undefined;
    vi.restoreAllMocks();
  });

  it("is a still map of the place's region, centred on the place with its pin, named after it", async () => {
    stubMemoryApi({ "GET /api/v1/places/settings": () => ({ style_url: null }) });
    const place: Place = { name: "Sintra", latitude: 38.8, longitude: -9.38, country_code: "PT" };
    render(withQueries(<PlaceMiniMap place={place} />));

    await waitFor(() => expect(fake.state.pins).toEqual([{ at: [-9.38, 38.8], shown: true }]));
    expect(fake.state.drawn[0]).toEqual({ center: [-9.38, 38.8], zoom: 5, interactive: false, label: "Map of Sintra" });
  });

  it("draws the embedded map when the basemap setting cannot be read", async () => {
    stubMemoryApi({});
    vi.spyOn(console, "warn").mockImplementation(() => {});
    render(withQueries(<PlaceMiniMap place={{ name: "Sintra", latitude: 38.8, longitude: -9.38, country_code: "PT" }} />));

    await waitFor(() => expect(fake.state.drawn).toHaveLength(1));
  });
});
