import type { Memory } from "@memory-box/contract";
import { screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { paintHome } from "@/app/first-screen/paint-home";
import { isPlainHome, preloadFirstPhotos, startFirstScreen } from "@/app/first-screen/start";
import { holdAppUntilFirstScreen, isFirstScreenShown, resetFirstScreen, whenAppMayStart } from "@/lib/first-screen";
import { calendarDate, formatMemoryDate } from "@/features/memories/utils/memory-dates";
import { localCalendarDate } from "@/features/memories/utils/on-this-day";
import { authStorageKey } from "@/lib/stored-session";
import { fakeAccessToken, FakeAuthClient, fakeSession, fakeUser } from "@/testing/fake-auth-client";
import { FakeMemoryBackend } from "@/testing/fake-memory-backend";
import { fakeMemory, fakePhoto } from "@/testing/memory-fixtures";
import { renderApp } from "@/testing/render-app";

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Memories covering every shape a card takes: photo counts, lone photo shapes, missing fields. */
function collection(): Memory[] {
  return [
    fakeMemory({
      title: "Lisbon weekend",
      content: "Trams, tiles\nand pastéis de nata.",
      memory_date: "2023-06-01",
      tags: ["travel", "food", "city", "summer", "friends", "trams"],
      profiles: { display_name: "Alex Doe" },
      photos: Array.from({ length: 6 }, (_, index) => fakePhoto({ width: 1200 + index, height: 800 })),
      comment_count: 2,
      reactions: [
        { emoji: "❤️", count: 3 },
        { emoji: "🎉", count: 1 },
      ],
    }),
    fakeMemory({
      title: "Panorama",
      memory_date: "2023-05-20",
      tags: ["hike"],
      photos: [fakePhoto({ width: 6000, height: 1000 })],
    }),
    fakeMemory({
      title: "Portrait",
      photos: [fakePhoto({ width: 800, height: 1200 })],
      profiles: null,
      reactions: [{ emoji: "😂", count: 1 }],
    }),
    fakeMemory({
      title: "Two photos",
      // A video and a Live Photo: their marks are painted as React draws them.
      photos: [
        fakePhoto({ kind: "video", duration_seconds: 42, video_url: "/video.mp4", video_content_type: "video/mp4" }),
        fakePhoto({ kind: "live", duration_seconds: 2, video_url: "/motion.mp4" }),
      ],
      tags: [],
      comment_count: 1,
    }),
    fakeMemory({ title: "<b>Not markup</b>", content: "<img src=x onerror=alert(1)>" }),
    ...Array.from({ length: 4 }, (_, index) =>
      fakeMemory({
        title: `Filler ${index}`,
        // The first with a video being prepared and one that could not be.
        photos:
          index === 0
            ? [
                fakePhoto(),
                fakePhoto({ kind: "video", status: "processing", duration_seconds: 12 }),
                fakePhoto({ kind: "video", status: "failed", error_code: "corrupt_video" }),
              ]
            : [fakePhoto(), fakePhoto(), fakePhoto()],
      }),
    ),
  ];
}

/** Markup without what differs by design: React's generated ids (and the labels pointing at them). */
function comparable(element: Element): string {
  const copy = element.cloneNode(true) as Element;
  for (const node of copy.querySelectorAll("[id], [for]")) {
    node.removeAttribute("id");
    node.removeAttribute("for");
  }
  // Attribute order is not layout: sort each element's attributes.
  for (const node of [copy, ...copy.querySelectorAll("*")]) {
    const attributes = [...node.attributes]
      .map(({ name, value }) => [name, value] as const)
      .sort(([a], [b]) => a.localeCompare(b));
    for (const [name] of attributes) node.removeAttribute(name);
    for (const [name, value] of attributes) node.setAttribute(name, value);
  }
  return copy.outerHTML;
}

function storedSession(overrides: Record<string, unknown> = {}) {
  const session = fakeSession(fakeUser({ email: "alex@example.com", user_metadata: { full_name: "Alex Doe" } }));
  return { ...session, ...overrides };
}

function storageWith(value: unknown): Pick<Storage, "getItem"> {
  return { getItem: (key) => (key === authStorageKey && value !== undefined ? JSON.stringify(value) : null) };
}

const home = { pathname: "/", search: "", hash: "" };

describe("the painted home", () => {
  it('is the markup React renders for the same data, element for element, the box and "On this day" included', async () => {
    const backend = new FakeMemoryBackend(collection());
    backend.pageSize = 6;
    const today = localCalendarDate();
    backend.box = {
      name: "Ann & <b>Ben</b>",
      cover: {
        id: "6f1b2c3d-0000-4000-8000-0000000000c0",
        url: "/storage/v1/object/authenticated/memory-photos/c0.display.jpg",
        thumbnail_url: "/storage/v1/object/authenticated/memory-photos/c0.thumb.webp",
        width: 400,
        height: 300,
        placeholder: "AAAA",
      },
      together_since: `${Number(today.slice(0, 4)) - 7}${today.slice(4)}`,
      updated_at: "2026-11-28T10:00:00.000Z",
      updated_by: null,
    };
    backend.onThisDayGroups = [
      {
        years_ago: 1,
        memories: [
          fakeMemory({ title: "A year ago", memory_date: "2025-11-26", photos: [fakePhoto()] }),
          fakeMemory({
            title: "A year ago, filmed",
            photos: [fakePhoto({ kind: "video", duration_seconds: 3723, video_url: "/v.mp4" })],
          }),
        ],
      },
      {
        years_ago: 4,
        memories: [
          fakeMemory({ title: "<i>Four</i> years ago", memory_date: null, content: "No photo, <b>words</b>", photos: [] }),
        ],
      },
    ];
    backend.install();
    const session = storedSession();
    renderApp("/", { client: new FakeAuthClient({ session }) });
    await screen.findByRole("link", { name: "Filler 0" });
    // The timeline index comes in its own request, after the painted screen has given way: it
    // fills the space the painted screen keeps for it (in the count's row and beside the cards).
    await screen.findAllByRole("navigation", { name: "Timeline" });
    const rendered = document.querySelector(".min-h-svh.bg-muted")!.cloneNode(true) as Element;
    for (const timeline of rendered.querySelectorAll('nav[aria-label="Timeline"]')) timeline.remove();

    const painted = paintHome(document, {
      user: session.user,
      page: backend.list(new URLSearchParams()),
      tags: backend.tags(),
      onThisDay: backend.onThisDay("2026-11-26"),
      box: backend.box,
      today,
    });
    expect([...painted.querySelectorAll("section h2")].map((heading) => heading.textContent)).toEqual([
      "Ann & <b>Ben</b>",
      "On this day",
    ]);
    expect(painted.textContent).toContain("7 years today");

    // Element by element, so a difference names its element rather than a page of markup.
    const paintedElements = comparable(painted).split("><");
    const renderedElements = comparable(rendered).split("><");
    for (const [index, element] of renderedElements.entries()) expect(paintedElements[index]).toBe(element);
    expect(paintedElements).toHaveLength(renderedElements.length);
  });

  it("paints the first screen's cards only; the app brings the rest", () => {
    const memories = Array.from({ length: 30 }, (_, index) => fakeMemory({ title: `Memory ${index + 1}` }));
    const painted = paintHome(document, {
      user: storedSession().user,
      page: { items: memories, matched: 30, total: 40, next_cursor: "next" },
      tags: { tags: [] },
      onThisDay: { date: "2026-11-26", window_days: 3, groups: [] },
      box: undefined,
      today: "2026-11-26",
    });
    expect([...painted.querySelectorAll("h2 a")].map((link) => link.textContent)).toEqual(
      memories.slice(0, 6).map((memory) => memory.title),
    );
    expect(painted.textContent).toContain("40 memories");
    expect(painted.textContent).not.toContain("Load more");
  });

  it("writes dates as the en-US date formatter does, without one", () => {
    const intl = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric" });
    const dates = [
      ...Array.from({ length: 12 }, (_, month) => `2024-${String(month + 1).padStart(2, "0")}-0${(month % 9) + 1}`),
      "1999-12-31",
      "2023-02-29",
      "0999-06-15",
      "not a date",
    ];
    for (const date of dates) {
      const day = calendarDate(date);
      expect(formatMemoryDate(date)).toBe(day ? intl.format(day) : date);
    }
  });

  it("puts text in as text", () => {
    const backend = new FakeMemoryBackend(collection());
    const painted = paintHome(document, {
      user: storedSession().user,
      page: backend.list(new URLSearchParams()),
      tags: backend.tags(),
      onThisDay: backend.onThisDay("2026-11-26"),
      box: backend.box,
      today: "2026-11-26",
    });
    expect(painted.querySelector("img[src=x]")).toBeNull();
    expect(painted.textContent).toContain("<b>Not markup</b>");
  });
});

describe("starting the first screen", () => {
  let root: HTMLElement;
  beforeEach(() => {
    resetFirstScreen();
    root = document.createElement("div");
    root.id = "root";
    document.body.append(root);
  });
  afterEach(() => {
    resetFirstScreen();
    root.remove();
  });

  const start = (storage: Pick<Storage, "getItem">, location = home) =>
    startFirstScreen({ location, storage, document, nowSeconds: nowSeconds() });

  it("is for home itself only: no filter in the query string, no session arriving in the fragment", () => {
    expect(isPlainHome(home)).toBe(true);
    expect(isPlainHome({ ...home, search: "?q=lisbon" })).toBe(false);
    expect(isPlainHome({ ...home, search: "?tag=travel" })).toBe(false);
    expect(isPlainHome({ ...home, hash: "#access_token=abc" })).toBe(false);
    expect(isPlainHome({ ...home, pathname: "/memory/1" })).toBe(false);
  });

  it.each([
    ["no stored session", undefined],
    ["a stored value that is not a session", "not json at all"],
    ["an expired access token", storedSession({ expires_at: nowSeconds() - 10 })],
    ["an access token auth-js is about to refresh", storedSession({ expires_at: nowSeconds() + 60 })],
    [
      "a session still owing its second factor",
      storedSession({
        access_token: fakeAccessToken({ aal: "aal1" }),
        user: fakeUser({ factors: [{ id: "f", factor_type: "totp", status: "verified", created_at: "", updated_at: "" }] }),
      }),
    ],
  ])("asks nothing and paints nothing with %s", async (_case, stored) => {
    const backend = new FakeMemoryBackend(collection()).install();
    expect(await start(storageWith(stored))).toBe(false);
    expect(backend.fetch).not.toHaveBeenCalled();
    expect(document.getElementById("first-screen")).toBeNull();
    expect(root.hidden).toBe(false);
  });

  it("asks nothing on a filtered URL", async () => {
    const backend = new FakeMemoryBackend(collection()).install();
    expect(await start(storageWith(storedSession()), { ...home, search: "?q=lisbon" })).toBe(false);
    expect(backend.fetch).not.toHaveBeenCalled();
  });

  it.each([
    [403, "insufficient_aal"],
    [401, "not_authenticated"],
    [500, "unexpected_failure"],
  ])("paints nothing when the API answers %i", async (status, code) => {
    const backend = new FakeMemoryBackend(collection());
    backend.overrides.set("GET /api/v1/memories", () => Response.json({ code, message: code }, { status }));
    backend.install();
    expect(await start(storageWith(storedSession()))).toBe(false);
    expect(document.getElementById("first-screen")).toBeNull();
  });

  it('paints home without "On this day" when only that answer failed; the app asks for it again', async () => {
    const backend = new FakeMemoryBackend(collection());
    backend.overrides.set("GET /api/v1/memories/on-this-day", () =>
      Response.json({ code: "unexpected_failure", message: "unexpected_failure" }, { status: 500 }),
    );
    backend.install();
    expect(await start(storageWith(storedSession()))).toBe(true);
    const painted = document.getElementById("first-screen")!;
    expect(painted.textContent).toContain("Lisbon weekend");
    expect(painted.textContent).not.toContain("On this day");
  });

  it("paints nothing for an empty collection (the app's own empty state shows instead)", async () => {
    new FakeMemoryBackend([]).install();
    expect(await start(storageWith(storedSession()))).toBe(false);
  });

  it("asks with the stored token, exactly as home's queries ask, and puts no token in the page", async () => {
    const backend = new FakeMemoryBackend(collection()).install();
    const stored = storedSession();
    expect(await start(storageWith(stored))).toBe(true);

    expect(backend.fetch.mock.calls.map(([input]) => input)).toEqual([
      "/api/v1/memories",
      "/api/v1/tags",
      `/api/v1/memories/on-this-day?date=${localCalendarDate()}`,
      "/api/v1/box",
    ]);
    for (const [, init] of backend.fetch.mock.calls) {
      expect(new Headers(init?.headers).get("authorization")).toBe(`Bearer ${stored.access_token}`);
    }
    const painted = document.getElementById("first-screen")!;
    expect(painted.inert).toBe(true);
    expect(root.hidden).toBe(true);
    expect(painted.outerHTML).not.toContain(stored.access_token);
    expect(painted.outerHTML).not.toContain(stored.refresh_token);
    expect(painted.textContent).toContain("Welcome back, Alex Doe!");
  });

  it("hands its answers to the app, which replaces the painted screen without asking again", async () => {
    const backend = new FakeMemoryBackend(collection()).install();
    // The live stream does not open during this test (its retries wait 1 s, then 2 s): its opening is the next test's.
    backend.events.next.push(new TypeError("Failed to fetch"), new TypeError("Failed to fetch"));
    const stored = storedSession();
    expect(await start(storageWith(stored))).toBe(true);

    renderApp("/", { client: new FakeAuthClient({ session: stored }) });
    await screen.findByRole("link", { name: "Lisbon weekend" });
    await waitFor(() => expect(isFirstScreenShown()).toBe(false));
    expect(document.getElementById("first-screen")).toBeNull();
    expect(root.hidden).toBe(false);
    expect(backend.requests("GET", "/api/v1/memories")).toHaveLength(1);
    expect(backend.requests("GET", "/api/v1/tags")).toHaveLength(1);
    expect(backend.requests("GET", "/api/v1/box")).toHaveLength(1);
  });

  it("asks again once the live stream opens: a change made while the app was loading reached no stream", async () => {
    const backend = new FakeMemoryBackend(collection()).install();
    const stored = storedSession();
    expect(await start(storageWith(stored))).toBe(true);
    backend.memories[0]!.title = "Lisbon weekend, renamed meanwhile";

    renderApp("/", { client: new FakeAuthClient({ session: stored }) });
    await waitFor(() => expect(backend.events.connections).toHaveLength(1));
    await screen.findByRole("link", { name: "Lisbon weekend, renamed meanwhile" });
    expect(backend.requests("GET", "/api/v1/memories")).toHaveLength(2);
  });

  it("gives way at once when the app shows something else than home", async () => {
    new FakeMemoryBackend(collection()).install();
    const stored = storedSession();
    expect(await start(storageWith(stored))).toBe(true);
    // The stored session turned out to be gone: auth-js reports no session.
    renderApp("/", { client: new FakeAuthClient({ session: null }) });
    await screen.findByText("Welcome to Memory Box");
    expect(document.getElementById("first-screen")).toBeNull();
    expect(root.hidden).toBe(false);
  });
});

describe("the first script and the app", () => {
  beforeEach(() => resetFirstScreen());
  afterEach(() => resetFirstScreen());

  it("asks for the photos of the first screen's cards, each once, as the painted cards show them", () => {
    const memories = collection();
    const images = preloadFirstPhotos(document, {
      items: memories,
      matched: memories.length,
      total: memories.length,
      next_cursor: null,
    });
    const expected = memories.slice(0, 6).flatMap((memory) => memory.photos.slice(0, 4).map((photo) => photo.thumbnail_url));
    expect(images.map((image) => image.getAttribute("src"))).toEqual(expected);
    expect(new Set(expected).size).toBe(expected.length);
    expect(images.every((image) => image.fetchPriority === "high")).toBe(true);
  });

  it("lets the app start at once on a page without a first script", async () => {
    await expect(whenAppMayStart(null)).resolves.toBeUndefined();
  });

  it("makes an app that runs first wait for the first script (it loads async), then for what it decided", async () => {
    const script = document.createElement("script");
    let appMayStart = false;
    void whenAppMayStart(script).then(() => (appMayStart = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(appMayStart).toBe(false);

    let decide: (shown: boolean) => void = () => undefined;
    holdAppUntilFirstScreen(new Promise<boolean>((resolve) => (decide = resolve)));
    script.dispatchEvent(new Event("load"));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(appMayStart).toBe(false);
    decide(false);
    await waitFor(() => expect(appMayStart).toBe(true));
  });

  it("lets the app start when the first script failed to load", async () => {
    const script = document.createElement("script");
    const started = whenAppMayStart(script);
    script.dispatchEvent(new Event("error"));
    await expect(started).resolves.toBeUndefined();
  });
});
