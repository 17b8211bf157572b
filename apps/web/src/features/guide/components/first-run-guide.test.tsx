import { fireEvent, render, screen, within } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";

import { FirstRunGuideCard } from "@/features/guide/components/first-run-guide";

function renderGuide(props: { owner: boolean; focusOnShow?: boolean }, onDismiss = vi.fn()) {
  const router = createMemoryRouter([
    {
      path: "*",
      element: (
        <>
          <h1>Memory Box</h1>
          <FirstRunGuideCard owner={props.owner} focusOnShow={props.focusOnShow ?? false} onDismiss={onDismiss} />
        </>
      ),
    },
  ]);
  render(<RouterProvider router={router} />);
  return { onDismiss, guide: screen.getByRole("region", { name: "Welcome to your Memory Box" }) };
}

const steps = (guide: HTMLElement) =>
  within(guide)
    .getAllByRole("heading", { level: 3 })
    .map((heading) => heading.textContent);

describe("the first-run guide", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("gives an owner the invite step pointing to Members", () => {
    const { guide } = renderGuide({ owner: true });
    expect(steps(guide)).toEqual(["On this day", "Keep it on your phone", "Without a connection", "Invite your partner"]);
    expect(within(guide).getByRole("link", { name: "Open the member list" })).toHaveAttribute("href", "/settings/members");
  });

  it("leaves the invite step out for an invited partner", () => {
    const { guide } = renderGuide({ owner: false });
    expect(steps(guide)).toEqual(["On this day", "Keep it on your phone", "Without a connection"]);
    expect(within(guide).queryByRole("link")).toBeNull();
  });

  it("tells how to add it by hand (Safari's Share → Add to Home Screen) when the browser offers no prompt", () => {
    const { guide } = renderGuide({ owner: false });
    expect(within(guide).getByText(/tap Share, then "Add to Home Screen"/)).toBeInTheDocument();
    expect(within(guide).queryByRole("button", { name: "Install the app" })).toBeNull();
  });

  it("says nothing about installing when the app already runs installed", () => {
    vi.stubGlobal("matchMedia", (query: string) => ({ matches: query === "(display-mode: standalone)", media: query }));
    const { guide } = renderGuide({ owner: true });
    expect(steps(guide)).toEqual(["On this day", "Without a connection", "Invite your partner"]);
  });

  it("closes with Escape from inside and gives focus to the page's heading", () => {
    const { guide, onDismiss } = renderGuide({ owner: false, focusOnShow: true });
    const heading = within(guide).getByRole("heading", { level: 2 });
    expect(heading).toHaveFocus();
    fireEvent.keyDown(heading, { key: "Escape" });
    expect(onDismiss).toHaveBeenCalledOnce();
    expect(screen.getByRole("heading", { level: 1 })).toHaveFocus();
  });

  it("closes with Got it", () => {
    const { guide, onDismiss } = renderGuide({ owner: false });
    fireEvent.click(within(guide).getByRole("button", { name: "Got it" }));
    expect(onDismiss).toHaveBeenCalledOnce();
  });
});
