import { act, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { OfflineBanner } from "./offline-banner";

function goOnline(online: boolean) {
  vi.spyOn(navigator, "onLine", "get").mockReturnValue(online);
  act(() => {
    window.dispatchEvent(new Event(online ? "online" : "offline"));
  });
}

describe("OfflineBanner", () => {
  afterEach(() => vi.restoreAllMocks());

  it("says so while the browser is offline, and goes when the connection returns", () => {
    render(<OfflineBanner />);
    expect(screen.queryByRole("status")).not.toBeInTheDocument();

    goOnline(false);
    expect(screen.getByRole("status")).toHaveTextContent("You are offline. Showing what this device has kept.");

    goOnline(true);
    expect(screen.queryByRole("status")).not.toBeInTheDocument();
  });

  it("tells the page its height while shown, so toasts start below it (issue #34)", () => {
    vi.spyOn(HTMLElement.prototype, "offsetHeight", "get").mockReturnValue(37);
    render(<OfflineBanner />);
    const root = document.documentElement.style;
    expect(root.getPropertyValue("--offline-banner-height")).toBe("");

    goOnline(false);
    expect(root.getPropertyValue("--offline-banner-height")).toBe("37px");

    goOnline(true);
    expect(root.getPropertyValue("--offline-banner-height")).toBe("");
  });
});
