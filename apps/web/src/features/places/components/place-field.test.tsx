import "fake-indexeddb/auto";

import { useState } from "react";
import type { Memory, MemoryInput } from "@memory-box/contract";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import axe from "axe-core";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";

import { placeParts } from "@/app/place-parts";
import { Button } from "@/components/ui/button";
import { memoryKeys } from "@/features/memories/api/memory-keys";
import { MemoryFormDialog } from "@/features/memories/components/memory-form-dialog";
import { MemoryPlacePartsContext } from "@/features/memories/components/place-parts";
import { countriesQueryKey } from "@/features/places/api/countries";
import { setAuthClient } from "@/lib/auth-client";
import { FakeAuthClient, fakeSession } from "@/testing/fake-auth-client";
import { fakeMemory, fakePhoto } from "@/testing/memory-fixtures";
import { stubMemoryApi, type ApiHandler } from "@/testing/stub-memory-api";

// The interactive map is the map's own work: here, a button that picks a point near Sintra.
vi.mock("@/features/places/map/map-picker", () => ({
  default: ({ onPick }: { onPick: (point: { latitude: number; longitude: number }) => void }) => (
    <button type="button" onClick={() => onPick({ latitude: 38.79, longitude: -9.39 })}>
      Tap the map
    </button>
  ),
}));

const sintra = { name: "Sintra", country_code: "PT", latitude: 38.80097, longitude: -9.37826, population: 30000 };
const lisbon = { name: "Lisbon", country_code: "PT", latitude: 38.71667, longitude: -9.13333, population: 517802 };

/** The memory form in its dialog, with the places feature's parts as the member screens have them. */
async function openForm(memory: Memory | undefined, routes: Record<string, ApiHandler>) {
  const api = stubMemoryApi({
    "PUT /api/v1/memories/:id": ({ body }) => ({ ...memory, ...(body as object), version: (memory?.version ?? 0) + 1 }),
    "POST /api/v1/memories": ({ body }) => fakeMemory({ title: (body as MemoryInput).title }),
    ...routes,
  });
  setAuthClient(new FakeAuthClient({ session: fakeSession() }));
  onTestFinished(() => setAuthClient(undefined));
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  function Harness() {
    const [open, setOpen] = useState(false);
    return (
      <>
        <Button onClick={() => setOpen(true)}>Open</Button>
        <MemoryFormDialog open={open} memory={memory} onOpenChange={setOpen} />
      </>
    );
  }
  const user = userEvent.setup({ delay: null });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryPlacePartsContext value={placeParts}>
        <Harness />
      </MemoryPlacePartsContext>
    </QueryClientProvider>,
  );
  await user.click(screen.getByRole("button", { name: "Open" }));
  const dialog = await screen.findByRole("dialog");
  // The field's code comes with the form, on its own.
  await within(dialog).findByLabelText("Place");
  return { api, user, dialog };
}

/** The body of the one create or update sent. */
function sentInput(api: ReturnType<typeof stubMemoryApi>, key: string): MemoryInput {
  const calls = api.calls(key);
  expect(calls).toHaveLength(1);
  return calls[0]!.body as MemoryInput;
}

