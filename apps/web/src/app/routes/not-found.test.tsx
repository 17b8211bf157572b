import { render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";

import { NotFoundRoute } from "@/app/routes/not-found";

function renderAt(path: string) {
  const router = createMemoryRouter([{ path: "*", Component: NotFoundRoute }], { initialEntries: [path] });
  return render(<RouterProvider router={router} />);
}

describe("NotFoundRoute", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("tells the visitor the page does not exist and offers a way home", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    renderAt("/nope");

    expect(screen.getByRole("heading", { name: "404" })).toBeInTheDocument();
    expect(screen.getByText("Oops! Page not found")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Return to Home" })).toHaveAttribute("href", "/");
  });

  it("logs the path the visitor tried to open", () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    renderAt("/nope");

    expect(consoleError).toHaveBeenCalledWith("404 Error: User attempted to access non-existent route:", "/nope");
  });
});
