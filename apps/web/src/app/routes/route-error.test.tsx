import { cleanup, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import type * as NotFoundModule from "@/app/routes/not-found";
import { renderApp } from "@/testing/render-app";

// The 404 screen stands in for any lazily loaded screen: it is the one a visitor reaches signed out.
const notFoundScreen = vi.hoisted(() => ({ failure: undefined as { when: "import" | "render"; error: Error } | undefined }));

vi.mock("@/app/routes/not-found", async (importOriginal) => {
  const actual = await importOriginal<typeof NotFoundModule>();
  return {
    // Read by the route's lazy import, so a throw here is that import rejecting.
    get NotFoundRoute() {
      const failure = notFoundScreen.failure;
      if (failure?.when === "import") throw failure.error;
      if (failure?.when === "render") {
        return function BrokenScreen() {
          throw failure.error;
        };
      }
      return actual.NotFoundRoute;
    },
  };
});

const staleChunk = () => new TypeError("Failed to fetch dynamically imported module: http://localhost/assets/not-found-Bx1.js");

describe("root error boundary", () => {
  let reload: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    sessionStorage.clear();
    reload = vi.fn();
    vi.stubGlobal("location", { ...window.location, reload });
    vi.spyOn(console, "error").mockImplementation(() => {});
  });

  afterEach(() => {
    notFoundScreen.failure = undefined;
    vi.restoreAllMocks();
  });

  it("reloads the page once when a screen's chunk is gone after a deploy, and shows the error page the second time", async () => {
    notFoundScreen.failure = { when: "import", error: staleChunk() };
    renderApp("/nope");

    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(screen.getByText("Loading...")).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Something went wrong" })).not.toBeInTheDocument();

    // The reloaded page meets the same missing chunk.
    cleanup();
    renderApp("/nope");

    expect(await screen.findByRole("heading", { name: "Something went wrong" })).toBeInTheDocument();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it("shows the error page, without reloading, when a screen fails to render", async () => {
    const failure = new Error("Cannot read properties of undefined");
    notFoundScreen.failure = { when: "render", error: failure };
    const { user } = renderApp("/nope");

    expect(await screen.findByRole("heading", { name: "Something went wrong" })).toBeInTheDocument();
    expect(screen.getByText("Sorry, this page could not be shown.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Return to Home" })).toHaveAttribute("href", "/");
    expect(reload).not.toHaveBeenCalled();
    // Logged from an effect, which may run after the page is already on screen.
    await waitFor(() => expect(console.error).toHaveBeenCalledWith("A screen could not be shown:", failure));

    await user.click(screen.getByRole("button", { name: "Reload Page" }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it("shows the error page, without reloading, when a screen's code fails for another reason", async () => {
    notFoundScreen.failure = { when: "import", error: new SyntaxError("Unexpected token '<'") };
    renderApp("/nope");

    expect(await screen.findByRole("heading", { name: "Something went wrong" })).toBeInTheDocument();
    expect(reload).not.toHaveBeenCalled();
  });
});
