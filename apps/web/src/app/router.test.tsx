import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { paths } from "@/config/paths";
import { FakeAuthClient, fakeSession } from "@/testing/fake-auth-client";
import { fakeMemory } from "@/testing/memory-fixtures";
import { renderApp } from "@/testing/render-app";
import { apiError, stubMemoryApi } from "@/testing/stub-memory-api";

const signedIn = () => new FakeAuthClient({ session: fakeSession() });

describe("route table", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("shows the sign-in screen at /auth", async () => {
    renderApp(paths.auth);

    expect(await screen.findByRole("heading", { name: "Welcome to Memory Box" })).toBeInTheDocument();
    expect(screen.getByText("Your personal memory collection for two")).toBeInTheDocument();
  });

  it("shows the home screen at /", async () => {
    renderApp(paths.home, { client: signedIn() });

    expect(await screen.findByRole("heading", { name: "Memory Box" })).toBeInTheDocument();
  });

  it("opens a memory by the link paths.memory builds", async () => {
    const api = stubMemoryApi({
      "GET /api/v1/memories/:id": ({ params }) =>
        params.id === "trip to lisbon/2024" ? fakeMemory({ title: "Lisbon" }) : apiError(404, "memory_not_found"),
    });
    renderApp(paths.memory("trip to lisbon/2024"), { client: signedIn() });

    expect(await screen.findByRole("heading", { name: "Lisbon" })).toBeInTheDocument();
    expect(api.calls("GET /api/v1/memories/:id")[0]?.path).toBe("/api/v1/memories/trip%20to%20lisbon%2F2024");
  });

  it("sends unknown paths to the 404 page, signed in or not", async () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    renderApp("/does/not/exist");

    expect(await screen.findByText("Oops! Page not found")).toBeInTheDocument();
    // Logged from an effect, which React may run a moment after the page is on screen.
    await waitFor(() =>
      expect(consoleError).toHaveBeenCalledWith("404 Error: User attempted to access non-existent route:", "/does/not/exist"),
    );
  });
});
