import type { Memory, MemoryPage, TagList } from "@memory-box/contract";
import { screen, waitFor, within } from "@testing-library/react";
import axe from "axe-core";
import { describe, expect, it } from "vitest";

import { FakeAuthClient, fakeSession } from "@/testing/fake-auth-client";
import { fakeMemory, fakePhoto } from "@/testing/memory-fixtures";
import { currentPath, renderApp } from "@/testing/render-app";
import { apiError, stubMemoryApi, type ApiHandler } from "@/testing/stub-memory-api";

const emptyPage: MemoryPage = { items: [], next_cursor: null, matched: 0, total: 0 };
const noTags: TagList = { tags: [] };

const photos = [
  fakePhoto({ width: 1600, height: 1200 }),
  fakePhoto({ width: 900, height: 1600 }),
  fakePhoto({ width: 4000, height: 1000 }),
];
const memory = fakeMemory({ title: "Picnic by the lake", photos });

function stubDetail(shown: Memory, routes: Record<string, ApiHandler> = {}) {
  return stubMemoryApi({
    "GET /api/v1/memories/:id": ({ params }) =>
      params.id === shown.id ? shown : apiError(404, "memory_not_found", "Memory not found."),
    "GET /api/v1/memories": () => emptyPage,
    "GET /api/v1/tags": () => noTags,
    ...routes,
  });
}

function signedIn() {
  return new FakeAuthClient({ session: fakeSession() });
}

