import type { Memory } from "@memory-box/contract";
import { AuthApiError } from "@supabase/auth-js";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { FakeAuthClient, fakeSession, fakeUser } from "@/testing/fake-auth-client";
import { FakeMemoryBackend } from "@/testing/fake-memory-backend";
import { fakeMemory, fakePhoto } from "@/testing/memory-fixtures";
import { currentPath, renderApp } from "@/testing/render-app";
import { deferred } from "@/testing/stub-memory-api";

function signedInAs(overrides: Parameters<typeof fakeUser>[0] = {}) {
  return new FakeAuthClient({ session: fakeSession(fakeUser(overrides)) });
}

/** Renders home as a signed-in member over `backend`. */
function renderHome(backend = new FakeMemoryBackend(), client = signedInAs({ email: "alex@example.com" })) {
  backend.install();
  return { ...renderApp("/", { client }), backend };
}

const lisbon = () =>
  fakeMemory({
    title: "Lisbon weekend",
    content: "Trams, tiles and far too many pastéis de nata.",
    memory_date: "2023-06-01",
    tags: ["travel", "food"],
    profiles: { display_name: "Alex Doe" },
    photos: Array.from({ length: 6 }, (_, index) => fakePhoto({ width: 1200 + index, height: 800 })),
  });
const picnic = () => fakeMemory({ title: "Picnic by the lake", memory_date: "2023-05-20", tags: ["summer"], profiles: null });
const firstDate = () =>
  fakeMemory({ title: "Our first date", memory_date: null, tags: ["us"], profiles: { display_name: "Sam" } });

/** The card whose title link is `title`. */
function card(title: string): HTMLElement {
  const link = screen.getByRole("link", { name: title });
  const element = link.closest<HTMLElement>("[data-slot=card]");
  if (!element) throw new Error(`no card around ${title}`);
  return element;
}

function cardTitles(): string[] {
  return within(screen.getByRole("list", { name: "Memories" }))
    .getAllByRole("heading", { level: 2 })
    .map((heading) => heading.textContent ?? "");
}

