import type { MemoryPage } from "@memory-box/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { paths } from "@/config/paths";
import { FakeAuthClient, fakeSession } from "@/testing/fake-auth-client";
import { fakeMemory, fakePhoto } from "@/testing/memory-fixtures";
import { renderApp } from "@/testing/render-app";
import { apiError, deferred, stubMemoryApi, unsetBox } from "@/testing/stub-memory-api";

const signedIn = () => new FakeAuthClient({ session: fakeSession() });

const page = (items: MemoryPage["items"]): MemoryPage => ({
  items,
  next_cursor: null,
  matched: items.length,
  total: items.length,
});

describe("a year's book", () => {
  it("shows a cover, the contents by month and a page per memory, oldest first, photos cover first", async () => {
    const photos = [fakePhoto(), fakePhoto()];
    stubMemoryApi({
      "GET /api/v1/memories": () =>
        page([
          fakeMemory({ title: "Fireworks", memory_date: "1990-12-31", profiles: { display_name: "Ben" } }),
          fakeMemory({
            title: "The lake",
            memory_date: "1990-03-02",
            content: "Cold water.",
            photos,
            cover_photo_id: photos[1]!.id,
            place: { name: "Sintra", latitude: 38.8, longitude: -9.39, country_code: "PT" },
          }),
          fakeMemory({ title: "Last year", memory_date: "1989-12-30" }),
        ]),
      "GET /api/v1/memories/timeline": () => ({ months: [], undated: 2 }),
    });
    renderApp(paths.bookYear(1990), { client: signedIn() });

    expect(await screen.findByRole("heading", { level: 1, name: "Our memories" })).toBeInTheDocument();
    expect(screen.getByText("1990")).toBeInTheDocument();
    // What "Save as PDF" names the file.
    expect(document.title).toBe("Our memories 1990");
    expect(screen.getByText("Alex and Ben")).toBeInTheDocument();
    const contents = screen.getByRole("region", { name: "Contents" });
    expect(
      within(contents)
        .getAllByRole("heading", { level: 3 })
        .map((heading) => heading.textContent),
    ).toEqual(["March", "December"]);
    expect(within(contents).getByText("2 memories without a date are not in this book.")).toBeInTheDocument();
    expect(screen.getAllByRole("heading", { level: 2 }).map((heading) => heading.textContent)).toEqual([
      "Contents",
      "The lake",
      "Fireworks",
    ]);
    expect(screen.queryByText("Last year")).not.toBeInTheDocument();
    expect(screen.getByText("Sintra · By Alex")).toBeInTheDocument();
    expect(screen.getByText("March 2, 1990")).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "The lake, photo 1" })).toHaveAttribute("src", photos[1]!.url);
    expect(screen.getByRole("img", { name: "The lake, photo 2" })).toHaveAttribute("src", photos[0]!.url);
    expect(await screen.findByRole("button", { name: "Print or save as PDF" })).toBeEnabled();
  });

  it("says it is loading, then that a year without memories has none", async () => {
    const answer = deferred<MemoryPage>();
    stubMemoryApi({ "GET /api/v1/memories": () => answer.promise });
    renderApp(paths.bookYear(2025), { client: signedIn() });
    expect(await screen.findByText("Loading the book...")).toBeInTheDocument();
    answer.resolve(page([]));
    expect(await screen.findByRole("heading", { level: 1, name: "No memories in 2025" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Print or save as PDF" })).not.toBeInTheDocument();
  });

  it("says when it could not be loaded, and tries again", async () => {
    let fail = true;
    const { calls } = stubMemoryApi({
      "GET /api/v1/memories": () =>
        fail ? apiError(500, "internal_error") : page([fakeMemory({ title: "Back", memory_date: "2025-01-01" })]),
    });
    const { user } = renderApp(paths.bookYear(2025), { client: signedIn() });
    expect(await screen.findByRole("heading", { level: 1, name: "The book could not be loaded." })).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("heading", { level: 2, name: "Back" })).toBeInTheDocument();
    expect(calls("GET /api/v1/memories")).toHaveLength(2);
  });

  it("says when the address names no book", async () => {
    stubMemoryApi({});
    renderApp("/book?from=2025-13-01", { client: signedIn() });
    expect(await screen.findByRole("heading", { level: 1, name: "There is no book at this address" })).toBeInTheDocument();
  });

  it("is for members: a signed-out visit goes to sign-in", async () => {
    stubMemoryApi({});
    const { router } = renderApp(paths.bookYear(1990));
    await screen.findByRole("button", { name: /sign in/i });
    expect(router.state.location.pathname).toBe(paths.auth);
  });
});

describe("a book of a named box (ADR 0065)", () => {
  it("takes the box's name as its title", async () => {
    stubMemoryApi({
      "GET /api/v1/memories": () => page([fakeMemory({ title: "Fireworks", memory_date: "1990-12-31" })]),
      "GET /api/v1/memories/timeline": () => ({ months: [], undated: 0 }),
      "GET /api/v1/box": () => ({ ...unsetBox, name: "Ann & Ben" }),
    });
    renderApp(paths.bookYear(1990), { client: signedIn() });

    expect(await screen.findByRole("heading", { level: 1, name: "Ann & Ben" })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe("Ann & Ben 1990"));
  });
});
