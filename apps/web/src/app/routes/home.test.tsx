import { AuthApiError } from "@supabase/auth-js";
import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { FakeAuthClient, fakeSession, fakeUser } from "@/testing/fake-auth-client";
import { currentPath, renderApp } from "@/testing/render-app";

function signedInAs(overrides: Parameters<typeof fakeUser>[0]) {
  return new FakeAuthClient({ session: fakeSession(fakeUser(overrides)) });
}

describe("home screen", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("greets the member by the full name from their profile", async () => {
    renderApp("/", { client: signedInAs({ email: "alex@example.com", user_metadata: { full_name: "Alex Doe" } }) });

    expect(await screen.findByRole("heading", { name: "Memory Box" })).toBeInTheDocument();
    expect(screen.getByText("Welcome back, Alex Doe!")).toBeInTheDocument();
  });

  it("greets the member by the e-mail before the @ when the profile has no name", async () => {
    renderApp("/", { client: signedInAs({ email: "sam.smith@example.com", user_metadata: {} }) });

    expect(await screen.findByText("Welcome back, sam.smith!")).toBeInTheDocument();
  });

  it("signs out and returns to the auth screen", async () => {
    const client = signedInAs({ email: "alex@example.com" });
    const { user, router } = renderApp("/", { client });

    await user.click(await screen.findByRole("button", { name: "Sign Out" }));

    expect(await screen.findByRole("heading", { name: "Welcome to Memory Box" })).toBeInTheDocument();
    expect(client.signOut).toHaveBeenCalledOnce();
    expect(currentPath(router)).toBe("/auth");
  });

  it("only logs a failed sign-out", async () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    const client = signedInAs({ email: "alex@example.com" });
    const failure = new AuthApiError("Internal Server Error", 500, "unexpected_failure");
    client.signOut.mockResolvedValueOnce({ error: failure });
    const { user, router } = renderApp("/", { client });

    await user.click(await screen.findByRole("button", { name: "Sign Out" }));

    expect(consoleError).toHaveBeenCalledWith("Error signing out:", failure);
    expect(currentPath(router)).toBe("/");
    expect(screen.getByText("Welcome back, alex!")).toBeInTheDocument();
    expect(screen.queryByText("Internal Server Error")).not.toBeInTheDocument();
  });
});
