import { AuthApiError } from "@supabase/auth-js";
import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { forgetSignInProviders } from "@/features/auth/api/providers";
import { FakeAuthClient, fakeSession, fakeUser } from "@/testing/fake-auth-client";
import { renderApp } from "@/testing/render-app";
import { stubMemoryApi } from "@/testing/stub-memory-api";

/** The auth service's GET /settings, with SAML on or off (ADR 0036). */
function settingsRoute(samlEnabled: boolean) {
  return {
    "GET /auth/v1/settings": () => ({ external: { email: true }, external_providers: [], saml_enabled: samlEnabled }),
  };
}

describe("auth screen: Continue with single sign-on", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    forgetSignInProviders();
  });

  it("sends the typed address's domain to the server and comes back to /auth", async () => {
    stubMemoryApi(settingsRoute(true));
    const client = new FakeAuthClient();
    const { user } = renderApp("/auth", { client });
    await user.type(await screen.findByPlaceholderText("Enter your email"), "ann@family.example");
    await user.click(await screen.findByRole("button", { name: "Continue with single sign-on" }));
    await waitFor(() =>
      expect(client.signInWithSSO).toHaveBeenCalledWith({
        domain: "family.example",
        options: { redirectTo: `${window.location.origin}/auth?signed_in_with=single%20sign-on` },
      }),
    );
  });

  it("asks for the address first, and sends nothing", async () => {
    stubMemoryApi(settingsRoute(true));
    const client = new FakeAuthClient();
    const { user } = renderApp("/auth", { client });
    await user.click(await screen.findByRole("button", { name: "Continue with single sign-on" }));
    expect(await screen.findByText("Enter your email first")).toBeInTheDocument();
    expect(screen.getByPlaceholderText("Enter your email")).toHaveFocus();
    expect(client.signInWithSSO).not.toHaveBeenCalled();
  });

  it("says when the address's domain has no single sign-on", async () => {
    stubMemoryApi(settingsRoute(true));
    const client = new FakeAuthClient();
    vi.mocked(client.signInWithSSO).mockResolvedValueOnce({
      data: null,
      error: new AuthApiError("No SSO provider assigned for this domain", 404, "sso_provider_not_found"),
    });
    const { user } = renderApp("/auth", { client });
    await user.type(await screen.findByPlaceholderText("Enter your email"), "ann@elsewhere.example");
    await user.click(await screen.findByRole("button", { name: "Continue with single sign-on" }));
    expect(await screen.findByText("No single sign-on for this address")).toBeInTheDocument();
    expect(screen.getByText("elsewhere.example has no single sign-on here. Sign in another way.")).toBeInTheDocument();
  });

  it("is not offered while the server has SAML off", async () => {
    const { calls } = stubMemoryApi(settingsRoute(false));
    renderApp("/auth");
    expect(await screen.findByRole("button", { name: "Sign In" })).toBeInTheDocument();
    await waitFor(() => expect(calls("GET /auth/v1/settings")).toHaveLength(1));
    expect(screen.queryByRole("button", { name: "Continue with single sign-on" })).not.toBeInTheDocument();
  });
});

describe("settings: a single sign-on identity", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    forgetSignInProviders();
  });

  it("is listed as Single sign-on and can be disconnected", async () => {
    stubMemoryApi({ ...settingsRoute(true), "GET /api/v1/account/devices": () => ({ devices: [] }) });
    const session = fakeSession(fakeUser({ email: "ann@family.example" }));
    const client = new FakeAuthClient({ session });
    const identity = {
      identity_id: "3f1c7a52-2b7e-4f57-9c55-0b1f6b3f0a11",
      id: "subject-ann",
      user_id: session.user.id,
      provider: "sso:6b8f1b8e-6a7e-4a55-8f0e-2d9f0f6a9c01",
      identity_data: { email: "ann@family.example" },
    };
    vi.mocked(client.getUserIdentities).mockResolvedValue({ data: { identities: [identity] }, error: null });
    const { user } = renderApp("/settings", { client });
    expect(await screen.findByText("Single sign-on")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Disconnect Single sign-on" }));
    await waitFor(() => expect(client.unlinkIdentity).toHaveBeenCalledWith(identity));
  });
});
