import { act, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { FakeAuthClient, fakeSession } from "@/testing/fake-auth-client";
import { currentPath, renderApp } from "@/testing/render-app";
import { stubMemoryApi } from "@/testing/stub-memory-api";

/** Every path the router has been at, starting with the first. */
function recordPaths(router: ReturnType<typeof renderApp>["router"]) {
  const seen = [currentPath(router)];
  router.subscribe(() => seen.push(currentPath(router)));
  return seen;
}

describe("member screens guard", () => {
  it("shows Loading... until the session is known, then sends a visitor to /auth remembering the page", async () => {
    const client = new FakeAuthClient({ deferInitialSession: true });
    const { router } = renderApp("/memory/42", { client });

    // Once the lazy screen has loaded, the wait shown is the guard's: the session is not settled yet.
    await waitFor(() => expect(router.state.initialized).toBe(true));
    expect(screen.getByRole("status")).toHaveTextContent("Loading...");
    expect(currentPath(router)).toBe("/memory/42");

    act(() => client.finishInitialising());

    expect(await screen.findByRole("heading", { name: "Welcome to Memory Box" })).toBeInTheDocument();
    expect(currentPath(router)).toBe("/auth?next=/memory/42");
  });

  it("sends a visitor from home to plain /auth", async () => {
    const { router } = renderApp("/");

    expect(await screen.findByRole("heading", { name: "Welcome to Memory Box" })).toBeInTheDocument();
    expect(currentPath(router)).toBe("/auth");
  });

  it("keeps the query of the page in next", async () => {
    const { router } = renderApp("/memory/42?photo=2");

    await screen.findByRole("heading", { name: "Welcome to Memory Box" });
    expect(new URLSearchParams(router.state.location.search).get("next")).toBe("/memory/42?photo=2");
  });

  it("lets a member in once the session is restored (a confirmation link too), never via /auth", async () => {
    const client = new FakeAuthClient({ session: fakeSession(), deferInitialSession: true });
    const { router } = renderApp("/", { client });
    const seen = recordPaths(router);

    await waitFor(() => expect(router.state.initialized).toBe(true));
    expect(screen.getByRole("status")).toHaveTextContent("Loading...");
    act(() => client.finishInitialising());

    expect(await screen.findByText("Welcome back, alex!")).toBeInTheDocument();
    expect(seen.every((path) => path === "/")).toBe(true);
  });

  it("sends a member away when the session ends on a member screen", async () => {
    stubMemoryApi({});
    const client = new FakeAuthClient({ session: fakeSession() });
    const { router } = renderApp("/memory/42", { client });
    expect(await screen.findByText("Memory not found.")).toBeInTheDocument();

    act(() => client.emit("SIGNED_OUT", null));

    expect(await screen.findByRole("heading", { name: "Welcome to Memory Box" })).toBeInTheDocument();
    expect(currentPath(router)).toBe("/auth?next=/memory/42");
  });
});
