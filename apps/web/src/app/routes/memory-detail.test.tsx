import type { Memory, MemoryInput, MemoryPage, TagList } from "@memory-box/contract";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import axe from "axe-core";
import { afterEach, describe, expect, it, vi } from "vitest";

import { FakeAuthClient, fakeSession } from "@/testing/fake-auth-client";
import { fakeMemory, fakePhoto } from "@/testing/memory-fixtures";
import { currentPath, renderApp } from "@/testing/render-app";
import { apiError, deferred, stubMemoryApi, type ApiHandler } from "@/testing/stub-memory-api";

const emptyPage: MemoryPage = { items: [], next_cursor: null, matched: 0, total: 0 };
const noTags: TagList = { tags: [] };

function signedIn() {
  return new FakeAuthClient({ session: fakeSession() });
}

/** The detail endpoint answering `memory`, plus an empty home screen to land on after leaving. */
function stubDetail(memory: Memory, routes: Record<string, ApiHandler> = {}) {
  return stubMemoryApi({
    "GET /api/v1/memories/:id": ({ params }) =>
      params.id === memory.id ? memory : apiError(404, "memory_not_found", "Memory not found."),
    "GET /api/v1/memories": () => emptyPage,
    "GET /api/v1/tags": () => noTags,
    ...routes,
  });
}

