import type { MemoryPage } from "@memory-box/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { FakeAuthClient, fakeSession } from "@/testing/fake-auth-client";
import { fakeMemory } from "@/testing/memory-fixtures";
import { currentPath, renderApp } from "@/testing/render-app";
import { stubMemoryApi } from "@/testing/stub-memory-api";

const signedIn = () => new FakeAuthClient({ session: fakeSession() });

/** The query strings of the requests made to `path`, in order. */
function queriesTo(api: ReturnType<typeof stubMemoryApi>, path: string): string[] {
  return api.fetchMock.mock.calls.flatMap(([input]) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url, "http://localhost");
    return url.pathname === path ? [url.search] : [];
  });
}

describe("places on the memory screens", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("shows a memory's place and a link to the memories near it", async () => {
    const memory = fakeMemory({
      title: "Palácio da Pena",
      place: { name: "Sintra", latitude: 38.8, longitude: -9.38, country_code: "PT" },
    });
    stubMemoryApi({ "GET /api/v1/memories/:id": () => memory });
    renderApp(`/memory/${memory.id}`, { client: signedIn() });

    expect(await screen.findByRole("heading", { level: 1, name: "Palácio da Pena" })).toBeInTheDocument();
    expect(screen.getByText("Sintra, Portugal")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Memories near here" })).toHaveAttribute(
      "href",
      "/?near=38.80000%2C-9.38000&name=Sintra",
    );
  });

  it("takes home's place filters from the address to the list and timeline, and a chip clears its filter", async () => {
    const page: MemoryPage = { items: [fakeMemory({ title: "Palácio da Pena" })], next_cursor: null, matched: 1, total: 9 };
    const api = stubMemoryApi({
      "GET /api/v1/memories": () => page,
      "GET /api/v1/tags": () => ({ tags: [] }),
      "GET /api/v1/places/countries": () => ({
        countries: [
          { country_code: "PT", count: 7 },
          { country_code: "JP", count: 2 },
        ],
      }),
    });
    const { user, router } = renderApp("/?near=38.80000,-9.38000&name=Sintra&country=PT&within=bad", {
      client: signedIn(),
    });

    const chip = await screen.findByRole("button", { name: "Clear filter: Near Sintra" });
    expect(screen.getByRole("button", { name: "Clear filter: In Portugal" })).toBeInTheDocument();
    // A malformed filter in the address is left out rather than refused by the API.
    expect(queriesTo(api, "/api/v1/memories")).toEqual(["?country=PT&near=38.80000%2C-9.38000"]);
    expect(queriesTo(api, "/api/v1/memories/timeline")).toEqual(["?country=PT&near=38.80000%2C-9.38000"]);
    expect(screen.getByText("1 of 9 memories")).toBeInTheDocument();
    const countries = await screen.findByRole("combobox", { name: "Filter by country" });
    expect(countries).toHaveValue("PT");
    expect(
      within(countries)
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual(["All countries", "Portugal (7)", "Japan (2)"]);

    await user.click(chip);
    expect(currentPath(router)).toBe("/?country=PT&within=bad");
    await waitFor(() => expect(queriesTo(api, "/api/v1/memories")).toContain("?country=PT"));
    expect(screen.queryByRole("button", { name: /Near Sintra/ })).not.toBeInTheDocument();

    await user.selectOptions(countries, "JP");
    expect(currentPath(router)).toBe("/?country=JP&within=bad");
    await waitFor(() => expect(queriesTo(api, "/api/v1/memories")).toContain("?country=JP"));
    expect(screen.getByRole("button", { name: "Clear filter: In Japan" })).toBeInTheDocument();
  });
});