describe("home screen", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  describe("header", () => {
    it("greets the member by the full name from their profile", async () => {
      renderHome(undefined, signedInAs({ email: "alex@example.com", user_metadata: { full_name: "Alex Doe" } }));

      expect(await screen.findByRole("heading", { name: "Memory Box" })).toBeInTheDocument();
      expect(screen.getByText("Welcome back, Alex Doe!")).toBeInTheDocument();
    });

    it("greets the member by the e-mail before the @ when the profile has no name", async () => {
      renderHome(undefined, signedInAs({ email: "sam.smith@example.com", user_metadata: {} }));

      expect(await screen.findByText("Welcome back, sam.smith!")).toBeInTheDocument();
    });

    it("signs out and returns to the auth screen", async () => {
      const client = signedInAs({ email: "alex@example.com" });
      const { user, router, queryClient } = renderHome(new FakeMemoryBackend([picnic()]), client);
      await screen.findByText("1 memories");
      expect(queryClient.getQueryCache().getAll()).not.toEqual([]);

      await user.click(await screen.findByRole("button", { name: "Sign Out" }));

      expect(await screen.findByRole("heading", { name: "Welcome to Memory Box" })).toBeInTheDocument();
      expect(client.signOut).toHaveBeenCalledOnce();
      expect(currentPath(router)).toBe("/auth");
      // What this member loaded is gone; the next one on this device starts clean.
      expect(queryClient.getQueryCache().getAll()).toEqual([]);
    });

    it("empties the cache when the session ends away from the member screens too", async () => {
      const client = signedInAs({ email: "alex@example.com" });
      const { router, queryClient } = renderHome(new FakeMemoryBackend([picnic()]), client);
      await screen.findByText("1 memories");
      vi.spyOn(console, "error").mockImplementation(() => {});
      await act(() => router.navigate("/does/not/exist"));
      expect(await screen.findByText("Oops! Page not found")).toBeInTheDocument();
      expect(queryClient.getQueryCache().getAll()).not.toEqual([]);

      act(() => client.emit("SIGNED_OUT", null));

      expect(queryClient.getQueryCache().getAll()).toEqual([]);
    });

    it("only logs a failed sign-out", async () => {
      const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
      const client = signedInAs({ email: "alex@example.com" });
      const failure = new AuthApiError("Internal Server Error", 500, "unexpected_failure");
      client.signOut.mockResolvedValueOnce({ error: failure });
      const { user, router } = renderHome(undefined, client);

      await user.click(await screen.findByRole("button", { name: "Sign Out" }));

      expect(consoleError).toHaveBeenCalledWith("Error signing out:", failure);
      expect(currentPath(router)).toBe("/");
      expect(screen.getByText("Welcome back, alex!")).toBeInTheDocument();
      expect(screen.queryByText("Internal Server Error")).not.toBeInTheDocument();
    });

    it("opens the add dialog from Add Memory", async () => {
      const { user } = renderHome(new FakeMemoryBackend([lisbon()]));

      await user.click(await screen.findByRole("button", { name: "Add Memory" }));

      expect(await screen.findByRole("dialog", { name: "Add Memory" })).toBeInTheDocument();
      await user.keyboard("{Escape}");
      await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
      expect(screen.getByRole("button", { name: "Add Memory" })).toHaveFocus();
    });
  });

  describe("collection states", () => {
    it("shows a spinner while the memories load", async () => {
      const backend = new FakeMemoryBackend([lisbon()]);
      const held = deferred<Response | undefined>();
      backend.overrides.set("GET /api/v1/memories", () => held.promise);
      renderHome(backend);

      expect(await screen.findByText("Loading your memories...")).toBeInTheDocument();
      expect(screen.getByRole("status")).toHaveTextContent("Loading your memories...");

      held.resolve(undefined);
      expect(await screen.findByRole("link", { name: "Lisbon weekend" })).toBeInTheDocument();
      expect(screen.queryByText("Loading your memories...")).not.toBeInTheDocument();
    });

    it("invites the first memory when the collection is empty", async () => {
      const { user } = renderHome(new FakeMemoryBackend([]));

      expect(await screen.findByRole("heading", { name: "No memories yet" })).toBeInTheDocument();
      expect(screen.getByText("Start building your memory collection by adding your first memory!")).toBeInTheDocument();
      expect(screen.queryByRole("searchbox")).not.toBeInTheDocument();
      expect(screen.queryByText(/memories$/)).not.toBeInTheDocument();

      await user.click(screen.getByRole("button", { name: "Add Your First Memory" }));
      expect(await screen.findByRole("dialog", { name: "Add Memory" })).toBeInTheDocument();
    });

    it("only logs a failed list fetch, and offers to try again", async () => {
      const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
      const backend = new FakeMemoryBackend([lisbon()]);
      backend.overrides.set("GET /api/v1/memories", () => Response.json({ code: "internal", message: "boom" }, { status: 500 }));
      const { user } = renderHome(backend);

      const retry = await screen.findByRole("button", { name: "Try again" });
      expect(consoleError).toHaveBeenCalledWith("Error fetching memories:", expect.objectContaining({ status: 500 }));
      expect(screen.queryByText("boom")).not.toBeInTheDocument();
      expect(screen.queryByText("Error")).not.toBeInTheDocument();

      backend.overrides.delete("GET /api/v1/memories");
      await user.click(retry);
      expect(await screen.findByRole("link", { name: "Lisbon weekend" })).toBeInTheDocument();
    });
  });

  describe("memory cards", () => {
    it("lists the cards in the API's order with author, date, description, tags and a count", async () => {
      renderHome(new FakeMemoryBackend([lisbon(), picnic(), firstDate()]));

      await screen.findByRole("link", { name: "Lisbon weekend" });
      expect(cardTitles()).toEqual(["Lisbon weekend", "Picnic by the lake", "Our first date"]);
      expect(screen.getByText("3 memories")).toBeInTheDocument();

      const first = within(card("Lisbon weekend"));
      expect(first.getByText("Alex Doe")).toBeInTheDocument();
      expect(first.getByText("Jun 1, 2023")).toHaveAttribute("datetime", "2023-06-01");
      expect(first.getByText("Trams, tiles and far too many pastéis de nata.")).toHaveClass("line-clamp-3");
      expect(
        within(first.getByRole("list", { name: "Tags" }))
          .getAllByRole("listitem")
          .map((item) => item.textContent),
      ).toEqual(["travel", "food"]);

      expect(within(card("Picnic by the lake")).getByText("Unknown User")).toBeInTheDocument();
      expect(within(card("Picnic by the lake")).getByText("May 20, 2023")).toBeInTheDocument();
      expect(within(card("Our first date")).getByText("Sam")).toBeInTheDocument();
    });

    it("links each card to its detail page", async () => {
      const memory = lisbon();
      const { user, router } = renderHome(new FakeMemoryBackend([memory]));

      const link = await screen.findByRole("link", { name: "Lisbon weekend" });
      expect(link).toHaveAttribute("href", `/memory/${memory.id}`);

      await user.click(link);
      await waitFor(() => expect(currentPath(router)).toBe(`/memory/${memory.id}`));
    });

    it("shows at most four photo thumbnails, sized, with +N more on the fourth", async () => {
      const memory = lisbon();
      renderHome(new FakeMemoryBackend([memory]));

      await screen.findByRole("link", { name: "Lisbon weekend" });
      const images = within(card("Lisbon weekend")).getAllByRole("img");
      expect(images.map((image) => image.getAttribute("alt"))).toEqual([
        "Memory photo 1",
        "Memory photo 2",
        "Memory photo 3",
        "Memory photo 4",
      ]);
      images.forEach((image, index) => {
        const photo = memory.photos[index]!;
        expect(image).toHaveAttribute("src", photo.thumbnail_url);
        expect(image).toHaveAttribute("width", String(photo.width));
        expect(image).toHaveAttribute("height", String(photo.height));
        // The first screen's photos are fetched at once; lazy loading would wait for layout.
        expect(image).toHaveAttribute("loading", "eager");
        expect(image).toHaveAttribute("decoding", "async");
        // Thumbnails are tinted with their ThumbHash's average colour until they load.
        expect(image.style.backgroundColor).toMatch(/^rgba?\(\d+, \d+, \d+/);
        expect(image.style.backgroundImage).toBe("");
      });
      const overlay = within(card("Lisbon weekend")).getByText("+2 more");
      expect(images[3]!.parentElement).toContainElement(overlay);
    });

    it("loads the photos of the first six cards at once and the rest lazily", async () => {
      const memories = Array.from({ length: 8 }, (_, index) => fakeMemory({ title: `Card ${index + 1}`, photos: [fakePhoto()] }));
      renderHome(new FakeMemoryBackend(memories));

      await screen.findByRole("link", { name: "Card 8" });
      const loading = (title: string) => within(card(title)).getByRole("img").getAttribute("loading");
      expect(["Card 1", "Card 6", "Card 7", "Card 8"].map(loading)).toEqual(["eager", "eager", "lazy", "lazy"]);
    });

    it("shows no overlay with four photos or fewer, and no photo grid without photos", async () => {
      const four = fakeMemory({ title: "Four", photos: Array.from({ length: 4 }, () => fakePhoto()) });
      renderHome(new FakeMemoryBackend([four, picnic()]));

      await screen.findByRole("link", { name: "Four" });
      expect(within(card("Four")).getAllByRole("img")).toHaveLength(4);
      expect(within(card("Four")).queryByText(/more$/)).not.toBeInTheDocument();
      expect(within(card("Picnic by the lake")).queryByRole("img")).not.toBeInTheDocument();
    });

    it("opens the edit dialog with the memory from the card's edit button", async () => {
      const { user } = renderHome(new FakeMemoryBackend([lisbon()]));

      await user.click(await screen.findByRole("button", { name: "Edit Lisbon weekend" }));

      const dialog = await screen.findByRole("dialog", { name: "Edit Memory" });
      expect(within(dialog).getByDisplayValue("Lisbon weekend")).toBeInTheDocument();

      await user.keyboard("{Escape}");
      await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
      expect(screen.getByRole("button", { name: "Edit Lisbon weekend" })).toHaveFocus();
    });
  });

  describe("search and tag filter", () => {
    it("sends the search to the API once typing pauses and shows X of N", async () => {
      const backend = new FakeMemoryBackend([lisbon(), picnic(), firstDate()]);
      const { user } = renderHome(backend);
      await screen.findByText("3 memories");

      const search = screen.getByRole("searchbox", { name: "Search memories" });
      expect(search).toHaveAttribute("placeholder", "Search memories...");
      await user.type(search, "LAKE");

      expect(await screen.findByText("1 of 3 memories")).toBeInTheDocument();
      expect(cardTitles()).toEqual(["Picnic by the lake"]);
      // Debounced: one request for the whole word, not one per key.
      expect(backend.listQueries()).toEqual([{}, { q: "LAKE" }]);
    });

    it("waits ~250 ms after the last key before searching", async () => {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      try {
        const backend = new FakeMemoryBackend([lisbon(), picnic()]);
        renderHome(backend);
        await vi.waitFor(() => expect(screen.getByText("2 memories")).toBeInTheDocument());

        const search = screen.getByRole("searchbox", { name: "Search memories" });
        fireEvent.change(search, { target: { value: "tram" } });
        await act(() => vi.advanceTimersByTimeAsync(200));
        expect(backend.listQueries()).toEqual([{}]);

        await act(() => vi.advanceTimersByTimeAsync(60));
        expect(backend.listQueries()).toEqual([{}, { q: "tram" }]);
      } finally {
        vi.useRealTimers();
      }
    });

    it("opens every tag from the +N more badge, narrowed by typing, and filters by the one chosen", async () => {
      const backend = new FakeMemoryBackend([
        fakeMemory({ title: "One", tags: ["travel", "food", "family"] }),
        fakeMemory({ title: "Two", tags: ["travel", "food", "beach"] }),
        fakeMemory({ title: "Three", tags: ["travel", "hiking", "music"] }),
        fakeMemory({ title: "Four", tags: ["art"] }),
      ]);
      const { user } = renderHome(backend);
      await screen.findByText("4 memories");

      await user.click(screen.getByRole("button", { name: "+2 more: all tags" }));
      const all = await screen.findByRole("list", { name: "All tags" });
      expect(
        within(all)
          .getAllByRole("button")
          .map((button) => button.textContent),
      ).toEqual(["travel", "food", "art", "beach", "family", "hiking", "music"]);
      await user.type(screen.getByRole("searchbox", { name: "Filter tags" }), "MU");
      expect(
        within(all)
          .getAllByRole("button")
          .map((button) => button.textContent),
      ).toEqual(["music"]);

      await user.click(within(all).getByRole("button", { name: "music" }));
      expect(await screen.findByText("1 of 4 memories")).toBeInTheDocument();
      expect(cardTitles()).toEqual(["Three"]);
      expect(backend.listQueries().at(-1)).toEqual({ tag: "music" });
      expect(screen.queryByRole("list", { name: "All tags" })).not.toBeInTheDocument();
    });

    it("offers All Tags and the five most used tags with +N more, and a second click clears the tag", async () => {
      const tagged = (title: string, tags: string[]) => fakeMemory({ title, tags });
      const backend = new FakeMemoryBackend([
        tagged("One", ["travel", "food", "family"]),
        tagged("Two", ["travel", "food", "beach"]),
        tagged("Three", ["travel", "hiking", "music"]),
        tagged("Four", ["art"]),
      ]);
      const { user } = renderHome(backend);
      await screen.findByText("4 memories");

      const filter = screen.getByRole("group", { name: "Filter by tag" });
      expect(
        within(filter)
          .getAllByRole("button")
          .map((button) => button.textContent),
      ).toEqual(["All Tags", "travel", "food", "art", "beach", "family", "+2 more"]);
      expect(within(filter).getByRole("button", { name: "All Tags" })).toHaveAttribute("aria-pressed", "true");

      await user.click(within(filter).getByRole("button", { name: "food" }));
      expect(await screen.findByText("2 of 4 memories")).toBeInTheDocument();
      expect(cardTitles()).toEqual(["One", "Two"]);
      expect(within(filter).getByRole("button", { name: "food" })).toHaveAttribute("aria-pressed", "true");
      expect(within(filter).getByRole("button", { name: "All Tags" })).toHaveAttribute("aria-pressed", "false");
      expect(backend.listQueries().at(-1)).toEqual({ tag: "food" });

      await user.click(within(filter).getByRole("button", { name: "food" }));
      expect(await screen.findByText("4 memories")).toBeInTheDocument();
      expect(within(filter).getByRole("button", { name: "food" })).toHaveAttribute("aria-pressed", "false");
      expect(within(filter).getByRole("button", { name: "All Tags" })).toHaveAttribute("aria-pressed", "true");
    });

    it("combines search and tag, and All Tags clears the tag only", async () => {
      const backend = new FakeMemoryBackend([lisbon(), picnic(), firstDate()]);
      const { user } = renderHome(backend);
      await screen.findByText("3 memories");

      await user.click(screen.getByRole("button", { name: "travel" }));
      expect(await screen.findByText("1 of 3 memories")).toBeInTheDocument();
      await user.type(screen.getByRole("searchbox", { name: "Search memories" }), "tram");
      await waitFor(() => expect(backend.listQueries().at(-1)).toEqual({ q: "tram", tag: "travel" }));
      expect(await screen.findByText("1 of 3 memories")).toBeInTheDocument();

      await user.click(screen.getByRole("button", { name: "All Tags" }));
      await waitFor(() => expect(backend.listQueries().at(-1)).toEqual({ q: "tram" }));
      expect(screen.getByRole("searchbox", { name: "Search memories" })).toHaveValue("tram");
    });

    it("says nothing matched and Clear Filters resets search and tag", async () => {
      const backend = new FakeMemoryBackend([lisbon(), picnic(), firstDate()]);
      const { user } = renderHome(backend);
      await screen.findByText("3 memories");

      await user.click(screen.getByRole("button", { name: "summer" }));
      await user.type(screen.getByRole("searchbox", { name: "Search memories" }), "snow");

      expect(await screen.findByRole("heading", { name: "No memories found" })).toBeInTheDocument();
      expect(screen.getByText("Try adjusting your search or filter criteria.")).toBeInTheDocument();
      expect(screen.getByText("0 of 3 memories")).toBeInTheDocument();

      await user.click(screen.getByRole("button", { name: "Clear Filters" }));

      expect(await screen.findByText("3 memories")).toBeInTheDocument();
      expect(cardTitles()).toEqual(["Lisbon weekend", "Picnic by the lake", "Our first date"]);
      const search = screen.getByRole("searchbox", { name: "Search memories" });
      expect(search).toHaveValue("");
      expect(search).toHaveFocus();
      expect(screen.getByRole("button", { name: "All Tags" })).toHaveAttribute("aria-pressed", "true");
      expect(backend.listQueries().at(-1)).toEqual({});
    });
  });

  describe("delete from a card", () => {
    it("asks first, and Cancel keeps the memory", async () => {
      const backend = new FakeMemoryBackend([lisbon(), picnic()]);
      const { user } = renderHome(backend);

      await user.click(await screen.findByRole("button", { name: "Delete Lisbon weekend" }));
      const dialog = await screen.findByRole("alertdialog", { name: "Are you sure you want to delete this memory?" });
      await user.click(within(dialog).getByRole("button", { name: "Cancel" }));

      await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
      expect(backend.requests("DELETE", `/api/v1/memories/${backend.memories[0]!.id}`)).toHaveLength(0);
      expect(screen.getByRole("button", { name: "Delete Lisbon weekend" })).toHaveFocus();
    });

    it("deletes after confirmation, says so and refreshes the list and tags", async () => {
      const memory = lisbon();
      const backend = new FakeMemoryBackend([memory, picnic()]);
      const held = deferred<Response | undefined>();
      backend.overrides.set("DELETE /api/v1/memories/:id", () => held.promise);
      const { user } = renderHome(backend);
      await screen.findByText("2 memories");
      const tagRequests = backend.requests("GET", "/api/v1/tags").length;

      await user.click(screen.getByRole("button", { name: "Delete Lisbon weekend" }));
      const dialog = await screen.findByRole("alertdialog", { name: "Are you sure you want to delete this memory?" });
      await user.click(within(dialog).getByRole("button", { name: "Delete" }));

      expect(await within(dialog).findByRole("button", { name: "Deleting..." })).toBeDisabled();
      expect(within(dialog).getByRole("button", { name: "Cancel" })).toBeDisabled();

      held.resolve(undefined);
      expect(await screen.findByText("Memory deleted")).toBeInTheDocument();
      expect(screen.getByText("Your memory has been removed.")).toBeInTheDocument();
      expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
      expect(screen.queryByRole("link", { name: "Lisbon weekend" })).not.toBeInTheDocument();
      expect(screen.getByText("1 memories")).toBeInTheDocument();
      expect(backend.requests("DELETE", `/api/v1/memories/${memory.id}`)).toHaveLength(1);
      expect(backend.requests("GET", "/api/v1/tags").length).toBeGreaterThan(tagRequests);
      expect(screen.getByRole("group", { name: "Filter by tag" })).not.toHaveTextContent("travel");
    });

    it("reports a failed delete and keeps the memory", async () => {
      const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
      const backend = new FakeMemoryBackend([lisbon()]);
      backend.overrides.set("DELETE /api/v1/memories/:id", () =>
        Response.json({ code: "internal", message: "boom" }, { status: 500 }),
      );
      const { user } = renderHome(backend);

      await user.click(await screen.findByRole("button", { name: "Delete Lisbon weekend" }));
      await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Delete" }));

      expect(await screen.findByText("Failed to delete memory. Please try again.")).toBeInTheDocument();
      expect(screen.getByText("Error")).toBeInTheDocument();
      expect(consoleError).toHaveBeenCalledWith("Error deleting memory:", expect.objectContaining({ status: 500 }));
      await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
      expect(screen.getByRole("link", { name: "Lisbon weekend" })).toBeInTheDocument();
    });
  });

  describe("paging", () => {
    const many = (count: number) => Array.from({ length: count }, (_, index) => fakeMemory({ title: `Memory ${index + 1}` }));

    it("loads the next page with Load more until there is none", async () => {
      const backend = new FakeMemoryBackend(many(5));
      backend.pageSize = 2;
      const { user } = renderHome(backend);
      await screen.findByRole("link", { name: "Memory 2" });
      expect(cardTitles()).toEqual(["Memory 1", "Memory 2"]);
      expect(screen.getByText("5 memories")).toBeInTheDocument();

      await user.click(screen.getByRole("button", { name: "Load more" }));
      await screen.findByRole("link", { name: "Memory 4" });
      expect(backend.listQueries().at(-1)).toEqual({ cursor: "after-2" });

      await user.click(screen.getByRole("button", { name: "Load more" }));
      await screen.findByRole("link", { name: "Memory 5" });
      expect(cardTitles()).toEqual(["Memory 1", "Memory 2", "Memory 3", "Memory 4", "Memory 5"]);
      expect(screen.queryByRole("button", { name: "Load more" })).not.toBeInTheDocument();
    });

    it("loads the next page on its own when the end of the list comes into view", async () => {
      const observers: Array<{ callback: IntersectionObserverCallback; targets: Element[] }> = [];
      vi.stubGlobal(
        "IntersectionObserver",
        class {
          private readonly entry: { callback: IntersectionObserverCallback; targets: Element[] };
          constructor(callback: IntersectionObserverCallback) {
            this.entry = { callback, targets: [] };
            observers.push(this.entry);
          }
          observe(target: Element) {
            this.entry.targets.push(target);
          }
          disconnect() {
            this.entry.targets = [];
          }
        },
      );
      const backend = new FakeMemoryBackend(many(3));
      backend.pageSize = 2;
      renderHome(backend);
      await screen.findByRole("link", { name: "Memory 2" });

      const watching = observers.filter((observer) => observer.targets.length > 0);
      expect(watching).toHaveLength(1);
      const target = watching[0]!.targets[0]!;
      expect(target).toContainElement(screen.getByRole("button", { name: "Load more" }));
      act(() =>
        watching[0]!.callback(
          [{ isIntersecting: true, target } as unknown as IntersectionObserverEntry],
          {} as IntersectionObserver,
        ),
      );

      expect(await screen.findByRole("link", { name: "Memory 3" })).toBeInTheDocument();
      expect(backend.listQueries()).toEqual([{}, { cursor: "after-2" }]);
    });
  });

  describe("on this day", () => {
    it("follows the day at midnight, keeping the list and yesterday's memories until today's answer arrives", async () => {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
      try {
        vi.setSystemTime(new Date(2026, 10, 26, 23, 59, 30));
        const backend = new FakeMemoryBackend([picnic()]);
        const todays = deferred<Response>();
        backend.overrides.set("GET /api/v1/memories/on-this-day", (url) => {
          if (url.searchParams.get("date") === "2026-11-26") {
            const memory = fakeMemory({ title: "A year ago tonight", memory_date: "2025-11-26" });
            return Response.json({ date: "2026-11-26", window_days: 3, groups: [{ years_ago: 1, memories: [memory] }] });
          }
          return todays.promise;
        });
        renderHome(backend);
        await vi.waitFor(() => expect(screen.getByRole("link", { name: /A year ago tonight/ })).toBeInTheDocument());

        await act(() => vi.advanceTimersByTimeAsync(31_000));
        expect(backend.requests("GET", "/api/v1/memories/on-this-day").at(-1)?.searchParams.get("date")).toBe("2026-11-27");
        expect(screen.getByText("1 memories")).toBeInTheDocument();
        expect(screen.getByRole("link", { name: /A year ago tonight/ })).toBeInTheDocument();

        const memory = fakeMemory({ title: "Two years ago today", memory_date: "2024-11-27" });
        todays.resolve(Response.json({ date: "2026-11-27", window_days: 3, groups: [{ years_ago: 2, memories: [memory] }] }));
        await vi.waitFor(() => expect(screen.getByRole("link", { name: /Two years ago today/ })).toBeInTheDocument());
        expect(screen.queryByRole("link", { name: /A year ago tonight/ })).not.toBeInTheDocument();
        expect(screen.getByText("1 memories")).toBeInTheDocument();
      } finally {
        vi.useRealTimers();
      }
    });
  });

  describe("live updates", () => {
    it("listens with the member's token and refetches when someone adds a memory", async () => {
      const backend = new FakeMemoryBackend([picnic()]);
      renderHome(backend);
      await screen.findByText("1 memories");
      await waitFor(() => expect(backend.events.connections).toHaveLength(1));
      expect(backend.events.latest.headers.get("authorization")).toMatch(/^Bearer access-token-for-/);
      const tagRequests = backend.requests("GET", "/api/v1/tags").length;

      const added: Memory = lisbon();
      backend.memories = [added, ...backend.memories];
      backend.events.latest.send("memory.created", { id: added.id, actor: "someone-else" }, "e1");

      expect(await screen.findByRole("link", { name: "Lisbon weekend" })).toBeInTheDocument();
      expect(screen.getByText("2 memories")).toBeInTheDocument();
      await waitFor(() => expect(backend.requests("GET", "/api/v1/tags").length).toBeGreaterThan(tagRequests));
    });

    it("reloads on resync and closes the stream on sign-out", async () => {
      const client = signedInAs({ email: "alex@example.com" });
      const backend = new FakeMemoryBackend([picnic()]);
      const { user } = renderHome(backend, client);
      await screen.findByText("1 memories");
      await waitFor(() => expect(backend.events.connections).toHaveLength(1));

      backend.memories = [firstDate(), ...backend.memories];
      backend.events.latest.write("event: resync\ndata: {}\n\n");
      expect(await screen.findByRole("link", { name: "Our first date" })).toBeInTheDocument();

      const connection = backend.events.latest;
      await user.click(screen.getByRole("button", { name: "Sign Out" }));
      await screen.findByRole("heading", { name: "Welcome to Memory Box" });
      expect(connection.aborted).toBe(true);
      expect(backend.events.connections).toHaveLength(1);
    });
  });

  describe("timeline", () => {
    /** Memories in three months over two years, and one undated, in the API's order. */
    const history = () => [
      fakeMemory({ title: "Midsummer", memory_date: "2024-06-21", tags: ["summer"] }),
      fakeMemory({ title: "Solstice hike", memory_date: "2024-06-20", tags: ["hike"] }),
      fakeMemory({ title: "May picnic", memory_date: "2024-05-04", tags: ["summer"] }),
      fakeMemory({ title: "Winter walk", memory_date: "2023-12-30", tags: ["hike"] }),
      fakeMemory({ title: "Our first date", memory_date: null, tags: ["us"] }),
    ];

    /** The wide screen's column (the narrow screen's select is the other "Timeline" in the document). */
    async function timelineColumn(): Promise<HTMLElement> {
      const navigations = await screen.findAllByRole("navigation", { name: "Timeline" });
      const column = navigations.find((nav) => within(nav).queryByRole("combobox") === null);
      if (!column) throw new Error("no timeline column");
      return column;
    }

    it("counts each month under its year, then the undated, beside the list", async () => {
      renderHome(new FakeMemoryBackend(history()));

      const column = within(await timelineColumn());
      expect(column.getAllByRole("heading", { level: 2 }).map((heading) => heading.textContent)).toEqual(["2024", "2023"]);
      expect(column.getAllByRole("button").map((button) => button.textContent)).toEqual([
        "Newest",
        "Jun2",
        "May1",
        "Dec1",
        "Undated1",
      ]);
      expect(column.getByRole("button", { name: "June 2024, 2 memories" })).toBeInTheDocument();
      expect(column.getByRole("button", { name: "December 2023, 1 memory" })).toBeInTheDocument();
      expect(column.getByRole("button", { name: "Newest" })).toHaveAttribute("aria-current", "true");

      const select = screen.getByRole("combobox", { name: "Jump to" });
      expect(
        within(select)
          .getAllByRole("option")
          .map((option) => option.textContent),
      ).toEqual(["Newest", "Jun 2024 (2)", "May 2024 (1)", "Dec 2023 (1)", "Undated (1)"]);
    });

    it("shows no index while the dated memories are all in one month", async () => {
      const backend = new FakeMemoryBackend([
        fakeMemory({ title: "Midsummer", memory_date: "2024-06-21" }),
        fakeMemory({ title: "Solstice hike", memory_date: "2024-06-20" }),
        fakeMemory({ title: "Our first date", memory_date: null }),
      ]);
      renderHome(backend);

      await screen.findByText("3 memories");
      await waitFor(() => expect(backend.requests("GET", "/api/v1/memories/timeline")).toHaveLength(1));
      expect(screen.queryByRole("navigation", { name: "Timeline" })).not.toBeInTheDocument();
    });

    it("starts the list at the chosen month, pages on from there, and goes back to the newest", async () => {
      const backend = new FakeMemoryBackend(history());
      backend.pageSize = 2;
      const { user } = renderHome(backend);

      await user.click(within(await timelineColumn()).getByRole("button", { name: "May 2024, 1 memory" }));

      await waitFor(() => expect(cardTitles()).toEqual(["May picnic", "Winter walk"]));
      expect(backend.listQueries().at(-1)).toEqual({ from: "2024-05" });
      expect(within(await timelineColumn()).getByRole("button", { name: "May 2024, 1 memory" })).toHaveAttribute(
        "aria-current",
        "true",
      );
      expect(within(await timelineColumn()).getByRole("button", { name: "Newest" })).not.toHaveAttribute("aria-current");
      // The count is the collection's, wherever the list starts.
      expect(screen.getByText("5 memories")).toBeInTheDocument();

      await user.click(screen.getByRole("button", { name: "Load more" }));
      await waitFor(() => expect(cardTitles()).toEqual(["May picnic", "Winter walk", "Our first date"]));
      expect(backend.listQueries().at(-1)).toEqual({ cursor: "after-4" });

      await user.click(within(await timelineColumn()).getByRole("button", { name: "Newest" }));
      await waitFor(() => expect(cardTitles()).toEqual(["Midsummer", "Solstice hike"]));
      expect(within(await timelineColumn()).getByRole("button", { name: "Newest" })).toHaveAttribute("aria-current", "true");
    });

    it("jumps from the narrow screen's select too, the undated ones included", async () => {
      const backend = new FakeMemoryBackend(history());
      const { user } = renderHome(backend);

      await user.selectOptions(await screen.findByRole("combobox", { name: "Jump to" }), "Undated (1)");

      await waitFor(() => expect(cardTitles()).toEqual(["Our first date"]));
      expect(backend.listQueries().at(-1)).toEqual({ from: "undated" });
      expect(screen.getByRole("combobox", { name: "Jump to" })).toHaveValue("undated");
    });

    it("follows the search and tag, and a new tag or search clears the jump", async () => {
      const backend = new FakeMemoryBackend(history());
      const { user } = renderHome(backend);
      await user.click(within(await timelineColumn()).getByRole("button", { name: "May 2024, 1 memory" }));
      await waitFor(() => expect(cardTitles()[0]).toBe("May picnic"));

      await user.click(screen.getByRole("button", { name: "hike" }));

      await waitFor(() => expect(cardTitles()).toEqual(["Solstice hike", "Winter walk"]));
      expect(backend.listQueries().at(-1)).toEqual({ tag: "hike" });
      expect(backend.requests("GET", "/api/v1/memories/timeline").at(-1)?.search).toBe("?tag=hike");
      await waitFor(async () =>
        expect(
          within(await timelineColumn())
            .getAllByRole("button")
            .map((button) => button.textContent),
        ).toEqual(["Newest", "Jun1", "Dec1"]),
      );
      expect(within(await timelineColumn()).getByRole("button", { name: "Newest" })).toHaveAttribute("aria-current", "true");
      // Each year links to its book, with the tag chosen (issue #35).
      expect(within(await timelineColumn()).getByRole("link", { name: "Print 2024 as a book" })).toHaveAttribute(
        "href",
        "/book/2024?tag=hike",
      );

      await user.click(within(await timelineColumn()).getByRole("button", { name: "December 2023, 1 memory" }));
      await waitFor(() => expect(cardTitles()).toEqual(["Winter walk"]));
      await user.type(screen.getByRole("searchbox", { name: "Search memories" }), "hike");

      await waitFor(() => expect(backend.listQueries().at(-1)).toEqual({ q: "hike", tag: "hike" }));
      expect(await screen.findByText("2 of 5 memories")).toBeInTheDocument();
      await waitFor(() => expect(cardTitles()).toEqual(["Solstice hike", "Winter walk"]));
    });

    it("is refreshed with the list by live updates", async () => {
      const backend = new FakeMemoryBackend(history().slice(0, 2));
      renderHome(backend);
      await screen.findByText("2 memories");
      await waitFor(() => expect(backend.events.connections).toHaveLength(1));
      expect(screen.queryByRole("navigation", { name: "Timeline" })).not.toBeInTheDocument();

      const older = fakeMemory({ title: "Winter walk", memory_date: "2023-12-30" });
      backend.memories = [...backend.memories, older];
      backend.events.latest.send("memory.created", { id: older.id, actor: "someone-else" }, "e1");

      expect(within(await timelineColumn()).getByRole("button", { name: "December 2023, 1 memory" })).toBeInTheDocument();
    });
  });
});
