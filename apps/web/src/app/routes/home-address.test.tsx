import { act, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";

import { FakeAuthClient, fakeSession, fakeUser } from "@/testing/fake-auth-client";
import { FakeMemoryBackend } from "@/testing/fake-memory-backend";
import { fakeMemory } from "@/testing/memory-fixtures";
import { currentPath, renderApp } from "@/testing/render-app";

/** Issue #34: home's search and chosen tags live in its address, and Back from a memory comes back to the same place. */
function renderHomeAt(path: string, backend: FakeMemoryBackend) {
  backend.install();
  const client = new FakeAuthClient({ session: fakeSession(fakeUser({ email: "alex@example.com" })) });
  return { ...renderApp(path, { client }), backend };
}

const memories = () => [
  fakeMemory({ title: "Lisbon beach", memory_date: "2024-07-01", tags: ["travel", "beach"] }),
  fakeMemory({ title: "Porto food", memory_date: "2024-06-01", tags: ["travel", "food"] }),
  fakeMemory({ title: "Family beach", memory_date: "2023-08-15", tags: ["beach", "family"] }),
];

const cardTitles = () =>
  within(screen.getByRole("list", { name: "Memories" }))
    .getAllByRole("heading", { level: 2 })
    .map((heading) => heading.textContent ?? "");

/** The tag params of the last list request (the fake's listQueries keeps one value per name). */
const lastTags = (backend: FakeMemoryBackend) => backend.requests("GET", "/api/v1/memories").at(-1)!.searchParams.getAll("tag");

// The list saves its position as it unmounts, which may follow a test's end: each starts clean.
beforeEach(() => {
  sessionStorage.clear();
  Object.defineProperty(window, "scrollY", { value: 0, configurable: true });
});

describe("home's filters in the address", () => {
  it("opens a bookmarked address filtered: its search in the field, its tags pressed", async () => {
    const { backend } = renderHomeAt("/?q=lisbon&tag=travel&tag=beach", new FakeMemoryBackend(memories()));
    expect(await screen.findByText("1 of 3 memories")).toBeInTheDocument();
    expect(cardTitles()).toEqual(["Lisbon beach"]);
    expect(screen.getByRole("searchbox", { name: "Search memories" })).toHaveValue("lisbon");
    expect(screen.getByRole("button", { name: "travel" })).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByRole("button", { name: "beach" })).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByRole("button", { name: "All Tags" })).toHaveAttribute("aria-pressed", "false");
    expect(lastTags(backend)).toEqual(["travel", "beach"]);
  });

  it("chooses several tags at once into the address; a second press takes one out; All Tags clears them", async () => {
    const { user, router, backend } = renderHomeAt("/", new FakeMemoryBackend(memories()));
    await screen.findByText("3 memories");

    await user.click(screen.getByRole("button", { name: "beach" }));
    await user.click(screen.getByRole("button", { name: "travel" }));
    expect(await screen.findByText("1 of 3 memories")).toBeInTheDocument();
    expect(cardTitles()).toEqual(["Lisbon beach"]);
    expect(currentPath(router)).toBe("/?tag=beach&tag=travel");
    expect(lastTags(backend)).toEqual(["beach", "travel"]);

    await user.click(screen.getByRole("button", { name: "travel" }));
    expect(await screen.findByText("2 of 3 memories")).toBeInTheDocument();
    expect(currentPath(router)).toBe("/?tag=beach");

    await user.click(screen.getByRole("button", { name: "All Tags" }));
    expect(await screen.findByText("3 memories")).toBeInTheDocument();
    expect(currentPath(router)).toBe("/");
  });

  it("writes the search into the address once typing pauses, replacing the entry, and follows Back", async () => {
    const { user, router } = renderHomeAt("/", new FakeMemoryBackend(memories()));
    await screen.findByText("3 memories");
    await user.click(screen.getByRole("button", { name: "family" }));
    await waitFor(() => expect(currentPath(router)).toBe("/?tag=family"));

    await user.type(screen.getByRole("searchbox", { name: "Search memories" }), "beach");
    await waitFor(() => expect(currentPath(router)).toBe("/?tag=family&q=beach"));
    expect(await screen.findByText("1 of 3 memories")).toBeInTheDocument();

    // One Back leaves the search with its entry (typing replaced it), back to the unfiltered list.
    await act(() => router.navigate(-1));
    expect(await screen.findByText("3 memories")).toBeInTheDocument();
    expect(currentPath(router)).toBe("/");
    expect(screen.getByRole("searchbox", { name: "Search memories" })).toHaveValue("");
  });

  it("leaves out what the API would refuse in a mistyped address: an empty, over-long or repeated tag", async () => {
    const { backend } = renderHomeAt(`/?tag=&tag=${"x".repeat(51)}&tag=beach&tag=BEACH`, new FakeMemoryBackend(memories()));
    expect(await screen.findByText("2 of 3 memories")).toBeInTheDocument();
    expect(lastTags(backend)).toEqual(["beach"]);
  });

  it("comes back from a memory with Back to the same filtered list at the same scroll position", async () => {
    const { user, router } = renderHomeAt("/?tag=beach", new FakeMemoryBackend(memories()));
    expect(await screen.findByText("2 of 3 memories")).toBeInTheDocument();
    const scrolls: number[] = [];
    window.scrollTo = ((options: ScrollToOptions) => {
      scrolls.push(options.top ?? 0);
      Object.defineProperty(window, "scrollY", { value: options.top ?? 0, configurable: true });
    }) as typeof window.scrollTo;
    Object.defineProperty(window, "scrollY", { value: 640, configurable: true });
    window.dispatchEvent(new Event("scroll"));

    await user.click(screen.getByRole("link", { name: "Family beach" }));
    await waitFor(() => expect(router.state.location.pathname).toMatch(/^\/memory\//));
    Object.defineProperty(window, "scrollY", { value: 0, configurable: true });

    await act(() => router.navigate(-1));
    expect(await screen.findByText("2 of 3 memories")).toBeInTheDocument();
    expect(currentPath(router)).toBe("/?tag=beach");
    await waitFor(() => expect(scrolls).toEqual([640]));
  });

  it("starts the list at the top when it is opened anew rather than gone back to", async () => {
    const scrolls: number[] = [];
    window.scrollTo = ((options: ScrollToOptions) => scrolls.push(options.top ?? 0)) as typeof window.scrollTo;
    const { router } = renderHomeAt("/", new FakeMemoryBackend(memories()));
    expect(await screen.findByText("3 memories")).toBeInTheDocument();
    Object.defineProperty(window, "scrollY", { value: 900, configurable: true });
    window.dispatchEvent(new Event("scroll"));

    await act(() => router.navigate("/settings"));
    await act(() => router.navigate("/"));
    expect(await screen.findByText("3 memories")).toBeInTheDocument();
    expect(scrolls).toEqual([]);
  });
});
