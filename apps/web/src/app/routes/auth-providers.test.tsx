import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { forgetSignInProviders } from "@/features/auth/api/providers";
import { FakeAuthClient } from "@/testing/fake-auth-client";
import { renderApp } from "@/testing/render-app";

/** The auth service's GET /settings with the given providers; every other request is refused. */
function stubSettings(providers: { id: string; name: string }[]) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL) => {
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      if (url.endsWith("/auth/v1/settings")) return Response.json({ external: { email: true }, external_providers: providers });
      return Response.json({ message: "no stub" }, { status: 404 });
    }),
  );
}

describe("auth screen: sign-in providers", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    forgetSignInProviders();
  });

  it('offers "Continue with …" for each configured provider and sends the browser there, back to /auth', async () => {
    stubSettings([
      { id: "google", name: "Google" },
      { id: "keycloak", name: "Our Keycloak" },
    ]);
    const client = new FakeAuthClient();
    const { user } = renderApp("/auth", { client });
    await user.click(await screen.findByRole("button", { name: "Continue with Our Keycloak" }));
    expect(screen.getByRole("button", { name: "Continue with Google" })).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Sign In" })).toBeInTheDocument();
    await waitFor(() =>
      expect(client.signInWithOAuth).toHaveBeenCalledWith({
        provider: "keycloak",
        options: { redirectTo: `${window.location.origin}/auth?signed_in_with=Our%20Keycloak` },
      }),
    );
  });

  it("shows no provider button when none is configured", async () => {
    stubSettings([]);
    renderApp("/auth");
    expect(await screen.findByRole("button", { name: "Sign In" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Continue with/ })).not.toBeInTheDocument();
  });

  it("explains a sign-in the provider's account could not complete", async () => {
    stubSettings([{ id: "google", name: "Google" }]);
    renderApp(
      "/auth?signed_in_with=Google#error=access_denied&error_code=email_not_invited&error_description=This+email+address+is+not+invited+to+access+the+platform",
    );
    expect(await screen.findByText("Signing in with Google did not work")).toBeInTheDocument();
    expect(screen.getByText("This email address is not invited to access the platform")).toBeInTheDocument();
    expect(screen.queryByText("This email link can't be used")).not.toBeInTheDocument();
  });
});
