import { AuthApiError } from "@supabase/auth-js";
import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { FakeAuthClient, fakeSession } from "@/testing/fake-auth-client";
import { currentPath, renderApp } from "@/testing/render-app";
import { stubRpc } from "@/testing/stub-rpc";

const invitedEverywhere = { is_email_invited: () => true, mark_email_used: () => null };

describe("auth screen: e-mailed links and codes", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("sends a password reset link that leads to the set-password screen, without saying whether the address is a member's", async () => {
    stubRpc(invitedEverywhere);
    const { user, client } = renderApp("/auth");
    await user.click(await screen.findByRole("button", { name: "Forgot password?" }));

    expect(screen.getByRole("heading", { name: "Reset your password" })).toBeInTheDocument();
    await user.type(screen.getByLabelText("Email"), " sam@example.com ");
    await user.click(screen.getByRole("button", { name: "Send reset link" }));

    expect(await screen.findByRole("status")).toHaveTextContent(
      "If sam@example.com belongs to a member, a link to set a new password is on its way.",
    );
    expect(client.resetPasswordForEmail).toHaveBeenCalledWith("sam@example.com", {
      redirectTo: `${window.location.origin}/auth/reset`,
    });
    await user.click(screen.getByRole("button", { name: "Back to sign in" }));
    expect(screen.getByRole("tab", { name: "Sign In" })).toBeInTheDocument();
  });

  it("shows the server's refusal of a reset (too many requests) in words", async () => {
    stubRpc(invitedEverywhere);
    const client = new FakeAuthClient();
    client.resetPasswordForEmail.mockResolvedValueOnce({
      data: null,
      error: new AuthApiError("For security purposes, you can only request this later.", 429, "over_email_send_rate_limit"),
    });
    const { user } = renderApp("/auth?view=forgot", { client });

    await user.type(await screen.findByLabelText("Email"), "sam@example.com");
    await user.click(screen.getByRole("button", { name: "Send reset link" }));

    expect(await screen.findByRole("alert")).toHaveTextContent("For security purposes, you can only request this later.");
  });

  it("says in words that no account uses an address asked for a sign-in code", async () => {
    stubRpc(invitedEverywhere);
    const client = new FakeAuthClient();
    client.signInWithOtp.mockResolvedValueOnce({
      data: { user: null, session: null },
      error: new AuthApiError("Signups not allowed for otp", 422, "otp_disabled"),
    });
    const { user } = renderApp("/auth", { client });
    await user.click(await screen.findByRole("button", { name: "Email me a sign-in code" }));
    await user.type(screen.getByLabelText("Email"), "newcomer@example.com");
    await user.click(screen.getByRole("button", { name: "Send sign-in code" }));

    expect(await screen.findByRole("alert")).toHaveTextContent(
      "No account uses this address. Check it for typos, or sign up first.",
    );
  });

  it("after a sign-up, accepts the e-mailed code typed in, and signs the member in", async () => {
    stubRpc(invitedEverywhere);
    const { user, client, router } = renderApp("/auth");
    await user.click(await screen.findByRole("tab", { name: "Sign Up" }));
    await user.type(screen.getByLabelText("Email"), "sam@example.com");
    await user.type(screen.getByLabelText("Password"), "a long and private phrase");
    await user.click(screen.getByRole("button", { name: "Sign Up" }));

    expect(await screen.findByText("Check your email for confirmation link")).toBeInTheDocument();
    const code = await screen.findByLabelText("Code");
    expect(code).toHaveAttribute("autocomplete", "one-time-code");
    client.verifyOtp.mockResolvedValueOnce({
      data: { user: null, session: null },
      error: new AuthApiError("Token has expired or is invalid", 403, "otp_expired"),
    });
    await user.type(code, "111111");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("That code is not right, or it has expired.");

    await user.clear(code);
    await user.type(code, "123 456");
    await user.click(screen.getByRole("button", { name: "Continue" }));

    await waitFor(() => expect(currentPath(router)).toBe("/"));
    expect(client.verifyOtp).toHaveBeenLastCalledWith({ email: "sam@example.com", token: "123456", type: "signup" });
  });

  it("sends a sign-in code only to an invited address, never creating an account", async () => {
    stubRpc({ is_email_invited: (args) => args.check_email === "sam@example.com", mark_email_used: () => null });
    const { user, client } = renderApp("/auth");
    await user.click(await screen.findByRole("button", { name: "Email me a sign-in code" }));

    await user.type(screen.getByLabelText("Email"), "stranger@example.com");
    await user.click(screen.getByRole("button", { name: "Send sign-in code" }));
    expect(await screen.findByText("Access Denied")).toBeInTheDocument();
    expect(client.signInWithOtp).not.toHaveBeenCalled();

    await user.clear(screen.getByLabelText("Email"));
    await user.type(screen.getByLabelText("Email"), "sam@example.com");
    await user.click(screen.getByRole("button", { name: "Send sign-in code" }));
    expect(await screen.findByRole("heading", { name: "Enter the code from your email" })).toBeInTheDocument();
    expect(client.signInWithOtp).toHaveBeenCalledWith({
      email: "sam@example.com",
      options: { shouldCreateUser: false, emailRedirectTo: `${window.location.origin}/` },
    });
  });

  it("shows what was typed in a password field on request", async () => {
    stubRpc(invitedEverywhere);
    const { user } = renderApp("/auth");
    const password = await screen.findByLabelText("Password");
    await user.type(password, "hunter2");

    const toggle = screen.getByRole("button", { name: "Show password" });
    expect(toggle).toHaveAttribute("aria-pressed", "false");
    await user.click(toggle);
    expect(password).toHaveAttribute("type", "text");
    expect(toggle).toHaveAttribute("aria-pressed", "true");
  });

  it("explains an expired link the server sent back, and offers a new one", async () => {
    stubRpc(invitedEverywhere);
    const { user, router } = renderApp(
      "/#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired",
    );

    expect(await screen.findByText("This email link can't be used")).toBeInTheDocument();
    expect(screen.getByText(/Email link is invalid or has expired\. Each link works once/)).toBeInTheDocument();
    expect(currentPath(router)).toBe("/auth");
    await user.click(screen.getByRole("button", { name: "New confirmation email" }));
    expect(screen.getByRole("heading", { name: "Confirm your email" })).toBeInTheDocument();
  });
});

