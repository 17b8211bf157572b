import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

import { FakeAuthClient, fakeAccessToken, fakeSession, fakeUser } from "@/testing/fake-auth-client";
import { renderApp } from "@/testing/render-app";
import { apiError, stubMemoryApi } from "@/testing/stub-memory-api";

// Recovery codes (ADR 0042) in the web app: shown once after the first second step is turned on
// (copy, download, "I have saved them"), made again from Settings after the second step, and used
// on the sign-in's second step instead of the app's code.

const codes = Array.from({ length: 10 }, (_, index) => `abcd${"efghijklmn"[index]}-2345${"opqrstuvwx"[index]}`);
const thisDevice = {
  id: "6f1b2c3d-0000-4000-8000-000000000001",
  browser: "Firefox 133",
  system: "macOS",
  signed_in_at: "2026-11-20T10:00:00.000Z",
  last_active_at: "2026-11-25T10:00:00.000Z",
  current: true,
};

function withApp(aal: "aal1" | "aal2") {
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
}

describe("recovery codes", () => {
  it("shows the codes once after the first authenticator app is on, to copy or download, until they are saved", async () => {
    const api = stubMemoryApi({
      "GET /api/v1/account/devices": () => ({ devices: [thisDevice] }),
      "POST /auth/v1/factors/recovery-codes": () => Response.json({ codes, created_at: "2026-11-27T10:00:00Z" }),
      "GET /auth/v1/factors/recovery-codes": () => ({ remaining: 10, created_at: "2026-11-27T10:00:00Z" }),
    });
    const client = new FakeAuthClient({ session: fakeSession() });
    const { user } = renderApp("/settings", { client });

    await user.click(await screen.findByRole("button", { name: "Add authenticator app" }));
    await user.type(await screen.findByLabelText("Code from the app"), "123456");
    await user.click(screen.getByRole("button", { name: "Turn on" }));

    const shown = await screen.findByRole("list", { name: "Recovery codes" });
    expect(
      within(shown)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(codes);
    expect(screen.getByText("This is the only time they are shown. You can make new ones at any time.")).toBeInTheDocument();
    expect(api.calls("POST /auth/v1/factors/recovery-codes")[0]?.headers.get("authorization")).toMatch(/^Bearer /);

    await user.click(screen.getByRole("button", { name: "Copy" }));
    expect(await navigator.clipboard.readText()).toBe(codes.join("\n"));
    expect(screen.getByRole("button", { name: "Copied" })).toBeInTheDocument();

    const saved = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    const file = vi.spyOn(URL, "createObjectURL");
    await user.click(screen.getByRole("button", { name: "Download" }));
    expect(saved).toHaveBeenCalledTimes(1);
    expect(saved.mock.contexts[0]).toHaveProperty("download", "memory-box-recovery-codes.txt");
    const blob = file.mock.calls[0]?.[0] as Blob;
    expect(await blob.text()).toContain(codes.join("\n"));

    await user.click(screen.getByRole("button", { name: "I have saved them" }));
    expect(screen.queryByRole("list", { name: "Recovery codes" })).not.toBeInTheDocument();
    expect(screen.queryByText(codes[0]!)).not.toBeInTheDocument();
    expect(await screen.findByText("Recovery codes saved")).toBeInTheDocument();
  });

  it("asks for the app's code before making new codes when the server wants it, then shows the new ones", async () => {
    let asked = 0;
    stubMemoryApi({
      "GET /api/v1/account/devices": () => ({ devices: [thisDevice] }),
      "GET /auth/v1/factors/recovery-codes": () => ({ remaining: 3, created_at: "2026-11-20T10:00:00Z" }),
      "POST /auth/v1/factors/recovery-codes": () =>
        asked++ === 0
          ? apiError(403, "insufficient_aal", "Confirm your second step before making new recovery codes.")
          : Response.json({ codes, created_at: "2026-11-27T10:00:00Z" }),
    });
    const client = withApp("aal2");
    const { user } = renderApp("/settings", { client });

    expect(await screen.findByText(/Recovery codes: 3 of 10 left/)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Generate new recovery codes" }));
    const question = await screen.findByRole("alertdialog");
    expect(question).toHaveTextContent("Your old recovery codes stop working at once");
    await user.click(within(question).getByRole("button", { name: "Generate new codes" }));

    const confirm = await screen.findByRole("dialog", { name: "Confirm it's you" });
    await user.type(within(confirm).getByLabelText("Authentication code"), "123456");
    await user.click(within(confirm).getByRole("button", { name: "Verify" }));
    expect(client.mfaMocks.challengeAndVerify).toHaveBeenLastCalledWith({ factorId: "fake-factor", code: "123456" });

    const shown = await screen.findByRole("list", { name: "Recovery codes" });
    expect(within(shown).getAllByRole("listitem")).toHaveLength(10);
    expect(asked).toBe(2);
  });

  it("offers a recovery code on the sign-in's second step, explains a wrong one, and opens the app with a right one", async () => {
    let tried = 0;
    const api = stubMemoryApi({
      "GET /api/v1/account/devices": () => ({ devices: [thisDevice] }),
      "POST /auth/v1/factors/recovery-codes/verify": () =>
        tried++ === 0
          ? apiError(422, "mfa_verification_failed", "This recovery code is not right, or it was already used.")
          : Response.json({ access_token: fakeAccessToken({ aal: "aal2" }), refresh_token: "raised-refresh-token" }),
    });
    const client = withApp("aal1");
    const { user } = renderApp("/settings", { client });

    expect(await screen.findByText(/Use one of the recovery codes you saved/)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Use a recovery code" }));
    expect(screen.queryByLabelText("Authentication code")).not.toBeInTheDocument();
    const field = screen.getByLabelText("Recovery code");
    expect(screen.getByRole("button", { name: "Use recovery code" })).toBeDisabled();

    await user.type(field, "aaaaa-aaaaa");
    await user.click(screen.getByRole("button", { name: "Use recovery code" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("That recovery code is not right, or it was already used.");
    expect(screen.queryByRole("heading", { name: "Settings" })).not.toBeInTheDocument();

    await user.clear(field);
    await user.type(field, codes[0]!);
    await user.click(screen.getByRole("button", { name: "Use recovery code" }));
    expect(await screen.findByRole("heading", { name: "Settings" })).toBeInTheDocument();
    expect(api.calls("POST /auth/v1/factors/recovery-codes/verify").map((call) => call.body)).toEqual([
      { code: "aaaaa-aaaaa" },
      { code: codes[0] },
    ]);
    expect(client.setSession).toHaveBeenCalledWith({
      access_token: fakeAccessToken({ aal: "aal2" }),
      refresh_token: "raised-refresh-token",
    });
  });

  it("goes back from the recovery code to the app's code", async () => {
    stubMemoryApi({ "GET /api/v1/account/devices": () => ({ devices: [thisDevice] }) });
    const { user } = renderApp("/settings", { client: withApp("aal1") });
    await user.click(await screen.findByRole("button", { name: "Use a recovery code" }));
    await user.click(screen.getByRole("button", { name: "Use your authenticator app instead" }));
    await waitFor(() => expect(screen.getByLabelText("Authentication code")).toBeInTheDocument());
  });
});