/** `a` comes before `b` in the document. */
function expectBefore(a: Element, b: Element) {
  expect(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
}

const photos = [fakePhoto({ width: 1600, height: 1200 }), fakePhoto({ width: 900, height: 1600 })];
const memory = fakeMemory({
  title: "First snow",
  content: "Woke up early.\nEverything was white.",
  memory_date: "2024-01-05",
  tags: ["winter", "home"],
  photos,
  created_at: "2024-01-05T08:00:00.000Z",
  updated_at: "2024-01-05T08:00:00.000Z",
  version: 2,
});

describe("memory detail page", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('shows "Loading memory..." while the memory loads', async () => {
    const answer = deferred<unknown>();
    stubMemoryApi({ "GET /api/v1/memories/:id": () => answer.promise });
    renderApp(`/memory/${memory.id}`, { client: signedIn() });

    expect(await screen.findByText("Loading memory...")).toBeInTheDocument();
    answer.resolve(memory);
    expect(await screen.findByRole("heading", { level: 1, name: "First snow" })).toBeInTheDocument();
    expect(screen.queryByText("Loading memory...")).not.toBeInTheDocument();
  });

  it('shows "Memory not found." for a memory that does not exist, without an error toast', async () => {
    stubDetail(memory);
    const { router } = renderApp("/memory/3f1c2a9e-0000-4000-8000-000000000000", { client: signedIn() });

    expect(await screen.findByText("Memory not found.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to Memories" })).toHaveAttribute("href", "/");
    expect(screen.queryByText("Failed to load memory details.")).not.toBeInTheDocument();
    expect(currentPath(router)).toBe("/memory/3f1c2a9e-0000-4000-8000-000000000000");
  });

  it('treats an address that is not a memory id as "Memory not found."', async () => {
    stubMemoryApi({
      "GET /api/v1/memories/:id": () => apiError(400, "validation_failed", "params.id must be a memory id (UUID)"),
    });
    renderApp("/memory/not-a-uuid", { client: signedIn() });

    expect(await screen.findByText("Memory not found.")).toBeInTheDocument();
  });

  it("reports any other load failure (after one retry) and goes home", async () => {
    const api = stubMemoryApi({
      "GET /api/v1/memories/:id": () => apiError(500, "internal_error"),
      "GET /api/v1/memories": () => emptyPage,
      "GET /api/v1/tags": () => noTags,
    });
    const { router } = renderApp(`/memory/${memory.id}`, { client: signedIn() });

    expect(await screen.findByText("Failed to load memory details.", {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText("Error")).toBeInTheDocument();
    await waitFor(() => expect(currentPath(router)).toBe("/"));
    expect(screen.getAllByText("Failed to load memory details.")).toHaveLength(1);
    expect(api.calls("GET /api/v1/memories/:id")).toHaveLength(2);
  });

  it("offline, says calmly that a memory not kept is not on this device yet, and stays (#34)", async () => {
    vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    stubMemoryApi({
      "GET /api/v1/memories/:id": () => apiError(503, "internal_error"),
      "GET /api/v1/memories": () => emptyPage,
      "GET /api/v1/tags": () => noTags,
    });
    const { router } = renderApp(`/memory/${memory.id}`, { client: signedIn() });

    expect(
      await screen.findByRole("heading", { name: "This memory is not on this device yet." }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.getByText("It opens here as soon as you are back online.")).toBeInTheDocument();
    expect(screen.queryByText("Failed to load memory details.")).not.toBeInTheDocument();
    expect(screen.queryByText("Error")).not.toBeInTheDocument();
    expect(currentPath(router)).toBe(`/memory/${memory.id}`);
  });

  it("shows the memory: title, date, photos, description, tags and the created time, in that order", async () => {
    stubDetail(memory);
    renderApp(`/memory/${memory.id}`, { client: signedIn() });

    const title = await screen.findByRole("heading", { level: 1, name: "First snow" });
    const backLink = screen.getByRole("link", { name: "Back to Memories" });
    expect(backLink).toHaveAttribute("href", "/");
    const edit = screen.getByRole("button", { name: "Edit" });
    const del = screen.getByRole("button", { name: "Delete" });

    const date = screen.getByText("Jan 5, 2024");
    expect(date).toHaveAttribute("datetime", "2024-01-05");

    const description = screen.getByRole("heading", { name: "Description" });
    const content = screen.getByText(/Woke up early\./);
    expect(content.textContent).toBe("Woke up early.\nEverything was white.");
    expect(content).toHaveClass("whitespace-pre-wrap");

    const tagsHeading = screen.getByRole("heading", { name: "Tags" });
    const tags = within(screen.getByRole("region", { name: "Tags" })).getAllByRole("listitem");
    expect(tags.map((tag) => tag.textContent)).toEqual(["winter", "home"]);
    expect(within(tags[0]!).getByText("winter")).toHaveAttribute("data-slot", "badge");

    const photosHeading = screen.getByRole("heading", { name: "Photos" });
    const images = within(screen.getByRole("region", { name: "Photos" })).getAllByRole("img");
    expect(images.map((image) => image.getAttribute("alt"))).toEqual(["Memory photo 1", "Memory photo 2"]);
    expect(images[0]).toHaveAttribute("src", photos[0]?.preview_url);
    expect(images[0]).toHaveAttribute("width", "1600");
    expect(images[0]).toHaveAttribute("height", "1200");
    expect(images[1]).toHaveAttribute("width", "900");
    // The ThumbHash is painted until the image has loaded.
    expect(images[0]?.style.backgroundImage).toMatch(/^url\("data:image\/png;base64,/);
    const link = screen.getByRole("link", { name: "Memory photo 2" });
    // The photo opens in the lightbox over the page (issue #34); the link is its viewer page's, for a new tab.
    expect(link).toHaveAttribute("href", `/memory/${memory.id}/photo/2`);
    expect(link).not.toHaveAttribute("target");

    const created = screen.getByText("Created");
    expect(created.nextElementSibling?.textContent).toBe(
      new Date("2024-01-05T08:00:00.000Z").toLocaleString("en-US", {
        year: "numeric",
        month: "short",
        day: "numeric",
        hour: "numeric",
        minute: "2-digit",
      }),
    );
    expect(screen.queryByText("Updated")).not.toBeInTheDocument();

    for (const [a, b] of [
      [backLink, edit],
      [edit, del],
      [del, title],
      [title, date],
      // The page opens with its photos (issue #34).
      [date, photosHeading],
      [photosHeading, description],
      [description, tagsHeading],
      [tagsHeading, created],
    ] as const) {
      expectBefore(a, b);
    }
  });

  it("removes the placeholder once a photo has loaded", async () => {
    stubDetail(memory);
    renderApp(`/memory/${memory.id}`, { client: signedIn() });

    const image = await screen.findByRole("img", { name: "Memory photo 1" });
    image.dispatchEvent(new Event("load"));
    await waitFor(() => expect(image.style.backgroundImage).toBe(""));
  });

  it('shows "Updated" only when it differs from "Created", and leaves out empty sections', async () => {
    const edited = fakeMemory({ title: "Bare", updated_at: "2024-03-02T09:15:00.000Z", created_at: "2024-01-05T08:00:00.000Z" });
    stubDetail(edited);
    renderApp(`/memory/${edited.id}`, { client: signedIn() });

    expect(await screen.findByText("Updated")).toBeInTheDocument();
    expect(screen.getByText("Updated").nextElementSibling?.textContent).toMatch(/^Mar 2, 2024, /);
    expect(screen.getByText("Created")).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Description" })).not.toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Tags" })).not.toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Photos" })).not.toBeInTheDocument();
  });

  it("edits inline: Back to Details and Cancel return to the details", async () => {
    stubDetail(memory);
    const { user } = renderApp(`/memory/${memory.id}`, { client: signedIn() });

    await user.click(await screen.findByRole("button", { name: "Edit" }));
    expect(screen.getByRole("button", { name: "Back to Details" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Edit Memory" })).toBeInTheDocument();
    // Inline, not a dialog; the title field takes focus.
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(screen.getByLabelText("Title")).toHaveValue("First snow");
    expect(screen.getByLabelText("Title")).toHaveFocus();
    expect(screen.queryByRole("link", { name: "Back to Memories" })).not.toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.getByRole("heading", { level: 1, name: "First snow" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Edit" })).toHaveFocus();
    expect(screen.queryByRole("button", { name: "Back to Details" })).not.toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Edit" }));
    await user.click(screen.getByRole("button", { name: "Back to Details" }));
    expect(screen.getByRole("heading", { level: 1, name: "First snow" })).toBeInTheDocument();
    expect(screen.queryByLabelText("Title")).not.toBeInTheDocument();
  });

  it("saves an edit, returns to the details and reloads them", async () => {
    let current = memory;
    const api = stubDetail(memory, {
      "GET /api/v1/memories/:id": () => current,
      "PUT /api/v1/memories/:id": ({ body }) => {
        const input = body as MemoryInput;
        current = { ...current, title: input.title, updated_at: "2024-02-01T12:00:00.000Z", version: current.version + 1 };
        return current;
      },
    });
    const { user } = renderApp(`/memory/${memory.id}`, { client: signedIn() });

    await user.click(await screen.findByRole("button", { name: "Edit" }));
    await user.clear(screen.getByLabelText("Title"));
    await user.type(screen.getByLabelText("Title"), "First snow of the year");
    const loadsBefore = api.calls("GET /api/v1/memories/:id").length;
    await user.click(screen.getByRole("button", { name: "Update Memory" }));

    expect(await screen.findByRole("heading", { level: 1, name: "First snow of the year" })).toBeInTheDocument();
    expect(await screen.findByText("Memory updated!")).toBeInTheDocument();
    expect(screen.getByText("Updated")).toBeInTheDocument();
    expect(api.calls("PUT /api/v1/memories/:id")[0]?.headers.get("If-Match")).toBe('"v2"');
    await waitFor(() => expect(api.calls("GET /api/v1/memories/:id").length).toBeGreaterThan(loadsBefore));
  });

  it("asks before deleting; a click outside does not dismiss the question; Cancel does", async () => {
    const api = stubDetail(memory);
    const { user } = renderApp(`/memory/${memory.id}`, { client: signedIn() });

    await user.click(await screen.findByRole("button", { name: "Delete" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Delete Memory" });
    expect(dialog).toHaveAccessibleDescription("Are you sure you want to delete this memory? This action cannot be undone.");

    // The page behind is inert (pointer-events: none), so the outside press is dispatched directly,
    // once Radix has armed its outside-press detection (a tick after opening; a plain Dialog would close).
    await new Promise((resolve) => setTimeout(resolve, 20));
    const overlay = document.querySelector('[data-slot="alert-dialog-overlay"]');
    expect(overlay).not.toBeNull();
    fireEvent.pointerDown(overlay!);
    fireEvent.mouseDown(overlay!);
    fireEvent.click(overlay!);
    fireEvent.pointerDown(document.body);
    expect(screen.getByRole("alertdialog", { name: "Delete Memory" })).toBeInTheDocument();

    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(screen.getByRole("button", { name: "Delete" })).toHaveFocus();
    expect(api.calls("DELETE /api/v1/memories/:id")).toHaveLength(0);
  });

  it('deletes: "Deleting..." while busy, then the toast and home', async () => {
    const answer = deferred<unknown>();
    const api = stubDetail(memory, { "DELETE /api/v1/memories/:id": () => answer.promise });
    const { user, router } = renderApp(`/memory/${memory.id}`, { client: signedIn() });

    await user.click(await screen.findByRole("button", { name: "Delete" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Delete Memory" });
    await user.click(within(dialog).getByRole("button", { name: "Delete" }));

    expect(await within(dialog).findByRole("button", { name: "Deleting..." })).toBeDisabled();
    expect(within(dialog).getByRole("button", { name: "Cancel" })).toBeDisabled();
    await user.keyboard("{Escape}");
    expect(screen.getByRole("alertdialog", { name: "Delete Memory" })).toBeInTheDocument();
    expect(api.calls("DELETE /api/v1/memories/:id")[0]?.path).toBe(`/api/v1/memories/${memory.id}`);

    answer.resolve(new Response(null, { status: 204 }));
    expect(await screen.findByText("Memory deleted")).toBeInTheDocument();
    expect(screen.getByText("Your memory has been deleted successfully.")).toBeInTheDocument();
    await waitFor(() => expect(currentPath(router)).toBe("/"));
    expect(screen.queryByText("Memory not found.")).not.toBeInTheDocument();
  });

  it("reports a failed delete and stays on the memory", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    stubDetail(memory, { "DELETE /api/v1/memories/:id": () => apiError(500, "internal_error") });
    const { user, router } = renderApp(`/memory/${memory.id}`, { client: signedIn() });

    await user.click(await screen.findByRole("button", { name: "Delete" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Delete Memory" });
    await user.click(within(dialog).getByRole("button", { name: "Delete" }));

    expect(await screen.findByText("Failed to delete memory. Please try again.")).toBeInTheDocument();
    expect(screen.getByText("Error")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(currentPath(router)).toBe(`/memory/${memory.id}`);
    expect(screen.getByRole("heading", { level: 1, name: "First snow" })).toBeInTheDocument();
  });
});

describe("a memory's videos and Live Photos on its page", () => {
  const video = fakePhoto({
    kind: "video",
    duration_seconds: 62,
    video_url: "/storage/v1/object/authenticated/memory-photos/toast.mp4",
  });
  const live = fakePhoto({
    kind: "live",
    duration_seconds: 2,
    video_url: "/storage/v1/object/authenticated/memory-photos/motion.mp4",
  });
  const failed = fakePhoto({ kind: "video", status: "failed", error_code: "corrupt_video" });
  const moving = fakeMemory({ title: "The toast", photos: [video, live, failed] });

  it("plays a video in place, moves a Live Photo from its LIVE button, names a failed one's reason, and axe finds nothing", async () => {
    stubDetail(moving);
    const { container } = renderApp(`/memory/${moving.id}`, { client: signedIn() });

    const player = await screen.findByLabelText("Video 1, 1:02");
    expect(player.tagName).toBe("VIDEO");
    expect(player).toHaveAttribute("src", video.video_url);
    expect(player).toHaveAttribute("poster", video.preview_url);
    expect(player).toHaveAttribute("controls");

    // The Live Photo's still opens the viewer like a photo; its mark plays the motion.
    expect(screen.getByRole("img", { name: "Live Photo 2" }).closest("a")).toHaveAttribute(
      "href",
      `/memory/${moving.id}/photo/2`,
    );
    const button = screen.getByRole("button", { name: "Play the motion of Live Photo 2" });
    fireEvent.click(button);
    expect(button).toHaveAttribute("aria-pressed", "true");
    expect(container.querySelector("video[data-live-motion]")).toHaveAttribute("src", live.video_url);

    expect(screen.getByText("The video could not be read; the file may be damaged or incomplete.")).toBeInTheDocument();

    const results = await axe.run(container, { preload: false, rules: { "color-contrast": { enabled: false } } });
    expect(results.violations.map((violation) => violation.id)).toEqual([]);
  });
});
