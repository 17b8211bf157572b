import { render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";

import { routes } from "@/app/router";
import { paths } from "@/config/paths";

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  return render(<RouterProvider router={router} />);
}

describe("route table", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("shows the sign-in screen at /auth", async () => {
    renderAt(paths.auth);

    expect(await screen.findByRole("heading", { name: "Welcome to Memory Box" })).toBeInTheDocument();
    expect(screen.getByText("Your personal memory collection for two")).toBeInTheDocument();
  });

  it("shows the home screen at /", async () => {
    renderAt(paths.home);

    expect(await screen.findByRole("heading", { name: "Memory Box" })).toBeInTheDocument();
  });

  it("opens a memory by the link paths.memory builds", async () => {
    renderAt(paths.memory("trip to lisbon/2024"));

    expect(await screen.findByText("trip to lisbon/2024")).toBeInTheDocument();
  });

  it("sends unknown paths to the 404 page", async () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    renderAt("/does/not/exist");

    expect(await screen.findByText("Oops! Page not found")).toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith(
      "404 Error: User attempted to access non-existent route:",
      "/does/not/exist",
    );
  });
});
