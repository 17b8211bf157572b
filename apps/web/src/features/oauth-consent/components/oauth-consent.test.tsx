import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { AuthApiError } from "@supabase/auth-js";
import { MemoryRouter } from "react-router";
import { describe, expect, it, onTestFinished, vi } from "vitest";

import { AppProvider } from "@/app/provider";
import { OAuthConsent } from "@/features/oauth-consent/components/oauth-consent";
import { setAuthClient } from "@/lib/auth-client";
import { currentPath, renderApp } from "@/testing/render-app";
import { FakeAuthClient, fakeSession, fakeUser } from "@/testing/fake-auth-client";

// Another app asking to use the member's account (issue #36, ADR 0075): the consent page.

function openConsent(client = new FakeAuthClient({ session: fakeSession(fakeUser({ email: "ann@example.com" })) })) {
  setAuthClient(client);
  onTestFinished(() => setAuthClient(undefined));
  const go = vi.fn<(url: string) => void>();
  const user = userEvent.setup({ delay: null });
  render(
    <AppProvider>
      <MemoryRouter>
        <OAuthConsent authorizationId="req-1" go={go} />
      </MemoryRouter>
    </AppProvider>,
  );
  return { client, go, user };
}

describe("the OAuth consent page", () => {
  it("says who asks for what, for which account and where the member goes back, and Allow sends them back with the code", async () => {
    const { client, go, user } = openConsent();

    expect(await screen.findByRole("heading", { name: "Allow Photo Frame Studio to use your account?" })).toBeInTheDocument();
    expect(
      screen.getByText("Photo Frame Studio asks to sign you in with your Memory Box account, ann@example.com."),
    ).toBeInTheDocument();
    expect(screen.getAllByRole("listitem").map((item) => item.textContent)).toEqual([
      "Know that it is you",
      "See your email address",
    ]);
    expect(
      screen.getByText("Photo Frame Studio cannot see or change your memories, photos, comments or members."),
    ).toBeInTheDocument();
    expect(screen.getByText("After you answer, you go back to frames.example.com.")).toBeInTheDocument();
    expect(client.oauthMocks.getAuthorizationDetails).toHaveBeenCalledWith("req-1");

    await user.click(screen.getByRole("button", { name: "Allow" }));
    expect(client.oauthMocks.approveAuthorization).toHaveBeenCalledWith("req-1", { skipBrowserRedirect: true });
    expect(client.oauthMocks.denyAuthorization).not.toHaveBeenCalled();
    expect(go).toHaveBeenCalledWith("https://frames.example.com/callback?code=code-of-req-1&state=s");
  });

  it("sends the member back with the refusal on Deny", async () => {
    const { client, go, user } = openConsent();
    await user.click(await screen.findByRole("button", { name: "Deny" }));
    expect(client.oauthMocks.denyAuthorization).toHaveBeenCalledWith("req-1", { skipBrowserRedirect: true });
    expect(client.oauthMocks.approveAuthorization).not.toHaveBeenCalled();
    expect(go).toHaveBeenCalledWith("https://frames.example.com/callback?error=access_denied&state=s");
  });

  it("sends the member on at once when they already allowed the app", async () => {
    const client = new FakeAuthClient({ session: fakeSession() });
    client.oauthMocks.getAuthorizationDetails.mockResolvedValueOnce({
      data: { redirect_url: "https://frames.example.com/callback?code=again" },
      error: null,
    });
    const { go } = openConsent(client);
    await vi.waitFor(() => expect(go).toHaveBeenCalledWith("https://frames.example.com/callback?code=again"));
    expect(screen.queryByRole("button", { name: "Allow" })).not.toBeInTheDocument();
  });

  it("says a request that expired, was answered or is another account's is no longer open, and offers nothing to allow", async () => {
    const client = new FakeAuthClient({ session: fakeSession() });
    client.oauthMocks.getAuthorizationDetails.mockResolvedValueOnce({
      data: null as never,
      error: new AuthApiError("authorization not found", 404, "oauth_authorization_not_found"),
    });
    const { go } = openConsent(client);
    expect(await screen.findByRole("heading", { name: "This request is no longer open" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Allow" })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to your memories" })).toHaveAttribute("href", "/");
    expect(go).not.toHaveBeenCalled();
  });

  it("keeps the question when an answer fails to send, says so, and lets the member answer again", async () => {
    const client = new FakeAuthClient({ session: fakeSession() });
    client.oauthMocks.approveAuthorization.mockResolvedValueOnce({
      data: null as never,
      error: new AuthApiError("upstream went away", 502, undefined),
    });
    const { go, user } = openConsent(client);
    await user.click(await screen.findByRole("button", { name: "Allow" }));
    expect(await screen.findByText("Your answer was not sent")).toBeInTheDocument();
    expect(screen.queryByText("upstream went away")).not.toBeInTheDocument();
    expect(go).not.toHaveBeenCalled();
    await user.click(screen.getByRole("button", { name: "Allow" }));
    expect(go).toHaveBeenCalledWith("https://frames.example.com/callback?code=code-of-req-1&state=s");
  });

  it("reads the request once on its route, however often the page draws itself", async () => {
    const client = new FakeAuthClient({ session: fakeSession() });
    renderApp("/oauth/consent?authorization_id=req-1", { client });
    expect(await screen.findByRole("button", { name: "Allow" })).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(client.oauthMocks.getAuthorizationDetails).toHaveBeenCalledTimes(1);
  });

  it("asks a signed-out visitor to sign in first, and comes back to the request after", async () => {
    const { router } = renderApp("/oauth/consent?authorization_id=req-1", { client: new FakeAuthClient() });
    await vi.waitFor(() => expect(currentPath(router)).toMatch(/^\/auth\?/));
    expect(new URLSearchParams(router.state.location.search).get("next")).toBe("/oauth/consent?authorization_id=req-1");
  });
});