describe("the memory page's gallery and lightbox", () => {
  it("lays the cover first and large, then the others in rows of one height", async () => {
    stubDetail(memory);
    const { container } = renderApp(`/memory/${memory.id}`, { client: signedIn() });
    await screen.findByRole("img", { name: "Memory photo 1" });

    const cover = container.querySelector<HTMLElement>("[data-cover]")!;
    expect(within(cover).getByRole("img")).toHaveAccessibleName("Memory photo 1");
    const others = [2, 3].map(
      (n) => screen.getByRole("img", { name: `Memory photo ${n}` }).closest<HTMLElement>("a")!.parentElement!,
    );
    expect(parseFloat(cover.style.height)).toBeGreaterThan(parseFloat(others[0]!.style.height));
    expect(others[0]!.style.height).toBe(others[1]!.style.height);
  });

  it("opens a photo over the page with its id in the address; arrows step, Back closes and gives focus back", async () => {
    stubDetail(memory);
    const { user, router, container } = renderApp(`/memory/${memory.id}`, { client: signedIn() });
    const tile = (await screen.findByRole("img", { name: "Memory photo 2" })).closest("a")!;

    await user.click(tile);
    const dialog = await screen.findByRole("dialog", { name: "Picnic by the lake: photos" });
    expect(currentPath(router)).toBe(`/memory/${memory.id}?photo=${photos[1]!.id}`);
    expect(within(dialog).getByText("2 / 3")).toBeInTheDocument();
    // "Download full size" saves under the memory's title and the photo's number.
    expect(within(dialog).getByRole("link", { name: "Download full size" })).toHaveAttribute(
      "download",
      "Picnic by the lake - 2.jpg",
    );
    expect(dialog.contains(document.activeElement)).toBe(true);

    await user.keyboard("{ArrowRight}");
    // Each photo has a frame of its own.
    expect(await within(await screen.findByRole("dialog")).findByText("3 / 3")).toBeInTheDocument();
    // Stepping replaces the entry: one Back still closes the lightbox.
    expect(currentPath(router)).toBe(`/memory/${memory.id}?photo=${photos[2]!.id}`);

    const results = await axe.run(container, { preload: false, rules: { "color-contrast": { enabled: false } } });
    expect(results.violations.map((violation) => violation.id)).toEqual([]);

    await router.navigate(-1);
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(currentPath(router)).toBe(`/memory/${memory.id}`);
    // The dialog gives focus back once it has unmounted, a task after it left the page.
    await waitFor(() => expect(document.activeElement).toBe(tile));
  });

  it("keeps Tab inside the lightbox and closes it with Escape", async () => {
    stubDetail(memory);
    const { user, router } = renderApp(`/memory/${memory.id}`, { client: signedIn() });
    await user.click((await screen.findByRole("img", { name: "Memory photo 1" })).closest("a")!);
    const dialog = await screen.findByRole("dialog");

    for (let i = 0; i < 8; i++) {
      await user.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
    await user.tab({ shift: true });
    expect(dialog.contains(document.activeElement)).toBe(true);

    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(currentPath(router)).toBe(`/memory/${memory.id}`);
  });

  it("opens from a link to an open photo, and closing it stays on the memory", async () => {
    stubDetail(memory);
    const { user, router } = renderApp(`/memory/${memory.id}?photo=${photos[2]!.id}`, { client: signedIn() });

    const dialog = await screen.findByRole("dialog", { name: "Picnic by the lake: photos" });
    expect(within(dialog).getByText("3 / 3")).toBeInTheDocument();
    expect(within(dialog).getByRole("img", { name: "Memory photo 3" })).toHaveAttribute("src", photos[2]!.preview_url);

    await user.click(within(dialog).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(currentPath(router)).toBe(`/memory/${memory.id}`);
  });

  it("ignores an unknown photo in the address", async () => {
    stubDetail(memory);
    renderApp(`/memory/${memory.id}?photo=nope`, { client: signedIn() });
    await screen.findByRole("img", { name: "Memory photo 1" });
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("leads with the chosen cover, and each photo keeps its number", async () => {
    const withCover = { ...memory, cover_photo_id: photos[2]!.id };
    stubDetail(withCover);
    const { container } = renderApp(`/memory/${memory.id}`, { client: signedIn() });
    await screen.findByRole("img", { name: "Memory photo 3" });
    const cover = container.querySelector<HTMLElement>("[data-cover]")!;
    expect(within(cover).getByRole("img")).toHaveAccessibleName("Memory photo 3");
    const images = within(screen.getByRole("region", { name: "Photos" })).getAllByRole("img");
    expect(images.map((image) => image.getAttribute("alt"))).toEqual(["Memory photo 3", "Memory photo 1", "Memory photo 2"]);
  });

  it("makes the photo shown the cover from the lightbox", async () => {
    let shown: Memory = memory;
    const api = stubDetail(memory, {
      // The page's copy is fetched again after a change: the server's answer stands.
      "GET /api/v1/memories/:id": () => shown,
      "PUT /api/v1/memories/:id/cover": ({ body }) => {
        shown = { ...memory, cover_photo_id: (body as { photo_id: string }).photo_id, version: memory.version + 1 };
        return shown;
      },
    });
    const { user, container } = renderApp(`/memory/${memory.id}?photo=${photos[1]!.id}`, { client: signedIn() });
    const dialog = await screen.findByRole("dialog");
    const make = within(dialog).getByRole("button", { name: "Make this the cover" });
    expect(make).toHaveAttribute("aria-pressed", "false");

    await user.click(make);
    expect(await within(screen.getByRole("dialog")).findByRole("button", { name: "Cover photo" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    expect(api.calls("PUT /api/v1/memories/:id/cover")[0]!.body).toEqual({ photo_id: photos[1]!.id });
    expect(within(container.querySelector<HTMLElement>("[data-cover]")!).getByRole("img")).toHaveAccessibleName("Memory photo 2");
  });

  it("adds a caption under the photo, and refuses one too long with the field's rule", async () => {
    let shown: Memory = memory;
    const api = stubDetail(memory, {
      "GET /api/v1/memories/:id": () => shown,
      "PUT /api/v1/photos/:id/caption": ({ params, body }) => {
        shown = {
          ...memory,
          photos: memory.photos.map((photo) =>
            photo.id === params.id ? { ...photo, caption: (body as { caption: string | null }).caption } : photo,
          ),
        };
        return shown;
      },
    });
    const { user } = renderApp(`/memory/${memory.id}?photo=${photos[0]!.id}`, { client: signedIn() });
    const dialog = await screen.findByRole("dialog");

    await user.click(within(dialog).getByRole("button", { name: "Add a caption" }));
    const field = within(dialog).getByRole("textbox", { name: "Caption" });
    await user.click(field);
    await user.paste("x".repeat(501));
    expect(field).toHaveAttribute("aria-invalid", "true");
    expect(field).toHaveAccessibleDescription("A caption can be at most 500 characters.");
    await user.click(within(dialog).getByRole("button", { name: "Save caption" }));
    expect(api.calls("PUT /api/v1/photos/:id/caption")).toHaveLength(0);

    await user.clear(field);
    // Arrow keys in the field move the caret, not the photo.
    await user.type(field, "  Ducks, everywhere {ArrowLeft}");
    expect(within(screen.getByRole("dialog")).getByText("1 / 3")).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Save caption" }));
    expect(await within(screen.getByRole("dialog")).findByText("Ducks, everywhere")).toBeInTheDocument();
    expect(api.calls("PUT /api/v1/photos/:id/caption")[0]!.body).toEqual({ caption: "Ducks, everywhere" });
    expect(screen.getByRole("button", { name: "Edit caption" })).toBeInTheDocument();
  });
});