describe("the memory form's place", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("offers a photo's location only while the memory has no place; accepting it sends that place", async () => {
    const located = fakePhoto({ location: { latitude: 38.8, longitude: -9.38 } });
    const memory = fakeMemory({ title: "Palácio da Pena", photos: [fakePhoto(), located] });
    const { api, user, dialog } = await openForm(memory, {
      "GET /api/v1/places/reverse": () => ({ place: sintra }),
    });

    const offer = await within(dialog).findByText("Taken in Sintra, Portugal — use this place?");
    // Nothing is set until the member chooses.
    expect(within(dialog).queryByRole("button", { name: "Remove place" })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Use this place" }));

    expect(offer).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText("Place")).toHaveValue("Sintra");
    expect(within(dialog).getByLabelText("Place")).toHaveFocus();
    expect(within(dialog).getByLabelText("Place")).toHaveAccessibleDescription(/Portugal · 38\.80° N, 9\.38° W/);
    await user.click(within(dialog).getByRole("button", { name: "Update Memory" }));

    await waitFor(() => expect(api.calls("PUT /api/v1/memories/:id")).toHaveLength(1));
    expect(sentInput(api, "PUT /api/v1/memories/:id").place).toEqual({ name: "Sintra", latitude: 38.8, longitude: -9.38 });
  });

  it("offers the coordinates when no known place is near, in the reader's number format", async () => {
    const memory = fakeMemory({ photos: [fakePhoto({ location: { latitude: -33.5, longitude: 151.25 } })] });
    const { dialog } = await openForm(memory, { "GET /api/v1/places/reverse": () => ({ place: null }) });

    expect(await within(dialog).findByText("Taken at 33.50° S, 151.25° E — use this place?")).toBeInTheDocument();
  });

  it("keeps a place an edit leaves alone: not offered over, not sent", async () => {
    const place = { name: "Sintra", latitude: 38.8, longitude: -9.38, country_code: "PT" };
    const memory = fakeMemory({ place, photos: [fakePhoto({ location: { latitude: 1, longitude: 2 } })] });
    const reverse = vi.fn(() => ({ place: lisbon }));
    const untouched = await openForm(memory, { "GET /api/v1/places/reverse": reverse });

    // A place is set: the photo's location is not offered.
    expect(within(untouched.dialog).getByLabelText("Place")).toHaveValue("Sintra");
    expect(within(untouched.dialog).queryByText(/^Taken/)).not.toBeInTheDocument();
    await untouched.user.type(within(untouched.dialog).getByLabelText("Title"), "!");
    await untouched.user.click(within(untouched.dialog).getByRole("button", { name: "Update Memory" }));
    await waitFor(() => expect(untouched.api.calls("PUT /api/v1/memories/:id")).toHaveLength(1));
    expect(sentInput(untouched.api, "PUT /api/v1/memories/:id")).not.toHaveProperty("place");
    expect(reverse).not.toHaveBeenCalled();
  });

  it("removing the place sends place: null, and focus goes to the search", async () => {
    const memory = fakeMemory({ place: { name: "Sintra", latitude: 38.8, longitude: -9.38, country_code: "PT" } });
    const { api, user, dialog } = await openForm(memory, {});

    await user.click(within(dialog).getByRole("button", { name: "Remove place" }));
    expect(within(dialog).getByRole("combobox", { name: "Place" })).toHaveFocus();
    await user.click(within(dialog).getByRole("button", { name: "Update Memory" }));

    await waitFor(() => expect(api.calls("PUT /api/v1/memories/:id")).toHaveLength(1));
    expect(sentInput(api, "PUT /api/v1/memories/:id").place).toBeNull();
  });

  it("searches place names: says when none is found, and chooses a result from the keyboard", async () => {
    const { api, user, dialog } = await openForm(undefined, {});
    // The routes' stub sees no query string: the search is answered by what it asks for.
    api.fetchMock.mockImplementation(async (input: RequestInfo | URL) => {
      const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url, "http://localhost");
      if (url.pathname === "/api/v1/places/search")
        return Response.json({ places: url.searchParams.get("q") === "zz" ? [] : [lisbon, sintra] });
      if (url.pathname === "/api/v1/memories") return Response.json(fakeMemory({ title: "Trip" }), { status: 201 });
      return new Response(null, { status: 404 });
    });
    await user.type(within(dialog).getByLabelText("Title"), "Trip");
    const combobox = within(dialog).getByRole("combobox", { name: "Place" });

    await user.type(combobox, "zz");
    expect(await within(dialog).findByText("No place found")).toBeInTheDocument();
    expect(combobox).toHaveAttribute("aria-expanded", "false");

    await user.clear(combobox);
    await user.type(combobox, "Si");
    const listbox = await within(dialog).findByRole("listbox", { name: "Places found" });
    expect(
      within(listbox)
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual(["Lisbon, Portugal", "Sintra, Portugal"]);
    expect(combobox).toHaveAttribute("aria-expanded", "true");
    // Escape closes the list, not the form; typing opens it again.
    await user.keyboard("{Escape}");
    expect(combobox).toHaveAttribute("aria-expanded", "false");
    expect(dialog).toBeInTheDocument();
    await user.keyboard("{ArrowDown}{ArrowDown}");
    const active = within(listbox).getByRole("option", { name: "Sintra, Portugal" });
    expect(active).toHaveAttribute("aria-selected", "true");
    expect(combobox).toHaveAttribute("aria-activedescendant", active.id);
    const results = await axe.run(dialog, { preload: false, rules: { "color-contrast": { enabled: false } } });
    expect(results.violations).toEqual([]);
    // Enter chooses the place; it never submits the form.
    await user.keyboard("{Enter}");

    expect(within(dialog).getByLabelText("Place")).toHaveValue("Sintra");
    await user.click(within(dialog).getByRole("button", { name: "Save Memory" }));
    const created = () => api.fetchMock.mock.calls.filter(([, init]) => init?.method === "POST");
    await waitFor(() => expect(created()).toHaveLength(1));
    expect((JSON.parse(created()[0]![1]!.body as string) as MemoryInput).place).toEqual({
      name: "Sintra",
      latitude: sintra.latitude,
      longitude: sintra.longitude,
    });
  });

  it("picks a point on a map: its nearest place names it, the member may rename it, and it is sent", async () => {
    const memory = fakeMemory();
    const { api, user, dialog } = await openForm(memory, { "GET /api/v1/places/reverse": () => ({ place: sintra }) });

    await user.click(within(dialog).getByRole("button", { name: "Pick on a map" }));
    const picker = await screen.findByRole("dialog", { name: "Pick on a map" });
    const name = within(picker).getByLabelText("Place name");
    expect(within(picker).getByRole("button", { name: "Use this place" })).toBeDisabled();
    await user.click(await within(picker).findByRole("button", { name: "Tap the map" }));

    await waitFor(() => expect(name).toHaveValue("Sintra"));
    expect(name).toHaveAccessibleDescription("Portugal · 38.79° N, 9.39° W");
    await user.clear(name);
    await user.type(name, "Quinta da Regaleira");
    await user.click(within(picker).getByRole("button", { name: "Use this place" }));

    await waitFor(() => expect(picker).not.toBeInTheDocument());
    expect(within(dialog).getByLabelText("Place")).toHaveValue("Quinta da Regaleira");
    await waitFor(() => expect(within(dialog).getByLabelText("Place")).toHaveFocus());
    await user.click(within(dialog).getByRole("button", { name: "Update Memory" }));
    await waitFor(() => expect(api.calls("PUT /api/v1/memories/:id")).toHaveLength(1));
    expect(sentInput(api, "PUT /api/v1/memories/:id").place).toEqual({
      name: "Quinta da Regaleira",
      latitude: 38.79,
      longitude: -9.39,
    });
  });

  it("keeps the country counts under the memories' keys, so a save refreshes them", () => {
    expect(countriesQueryKey).toEqual(memoryKeys.countries());
  });
});
