import { AuthApiError, AuthWeakPasswordError } from "@supabase/auth-js";
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { FakeAuthClient, fakeSession, fakeUser } from "@/testing/fake-auth-client";
import { currentPath, renderApp } from "@/testing/render-app";
import { rpcCalls, stubRpc } from "@/testing/stub-rpc";

const invitedEverywhere = { is_email_invited: () => true, mark_email_used: () => null };

/** A promise the test settles by hand, to hold a request in flight. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

async function openSignUp(user: ReturnType<typeof renderApp>["user"]) {
  await user.click(await screen.findByRole("tab", { name: "Sign Up" }));
}

async function fillIn(user: ReturnType<typeof renderApp>["user"], email: string, password: string) {
  await user.type(screen.getByLabelText("Email"), email);
  await user.type(screen.getByLabelText("Password"), password);
}

describe("auth screen", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("shows the card with Sign In selected and its fields", async () => {
    stubRpc(invitedEverywhere);
    renderApp("/auth");

    expect(await screen.findByRole("heading", { name: "Welcome to Memory Box" })).toBeInTheDocument();
    expect(screen.getByText("Your personal memory collection for two")).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Sign In" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tab", { name: "Sign Up" })).toHaveAttribute("aria-selected", "false");

    const email = screen.getByLabelText("Email");
    expect(email).toHaveAttribute("type", "email");
    expect(email).toHaveAttribute("placeholder", "Enter your email");
    expect(screen.getByLabelText("Password")).toHaveAttribute("placeholder", "Enter your password");
    expect(screen.getByRole("button", { name: "Sign In" })).toBeInTheDocument();
  });

  it("offers a passkey sign-in where the browser has WebAuthn, and says in words when the passkey is unknown", async () => {
    vi.stubGlobal("PublicKeyCredential", function PublicKeyCredential() {});
    stubRpc(invitedEverywhere);
    const { user, client, router } = renderApp("/auth");

    await user.click(await screen.findByRole("button", { name: "Sign in with a passkey" }));

    expect(client.signInWithPasskey).toHaveBeenCalledOnce();
    expect(
      await screen.findByText("This passkey is not registered for Memory Box. Sign in with your password."),
    ).toBeInTheDocument();
    expect(currentPath(router)).toBe("/auth");
    vi.unstubAllGlobals();
  });

  it("offers no passkey sign-in where the browser cannot make passkeys", async () => {
    stubRpc(invitedEverywhere);
    renderApp("/auth");
    await screen.findByRole("heading", { name: "Welcome to Memory Box" });
    expect(screen.queryByRole("button", { name: "Sign in with a passkey" })).not.toBeInTheDocument();
  });

  it("asks to create a password on the Sign Up tab", async () => {
    stubRpc(invitedEverywhere);
    const { user } = renderApp("/auth");
    await openSignUp(user);

    const panel = screen.getByRole("tabpanel");
    expect(within(panel).getByLabelText("Email")).toHaveAttribute("placeholder", "Enter your email");
    expect(within(panel).getByLabelText("Email")).toHaveAttribute("type", "email");
    expect(within(panel).getByLabelText("Password")).toHaveAttribute("placeholder", "Create a password");
    expect(within(panel).getByRole("button", { name: "Sign Up" })).toBeInTheDocument();
  });

  it("shows the password rule under the Sign Up password field before anything is submitted, and not on Sign In", async () => {
    stubRpc(invitedEverywhere);
    const { user } = renderApp("/auth");
    await screen.findByRole("heading", { name: "Welcome to Memory Box" });
    expect(screen.queryByText(/hard to guess/)).not.toBeInTheDocument();
    expect(screen.getByLabelText("Password")).not.toHaveAttribute("aria-describedby");

    await openSignUp(user);

    const rule =
      "Choose a password that is hard to guess: common passwords, keyboard patterns and your email address are not accepted.";
    const panel = screen.getByRole("tabpanel");
    expect(within(panel).getByText(rule)).toBeInTheDocument();
    expect(within(panel).getByLabelText("Password")).toHaveAccessibleDescription(rule);
    expect(within(panel).getByLabelText("Password")).not.toHaveAttribute("aria-invalid");
  });

  it("shows under the field why the server refused a guessable password, beside its message, until the password changes", async () => {
    const fetchMock = stubRpc(invitedEverywhere);
    const client = new FakeAuthClient();
    const message = "Password is known to be weak and easy to guess, please choose a different one.";
    client.signUp.mockResolvedValueOnce({
      data: { user: null, session: null },
      error: new AuthWeakPasswordError(message, 422, ["pwned"]),
    });
    const { user } = renderApp("/auth", { client });
    await openSignUp(user);
    await fillIn(user, "alex@example.com", "password123");

    await user.click(screen.getByRole("button", { name: "Sign Up" }));

    expect(await screen.findByText("Authentication Error")).toBeInTheDocument();
    expect(screen.getByText(message)).toBeInTheDocument();
    const problem =
      "This password is too easy to guess: it is a common password, or close to one, or contains your email address.";
    expect(screen.getByText(problem)).toBeInTheDocument();
    const field = screen.getByLabelText("Password");
    expect(field).toHaveAttribute("aria-invalid", "true");
    expect(field).toHaveAccessibleDescription(expect.stringContaining(problem));
    expect(rpcCalls(fetchMock, "mark_email_used")).toEqual([]);

    await user.type(field, "!");
    expect(screen.queryByText(problem)).not.toBeInTheDocument();
    expect(field).not.toHaveAttribute("aria-invalid");
  });

  it.each([
    ["Sign In", false],
    ["Sign Up", true],
  ])("keeps %s disabled until both e-mail and password are filled in", async (label, signUp) => {
    stubRpc(invitedEverywhere);
    const { user } = renderApp("/auth");
    if (signUp) await openSignUp(user);
    const submit = await screen.findByRole("button", { name: label });

    expect(submit).toBeDisabled();
    await user.type(screen.getByLabelText("Email"), "alex@example.com");
    expect(submit).toBeDisabled();
    await user.type(screen.getByLabelText("Password"), "secret-password");
    expect(submit).toBeEnabled();
    await user.clear(screen.getByLabelText("Email"));
    await user.type(screen.getByLabelText("Email"), "   ");
    expect(submit).toBeDisabled();
  });

  it("shows Signing in... and disables the button while signing in", async () => {
    const answer = deferred<boolean>();
    stubRpc({ is_email_invited: () => answer.promise });
    const { user, client } = renderApp("/auth");
    await screen.findByRole("heading", { name: "Welcome to Memory Box" });
    await fillIn(user, "alex@example.com", "secret-password");

    await user.click(screen.getByRole("button", { name: "Sign In" }));

    const busy = await screen.findByRole("button", { name: "Signing in..." });
    expect(busy).toBeDisabled();
    answer.resolve(true);
    await waitFor(() => expect(client.signInWithPassword).toHaveBeenCalledOnce());
  });

  it("shows Creating account... and disables the button while signing up", async () => {
    const answer = deferred<boolean>();
    stubRpc({ is_email_invited: () => answer.promise, mark_email_used: () => null });
    const { user, client } = renderApp("/auth");
    await openSignUp(user);
    await fillIn(user, "alex@example.com", "secret-password");

    await user.click(screen.getByRole("button", { name: "Sign Up" }));

    expect(await screen.findByRole("button", { name: "Creating account..." })).toBeDisabled();
    answer.resolve(true);
    // Awaiting confirmation, the card asks for the e-mailed code (the link works as well).
    expect(await screen.findByRole("heading", { name: "Enter the code from your email" })).toBeInTheDocument();
    expect(client.signUp).toHaveBeenCalledOnce();
  });

  it("signs an invited member in and takes them home", async () => {
    const fetchMock = stubRpc(invitedEverywhere);
    const { user, client, router } = renderApp("/auth");
    await screen.findByRole("heading", { name: "Welcome to Memory Box" });
    await fillIn(user, " alex@example.com ", "secret-password");

    await user.click(screen.getByRole("button", { name: "Sign In" }));

    expect(await screen.findByText("Welcome back, alex!")).toBeInTheDocument();
    expect(currentPath(router)).toBe("/");
    expect(rpcCalls(fetchMock, "is_email_invited").map((call) => call.args)).toEqual([{ check_email: "alex@example.com" }]);
    expect(client.signInWithPassword).toHaveBeenCalledWith({ email: "alex@example.com", password: "secret-password" });
  });

  it("after signing in, goes on to the page the visitor was heading for", async () => {
    stubRpc(invitedEverywhere);
    const { user, router } = renderApp("/auth?next=/memory/42");
    await screen.findByRole("heading", { name: "Welcome to Memory Box" });
    await fillIn(user, "alex@example.com", "secret-password");

    await user.click(screen.getByRole("button", { name: "Sign In" }));

    // The memory screen (the stub knows no memory 42).
    expect(await screen.findByText("Memory not found.")).toBeInTheDocument();
    expect(currentPath(router)).toBe("/memory/42");
  });

  it("ignores a next parameter that leads off the site", async () => {
    stubRpc(invitedEverywhere);
    const { user, router } = renderApp("/auth?next=//evil.example/steal");
    await screen.findByRole("heading", { name: "Welcome to Memory Box" });
    await fillIn(user, "alex@example.com", "secret-password");

    await user.click(screen.getByRole("button", { name: "Sign In" }));

    expect(await screen.findByText("Welcome back, alex!")).toBeInTheDocument();
    expect(currentPath(router)).toBe("/");
  });

  it("turns away an address that is not invited, without trying to sign in", async () => {
    stubRpc({ is_email_invited: () => false });
    const { user, client } = renderApp("/auth");
    await screen.findByRole("heading", { name: "Welcome to Memory Box" });
    await fillIn(user, "stranger@example.com", "secret-password");

    await user.click(screen.getByRole("button", { name: "Sign In" }));

    expect(await screen.findByText("Access Denied")).toBeInTheDocument();
    expect(screen.getByText("This email address is not invited to access the platform")).toBeInTheDocument();
    expect(client.signInWithPassword).not.toHaveBeenCalled();
    expect(screen.getByRole("button", { name: "Sign In" })).toBeEnabled();
  });

  it("turns away an uninvited address on Sign Up too", async () => {
    stubRpc({ is_email_invited: () => false });
    const { user, client } = renderApp("/auth");
    await openSignUp(user);
    await fillIn(user, "stranger@example.com", "secret-password");

    await user.click(screen.getByRole("button", { name: "Sign Up" }));

    expect(await screen.findByText("This email address is not invited to access the platform")).toBeInTheDocument();
    expect(client.signUp).not.toHaveBeenCalled();
  });

  it.each([
    ["the server cannot be reached", () => Promise.reject(new TypeError("Failed to fetch"))],
    ["the server answers an error", () => Response.json({ message: "Too many requests" }, { status: 429 })],
    ["the server answers something else than a boolean", () => ({ invited: true })],
  ])("says the invitation could not be checked when %s, and logs it", async (_case, isEmailInvited) => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    stubRpc({ is_email_invited: isEmailInvited });
    const { user, client } = renderApp("/auth");
    await screen.findByRole("heading", { name: "Welcome to Memory Box" });
    await fillIn(user, "alex@example.com", "secret-password");

    await user.click(screen.getByRole("button", { name: "Sign In" }));

    expect(await screen.findByText("Unable to verify invitation status")).toBeInTheDocument();
    expect(screen.getByText("Error")).toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith("Error checking invitation:", expect.anything());
    expect(client.signInWithPassword).not.toHaveBeenCalled();
  });

  it("shows the provider's message when the sign-in is refused", async () => {
    stubRpc(invitedEverywhere);
    const client = new FakeAuthClient();
    client.signInWithPassword.mockResolvedValueOnce({
      data: { user: null, session: null },
      error: new AuthApiError("Invalid login credentials", 400, "invalid_credentials"),
    });
    const { user, router } = renderApp("/auth", { client });
    await screen.findByRole("heading", { name: "Welcome to Memory Box" });
    await fillIn(user, "alex@example.com", "wrong-password");

    await user.click(screen.getByRole("button", { name: "Sign In" }));

    expect(await screen.findByText("Authentication Error")).toBeInTheDocument();
    expect(screen.getByText("Invalid login credentials")).toBeInTheDocument();
    expect(currentPath(router)).toBe("/auth");
    expect(screen.getByRole("button", { name: "Sign In" })).toBeEnabled();
  });

  it("keeps one sign-in toast for two refusals, and none once the right password lets the member in (#34)", async () => {
    stubRpc(invitedEverywhere);
    const client = new FakeAuthClient();
    const refused = {
      data: { user: null, session: null },
      error: new AuthApiError("Invalid login credentials", 400, "invalid_credentials"),
    };
    client.signInWithPassword.mockResolvedValueOnce(refused).mockResolvedValueOnce(refused);
    const { user, router } = renderApp("/auth", { client });
    await screen.findByRole("heading", { name: "Welcome to Memory Box" });
    await fillIn(user, "alex@example.com", "wrong-password");

    await user.click(screen.getByRole("button", { name: "Sign In" }));
    expect(await screen.findByText("Invalid login credentials")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Sign In" }));
    await waitFor(() => expect(client.signInWithPassword).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(screen.getByRole("button", { name: "Sign In" })).toBeEnabled());
    expect(screen.getAllByText("Invalid login credentials")).toHaveLength(1);

    await user.click(screen.getByRole("button", { name: "Sign In" }));

    expect(await screen.findByText("Welcome back, alex!")).toBeInTheDocument();
    expect(currentPath(router)).toBe("/");
    await waitFor(() => expect(screen.queryByText("Invalid login credentials")).not.toBeInTheDocument());
    expect(screen.queryByText("Authentication Error")).not.toBeInTheDocument();
  });

  it("shows the provider's message when the sign-up is refused", async () => {
    const fetchMock = stubRpc(invitedEverywhere);
    const client = new FakeAuthClient();
    client.signUp.mockResolvedValueOnce({
      data: { user: null, session: null },
      error: new AuthApiError("Password should be at least 8 characters.", 422, "weak_password"),
    });
    const { user } = renderApp("/auth", { client });
    await openSignUp(user);
    await fillIn(user, "alex@example.com", "short");

    await user.click(screen.getByRole("button", { name: "Sign Up" }));

    expect(await screen.findByText("Authentication Error")).toBeInTheDocument();
    expect(screen.getByText("Password should be at least 8 characters.")).toBeInTheDocument();
    expect(rpcCalls(fetchMock, "mark_email_used")).toEqual([]);
    expect(screen.queryByText("Success")).not.toBeInTheDocument();
  });

  it("reports an unexpected failure of the auth client", async () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    stubRpc(invitedEverywhere);
    const client = new FakeAuthClient();
    client.signInWithPassword.mockRejectedValueOnce(new Error("boom"));
    const { user } = renderApp("/auth", { client });
    await screen.findByRole("heading", { name: "Welcome to Memory Box" });
    await fillIn(user, "alex@example.com", "secret-password");

    await user.click(screen.getByRole("button", { name: "Sign In" }));

    expect(await screen.findByText("An unexpected error occurred")).toBeInTheDocument();
    expect(screen.getByText("Error")).toBeInTheDocument();
    expect(consoleError).toHaveBeenCalled();
    expect(screen.getByRole("button", { name: "Sign In" })).toBeEnabled();
  });

  it("creates the account and says to check the e-mail, without a request that could only be refused", async () => {
    localStorage.clear();
    const fetchMock = stubRpc(invitedEverywhere);
    const { user, client, router } = renderApp("/auth");
    await openSignUp(user);
    await fillIn(user, "alex@example.com", "secret-password");

    await user.click(screen.getByRole("button", { name: "Sign Up" }));

    expect(await screen.findByText("Success")).toBeInTheDocument();
    expect(screen.getByText("Check your email for confirmation link")).toBeInTheDocument();
    expect(client.signUp).toHaveBeenCalledWith({
      email: "alex@example.com",
      password: "secret-password",
      options: { emailRedirectTo: `${window.location.origin}/` },
    });
    // Confirmation is pending: no session to mark the invitation with, so no call yet.
    expect(rpcCalls(fetchMock, "mark_email_used")).toEqual([]);
    expect(currentPath(router)).toBe("/auth");
  });

  it("marks the invitation used with the first session the confirmation link opens, once", async () => {
    localStorage.clear();
    const fetchMock = stubRpc(invitedEverywhere);
    const { user, client } = renderApp("/auth");
    await openSignUp(user);
    await fillIn(user, "Alex@Example.com", "secret-password");
    await user.click(screen.getByRole("button", { name: "Sign Up" }));
    await screen.findByText("Check your email for confirmation link");

    const session = fakeSession(fakeUser({ email: "alex@example.com" }));
    client.emit("SIGNED_IN", session);

    await waitFor(() =>
      expect(rpcCalls(fetchMock, "mark_email_used").map((call) => [call.args, call.headers.get("Authorization")])).toEqual([
        [{ user_email: "alex@example.com" }, `Bearer ${session.access_token}`],
      ]),
    );
    client.emit("TOKEN_REFRESHED", { ...session, access_token: "refreshed" });
    await screen.findByText("Welcome back, alex!");
    expect(rpcCalls(fetchMock, "mark_email_used")).toHaveLength(1);
  });

  it("does not mark a remembered invitation for someone else who signs in on the same browser", async () => {
    localStorage.clear();
    const fetchMock = stubRpc(invitedEverywhere);
    const { user, client } = renderApp("/auth");
    await openSignUp(user);
    await fillIn(user, "alex@example.com", "secret-password");
    await user.click(screen.getByRole("button", { name: "Sign Up" }));
    await screen.findByText("Check your email for confirmation link");

    client.emit("SIGNED_IN", fakeSession(fakeUser({ email: "sam@example.com" })));

    await screen.findByText("Welcome back, sam!");
    expect(rpcCalls(fetchMock, "mark_email_used")).toEqual([]);
  });

  it("marks the invitation with the new session when the account needs no confirmation", async () => {
    const fetchMock = stubRpc(invitedEverywhere);
    const client = new FakeAuthClient();
    const session = fakeSession(fakeUser({ email: "alex@example.com" }));
    client.signUp.mockImplementationOnce(async () => {
      client.emit("SIGNED_IN", session);
      return { data: { user: session.user, session }, error: null };
    });
    const { user, router } = renderApp("/auth", { client });
    await openSignUp(user);
    await fillIn(user, "alex@example.com", "secret-password");

    await user.click(screen.getByRole("button", { name: "Sign Up" }));

    expect(await screen.findByText("Welcome back, alex!")).toBeInTheDocument();
    expect(currentPath(router)).toBe("/");
    await waitFor(() =>
      expect(rpcCalls(fetchMock, "mark_email_used")[0]?.headers.get("Authorization")).toBe(`Bearer ${session.access_token}`),
    );
  });

  it("sends someone who is already signed in home", async () => {
    stubRpc(invitedEverywhere);
    const client = new FakeAuthClient({ session: fakeSession() });
    const { router } = renderApp("/auth", { client });

    expect(await screen.findByText("Welcome back, alex!")).toBeInTheDocument();
    expect(currentPath(router)).toBe("/");
  });

  it("sends someone who is already signed in on to next", async () => {
    stubRpc(invitedEverywhere);
    const client = new FakeAuthClient({ session: fakeSession() });
    const { router } = renderApp("/auth?next=/memory/7", { client });

    await waitFor(() => expect(currentPath(router)).toBe("/memory/7"));
  });
});
