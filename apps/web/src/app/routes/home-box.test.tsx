import type { BoxSettings } from "@memory-box/contract";
import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { FakeAuthClient, fakeSession, fakeUser } from "@/testing/fake-auth-client";
import { FakeMemoryBackend } from "@/testing/fake-memory-backend";
import { fakeMemory } from "@/testing/memory-fixtures";
import { renderApp } from "@/testing/render-app";

/** Home's header of the box (issue #34 "Their box", ADR 0065). */
const unset: BoxSettings = { name: null, cover: null, together_since: null, updated_at: null, updated_by: null };
const cover = {
  id: "6f1b2c3d-0000-4000-8000-0000000000c0",
  url: "/storage/v1/object/authenticated/memory-photos/c0.display.jpg",
  thumbnail_url: "/storage/v1/object/authenticated/memory-photos/c0.thumb.webp",
  width: 400,
  height: 300,
  placeholder: "AAAA",
};

/** Today on this device's calendar, `years` back. */
function todayYearsAgo(years: number): string {
  const now = new Date();
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${now.getFullYear() - years}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The first of a month half a year away from this one, `years` back: never today's month and day. */
function anotherDayYearsAgo(years: number): string {
  const now = new Date();
  return `${now.getFullYear() - years}-${String(((now.getMonth() + 6) % 12) + 1).padStart(2, "0")}-01`;
}

function renderHome(box: BoxSettings) {
  const backend = new FakeMemoryBackend([fakeMemory({ title: "Picnic by the lake" })]);
  backend.box = box;
  backend.install();
  const client = new FakeAuthClient({ session: fakeSession(fakeUser({ email: "alex@example.com" })) });
  return { ...renderApp("/", { client }), backend };
}

describe("home's header of the box", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("adds nothing to home while nothing is set: the same headings, texts and images as before", async () => {
    const { backend } = renderHome(unset);
    await screen.findByText("1 memories");
    await waitFor(() => expect(backend.requests("GET", "/api/v1/box")).toHaveLength(1));
    expect(screen.getAllByRole("heading", { level: 1 }).map((heading) => heading.textContent)).toEqual(["Memory Box"]);
    expect(screen.getByText("Welcome back, alex!")).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Our box" })).not.toBeInTheDocument();
    expect(screen.queryByText(/today$/)).not.toBeInTheDocument();
  });

  it("shows the box's name and cover under the greeting, the spec's texts unchanged", async () => {
    renderHome({ ...unset, name: "Ann & Ben", cover });
    const region = await screen.findByRole("region", { name: "Ann & Ben" });
    expect(screen.getByRole("heading", { level: 2, name: "Ann & Ben" })).toBeInTheDocument();
    // The cover is decoration beside the name: its thumbnail, members-only URL.
    const image = region.querySelector("img");
    expect(image).toHaveAttribute("src", cover.thumbnail_url);
    expect(image).toHaveAttribute("alt", "");
    expect(screen.getByRole("heading", { level: 1, name: "Memory Box" })).toBeInTheDocument();
    expect(screen.getByText("Welcome back, alex!")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Add Memory" })).toBeInTheDocument();
  });

  it("says how many years on the day of together-since, in the plural the language wants", async () => {
    renderHome({ ...unset, name: "Ann & Ben", together_since: todayYearsAgo(7) });
    expect(await screen.findByText("7 years today")).toBeInTheDocument();
  });

  it("says it in the singular after one year, even with no name or cover", async () => {
    renderHome({ ...unset, together_since: todayYearsAgo(1) });
    const region = await screen.findByRole("region", { name: "Our box" });
    expect(region).toHaveTextContent("1 year today");
  });

  it("has no anniversary line on another day, nor on the first day itself", async () => {
    const { backend } = renderHome({ ...unset, name: "Ann & Ben", together_since: anotherDayYearsAgo(7) });
    await screen.findByRole("heading", { level: 2, name: "Ann & Ben" });
    expect(screen.queryByText(/today$/)).not.toBeInTheDocument();
    await waitFor(() => expect(backend.events.connections).toHaveLength(1));

    backend.box = { ...unset, together_since: todayYearsAgo(0) };
    backend.events.latest.send("box.updated", { id: "box", actor: "someone-else" }, "e1");
    await waitFor(() => expect(screen.queryByRole("heading", { level: 2, name: "Ann & Ben" })).not.toBeInTheDocument());
    expect(screen.queryByRole("region", { name: "Our box" })).not.toBeInTheDocument();
  });

  it("follows an owner's change made elsewhere (box.updated on the live stream)", async () => {
    const { backend } = renderHome(unset);
    await screen.findByText("1 memories");
    await waitFor(() => expect(backend.events.connections).toHaveLength(1));
    const memoryRequests = backend.requests("GET", "/api/v1/memories").length;

    backend.box = { ...unset, name: "Ann & Ben" };
    backend.events.latest.send("box.updated", { id: "box", actor: "someone-else" }, "e1");

    expect(await screen.findByRole("heading", { level: 2, name: "Ann & Ben" })).toBeInTheDocument();
    // The memories are not fetched again for it.
    expect(backend.requests("GET", "/api/v1/memories")).toHaveLength(memoryRequests);
  });
});