describe("an e-mailed link opened while signed in", () => {
  it("says calmly that the link was used, once, and cleans the address bar (#34)", async () => {
    stubRpc(invitedEverywhere);
    const { router } = renderApp(
      "/#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired",
      { client: new FakeAuthClient({ session: fakeSession() }) },
    );

    expect(
      await screen.findByText(
        "That e-mail link was already used or has expired. You are signed in, so there is nothing more to do.",
      ),
    ).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.hash).toBe(""));
    expect(currentPath(router)).toBe("/");
    expect(screen.queryByText("Authentication Error")).not.toBeInTheDocument();
    expect(screen.getAllByText(/That e-mail link was already used/)).toHaveLength(1);
  });
});

describe("set-password screen", () => {
  it("saves the new password of the member the reset link signed in, then goes home", async () => {
    stubRpc(invitedEverywhere);
    const { user, client, router } = renderApp("/auth/reset", { client: new FakeAuthClient({ session: fakeSession() }) });

    await user.type(await screen.findByLabelText("New password"), "a fresh and private phrase");
    await user.click(screen.getByRole("button", { name: "Save password" }));

    await waitFor(() => expect(currentPath(router)).toBe("/"));
    expect(client.updateUser).toHaveBeenCalledWith({ password: "a fresh and private phrase" });
    expect(await screen.findByText("Password updated")).toBeInTheDocument();
  });

  it("without a reset link's session, says how to get one", async () => {
    stubRpc(invitedEverywhere);
    renderApp("/auth/reset#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired");

    expect(await screen.findByText("This page needs a password reset link.")).toBeInTheDocument();
    expect(screen.getByText(/Email link is invalid or has expired/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Send a new reset link" })).toHaveAttribute("href", "/auth?view=forgot");
  });

  it("a spent reset link opened where the member is signed in says so, and offers no form as if it had worked", async () => {
    stubRpc(invitedEverywhere);
    renderApp("/auth/reset#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired", {
      client: new FakeAuthClient({ session: fakeSession() }),
    });

    expect(await screen.findByText(/Email link is invalid or has expired\. Each link works once/)).toBeInTheDocument();
    expect(screen.queryByLabelText("New password")).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Send a new reset link" })).toHaveAttribute("href", "/auth?view=forgot");
  });
});
