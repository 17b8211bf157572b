import { AuthApiError } from "@supabase/auth-js";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { FakeAuthClient, fakeAccessToken, fakeSession, fakeUser } from "@/testing/fake-auth-client";
import { renderApp } from "@/testing/render-app";
import { stubMemoryApi } from "@/testing/stub-memory-api";
import { stubRpc } from "@/testing/stub-rpc";

const thisDevice = {
  id: "6f1b2c3d-0000-4000-8000-000000000001",
  browser: "Firefox 133",
  system: "macOS",
  signed_in_at: "2026-11-20T10:00:00.000Z",
  last_active_at: "2026-11-25T10:00:00.000Z",
  current: true,
};

function signedIn() {
  stubMemoryApi({ "GET /api/v1/account/devices": () => ({ devices: [thisDevice] }) });
  return new FakeAuthClient({ session: fakeSession() });
}

describe("account settings", () => {
  it("asks for the e-mailed code when the server wants proof before a password change, and sends it with the password", async () => {
    const client = signedIn();
    client.updateUser.mockResolvedValueOnce({
      data: { user: null },
      error: new AuthApiError("Password update requires reauthentication", 400, "reauthentication_needed"),
    });
    const { user } = renderApp("/settings", { client });

    await user.type(await screen.findByLabelText("New password"), "a brand new and private phrase");
    await user.click(screen.getByRole("button", { name: "Change password" }));
    expect(await screen.findByLabelText("Code from your email")).toBeInTheDocument();
    expect(client.reauthenticate).toHaveBeenCalledTimes(1);
    expect(screen.getByRole("button", { name: "Change password" })).toBeDisabled();

    await user.type(screen.getByLabelText("Code from your email"), "123 456");
    await user.click(screen.getByRole("button", { name: "Change password" }));
    expect(client.updateUser).toHaveBeenLastCalledWith({ password: "a brand new and private phrase", nonce: "123456" });
    // Saved: a fresh, empty form.
    expect(await screen.findByLabelText("New password")).toHaveValue("");
    expect(screen.queryByLabelText("Code from your email")).not.toBeInTheDocument();
  });

  it("shows the field's rule for a malformed new address, before sending and when the server refuses one (#34)", async () => {
    const client = signedIn();
    client.updateUser.mockResolvedValueOnce({
      data: { user: null },
      error: new AuthApiError("Unable to validate email address: invalid format", 400, "validation_failed"),
    });
    const { user } = renderApp("/settings", { client });

    await user.type(await screen.findByLabelText("New email"), "not an address");
    await user.click(screen.getByRole("button", { name: "Change email" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Enter a whole e-mail address, such as name@example.com.");
    expect(client.updateUser).not.toHaveBeenCalled();

    // One the browser lets through but the server does not.
    await user.clear(screen.getByLabelText("New email"));
    await user.type(screen.getByLabelText("New email"), "someone@localhost");
    await user.click(screen.getByRole("button", { name: "Change email" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Enter a whole e-mail address, such as name@example.com.");
    expect(client.updateUser).toHaveBeenCalledTimes(1);
    expect(screen.queryByText(/Unable to validate/)).not.toBeInTheDocument();
  });

  it("changes the e-mail address with the code sent to the new one, and explains an address not invited", async () => {
    const client = signedIn();
    client.updateUser.mockResolvedValueOnce({
      data: { user: null },
      error: new AuthApiError("This email address is not invited to access the platform", 403, "email_not_invited"),
    });
    const { user } = renderApp("/settings", { client });

    await user.type(await screen.findByLabelText("New email"), "New@Example.org");
    await user.click(screen.getByRole("button", { name: "Change email" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Only invited addresses can be used here: ask an owner to invite new@example.org first, then try again.",
    );

    await user.click(screen.getByRole("button", { name: "Change email" }));
    expect(client.updateUser).toHaveBeenLastCalledWith(
      { email: "new@example.org" },
      { emailRedirectTo: `${window.location.origin}/settings` },
    );
    await user.type(await screen.findByLabelText("Code"), "654321");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(client.verifyOtp).toHaveBeenCalledWith({ email: "new@example.org", token: "654321", type: "email_change" });
    expect(await screen.findByLabelText("New email")).toHaveValue("");
  });

  it("shows this device, and offers no sign-out for it", async () => {
    const { findByRole } = renderApp("/settings", { client: signedIn() });
    const device = await findByRole("listitem", { name: "Firefox 133 on macOS" });
    expect(within(device).getByText("This device")).toBeInTheDocument();
    expect(within(device).queryByRole("button", { name: "Sign out" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Sign out everywhere else" })).not.toBeInTheDocument();
  });
});

describe("your data", () => {
  it("says how many photos and videos the member uploaded and the space they take, in the member's units", async () => {
    stubMemoryApi({
      "GET /api/v1/account/devices": () => ({ devices: [thisDevice] }),
      "GET /api/v1/account/usage": () => ({
        photos: { count: 1, bytes: 3_500_000 },
        videos: { count: 12, bytes: 5 * 1024 ** 3 + 300 * 1024 ** 2 },
      }),
    });
    renderApp("/settings", { client: new FakeAuthClient({ session: fakeSession() }) });
    const usage = await screen.findByRole("list", { name: "Your uploads on the server" });
    expect(
      within(usage)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["1 photo: 3.3 MB", "12 videos: 5.3 GB"]);
  });

  it("says so when the figures could not be loaded, and still offers the download", async () => {
    stubMemoryApi({ "GET /api/v1/account/devices": () => ({ devices: [thisDevice] }) });
    renderApp("/settings", { client: new FakeAuthClient({ session: fakeSession() }) });
    expect(await screen.findByText("How much space your photos and videos take could not be loaded.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Download everything" })).toBeEnabled();
  });
});

describe("an invitation's link", () => {
  it("opens Sign Up with the invited address filled in", async () => {
    stubRpc({ is_email_invited: () => true, mark_email_used: () => null });
    renderApp("/auth?view=signup&email=partner%40example.org");
    expect(await screen.findByRole("tab", { name: "Sign Up" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByLabelText("Email")).toHaveValue("partner@example.org");
  });
});

describe("two-step verification", () => {
  const withApp = (aal: "aal1" | "aal2") => {
    const session = fakeSession(
      fakeUser({
        factors: [
          {
            id: "fake-factor",
            friendly_name: "Authenticator app",
            factor_type: "totp",
            status: "verified",
            created_at: "2026-11-20T10:00:00Z",
            updated_at: "2026-11-20T10:00:00Z",
          },
        ],
      }),
    );
    return new FakeAuthClient({ session: { ...session, access_token: fakeAccessToken({ aal }) } });
  };

  it("asks a session that has not proven the app for its code before any member screen", async () => {
    stubMemoryApi({ "GET /api/v1/account/devices": () => ({ devices: [thisDevice] }) });
    const client = withApp("aal1");
    const { user } = renderApp("/settings", { client });

    expect(await screen.findByRole("heading", { name: "Two-step verification" })).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Settings" })).not.toBeInTheDocument();
    await user.type(screen.getByLabelText("Authentication code"), "000000");
    await user.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("That code is not right.");

    client.mfaMocks.challengeAndVerify.mockResolvedValueOnce({
      data: null,
      error: new AuthApiError("This code was already used; wait for the next one.", 422, "mfa_verification_failed"),
    });
    await user.type(screen.getByLabelText("Authentication code"), "654321");
    await user.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("That code was already used. Wait for the next code in your app.");

    await user.type(screen.getByLabelText("Authentication code"), "123456");
    await user.click(screen.getByRole("button", { name: "Verify" }));
    expect(client.mfaMocks.challengeAndVerify).toHaveBeenLastCalledWith({ factorId: "fake-factor", code: "123456" });
    expect(await screen.findByRole("heading", { name: "Settings" })).toBeInTheDocument();
  });

  it("asks for the app's code again before removing it when the server wants a fresh proof, then removes it", async () => {
    stubMemoryApi({ "GET /api/v1/account/devices": () => ({ devices: [thisDevice] }) });
    const client = withApp("aal2");
    client.mfaMocks.unenroll.mockResolvedValueOnce({
      data: null,
      error: new AuthApiError("Verify your second step again", 403, "insufficient_aal"),
    } as never);
    const { user } = renderApp("/settings", { client });

    const app = await screen.findByRole("listitem", { name: "Authenticator app" });
    await user.click(within(app).getByRole("button", { name: "Remove" }));
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Remove" }));

    const confirm = await screen.findByRole("dialog", { name: "Confirm it's you" });
    expect(client.mfaMocks.unenroll).toHaveBeenCalledTimes(1);
    await user.type(within(confirm).getByLabelText("Authentication code"), "123456");
    await user.click(within(confirm).getByRole("button", { name: "Verify" }));

    expect(client.mfaMocks.challengeAndVerify).toHaveBeenLastCalledWith({ factorId: "fake-factor", code: "123456" });
    await waitFor(() => expect(client.mfaMocks.unenroll).toHaveBeenCalledTimes(2));
    expect(await screen.findByText("Authenticator app removed")).toBeInTheDocument();
  });

  it("asks for the app's code when the server wants it before a password change, then saves the password", async () => {
    stubMemoryApi({ "GET /api/v1/account/devices": () => ({ devices: [thisDevice] }) });
    const client = withApp("aal2");
    client.updateUser.mockResolvedValueOnce({
      data: { user: null },
      error: new AuthApiError("Enter the code from your authenticator app to continue.", 403, "insufficient_aal"),
    });
    const { user } = renderApp("/settings", { client });

    await user.type(await screen.findByLabelText("New password"), "a brand new and private phrase");
    await user.click(screen.getByRole("button", { name: "Change password" }));
    const confirm = await screen.findByRole("dialog", { name: "Confirm it's you" });
    expect(confirm).toHaveTextContent("To make this change, enter the code your authenticator app shows now.");
    expect(client.updateUser).toHaveBeenCalledTimes(1);
    await user.type(within(confirm).getByLabelText("Authentication code"), "123456");
    await user.click(within(confirm).getByRole("button", { name: "Verify" }));

    expect(client.mfaMocks.challengeAndVerify).toHaveBeenLastCalledWith({ factorId: "fake-factor", code: "123456" });
    await waitFor(() => expect(client.updateUser).toHaveBeenCalledTimes(2));
    expect(client.updateUser).toHaveBeenLastCalledWith({ password: "a brand new and private phrase" });
    expect(await screen.findByText("Password changed")).toBeInTheDocument();
  });

  it("asks for the app's code before a new address when the server wants it, then sends the address's code", async () => {
    stubMemoryApi({ "GET /api/v1/account/devices": () => ({ devices: [thisDevice] }) });
    const client = withApp("aal2");
    client.updateUser.mockResolvedValueOnce({
      data: { user: null },
      error: new AuthApiError("Enter the code from your authenticator app to continue.", 403, "insufficient_aal"),
    });
    const { user } = renderApp("/settings", { client });

    await user.type(await screen.findByLabelText("New email"), "new@example.org");
    await user.click(screen.getByRole("button", { name: "Change email" }));
    const confirm = await screen.findByRole("dialog", { name: "Confirm it's you" });
    await user.type(within(confirm).getByLabelText("Authentication code"), "123456");
    await user.click(within(confirm).getByRole("button", { name: "Verify" }));

    await waitFor(() => expect(client.updateUser).toHaveBeenCalledTimes(2));
    expect(await screen.findByLabelText("Code")).toBeInTheDocument();
  });

  it("asks for the app's code before signing the other devices out when the server wants it, then signs them out", async () => {
    const otherDevice = { ...thisDevice, id: "6f1b2c3d-0000-4000-8000-000000000002", browser: "Safari 18", current: false };
    stubMemoryApi({ "GET /api/v1/account/devices": () => ({ devices: [thisDevice, otherDevice] }) });
    const client = withApp("aal2");
    client.signOut.mockResolvedValueOnce({
      error: new AuthApiError("Enter the code from your authenticator app to continue.", 403, "insufficient_aal"),
    });
    const { user } = renderApp("/settings", { client });

    await user.click(await screen.findByRole("button", { name: "Sign out everywhere else" }));
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Sign out everywhere else" }));
    const confirm = await screen.findByRole("dialog", { name: "Confirm it's you" });
    await user.type(within(confirm).getByLabelText("Authentication code"), "123456");
    await user.click(within(confirm).getByRole("button", { name: "Verify" }));

    await waitFor(() => expect(client.signOut).toHaveBeenCalledTimes(2));
    expect(client.signOut).toHaveBeenLastCalledWith({ scope: "others" });
    expect(await screen.findByText("Signed out everywhere else")).toBeInTheDocument();
  });

  it("adds an authenticator app: QR code and key, then a code turns it on", async () => {
    const client = signedIn();
    const { user } = renderApp("/settings", { client });
    await user.click(await screen.findByRole("button", { name: "Add authenticator app" }));

    expect(await screen.findByRole("img", { name: "QR code to scan with your authenticator app" })).toHaveAttribute(
      "src",
      "data:image/svg+xml;utf-8,<svg/>",
    );
    expect(screen.getByText("JBSWY3DPEHPK3PXP")).toBeInTheDocument();
    await user.type(screen.getByLabelText("Code from the app"), "123456");
    await user.click(screen.getByRole("button", { name: "Turn on" }));
    expect(client.mfaMocks.challengeAndVerify).toHaveBeenCalledWith({ factorId: "fake-factor", code: "123456" });
    expect(await screen.findByRole("button", { name: "Add authenticator app" })).toBeInTheDocument();
  });
});
