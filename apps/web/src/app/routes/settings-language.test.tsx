import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import { setLocale } from "@/lib/locale";
import { FakeAuthClient, fakeSession, fakeUser } from "@/testing/fake-auth-client";
import { renderApp } from "@/testing/render-app";
import { stubMemoryApi } from "@/testing/stub-memory-api";
import { stubRpc } from "@/testing/stub-rpc";

afterEach(() => setLocale(undefined));

describe("the language", () => {
  it("is chosen in Settings, each language in its own name, and applied at once without a reload", async () => {
    stubMemoryApi({ "GET /api/v1/account/devices": () => ({ devices: [] }) });
    const client = new FakeAuthClient({ session: fakeSession() });
    const { user } = renderApp("/settings", { client });

    const select = await screen.findByLabelText("Language");
    expect([...(select as HTMLSelectElement).options].map((option) => option.text)).toEqual([
      "As this browser is set",
      "English",
      "Deutsch",
      "Français",
      "Español",
      "Português (Brasil)",
      "Italiano",
      "Nederlands",
      "Polski",
      "日本語",
      "العربية",
    ]);
    await user.selectOptions(select, "Deutsch");

    // The same page, in German, once the German chunk is in.
    expect(await screen.findByRole("heading", { name: "Darstellung" })).toBeInTheDocument();
    expect(screen.getByLabelText("Sprache")).toHaveValue("de");
    await waitFor(() => expect(document.documentElement).toHaveAttribute("lang", "de"));
    expect(document.documentElement).toHaveAttribute("dir", "ltr");
    expect(window.localStorage.getItem("memory-box-locale")).toBe("de");
    // Kept on the account too, for the e-mails the server sends.
    await waitFor(() => expect(client.updateUser).toHaveBeenCalledWith({ data: { locale: "de" } }));

    // Back to the browser's languages (English here).
    await user.selectOptions(screen.getByLabelText("Sprache"), "Wie im Browser eingestellt");
    expect(await screen.findByRole("heading", { name: "Appearance" })).toBeInTheDocument();
    expect(window.localStorage.getItem("memory-box-locale")).toBeNull();
    await waitFor(() => expect(client.updateUser).toHaveBeenLastCalledWith({ data: { locale: null } }));
  });

  describe("of the account, on a new device", () => {
    /** Signs in on the auth screen as a member whose account keeps `locale`. */
    async function signInAs(locale: unknown) {
      stubRpc({ is_email_invited: () => true, mark_email_used: () => null });
      const { user, client } = renderApp("/auth");
      client.signInWithPassword.mockImplementationOnce(async () => {
        const session = fakeSession(fakeUser({ user_metadata: { locale } }));
        client.emit("SIGNED_IN", session);
        return { data: { user: session.user, session }, error: null };
      });
      await user.type(await screen.findByLabelText("Email"), "alex@example.com");
      await user.type(screen.getByLabelText("Password"), "secret-password");
      await user.click(screen.getByRole("button", { name: "Sign In" }));
    }

    it("is taken at sign-in by a browser with no choice of its own, at once and from then on", async () => {
      await signInAs("de");

      expect(await screen.findByText("Willkommen zurück, alex!")).toBeInTheDocument();
      await waitFor(() => expect(document.documentElement).toHaveAttribute("lang", "de"));
      expect(window.localStorage.getItem("memory-box-locale")).toBe("de");
    });

    it("leaves a browser's own choice as it is", async () => {
      setLocale("en");
      await signInAs("de");
      expect(await screen.findByText("Welcome back, alex!")).toBeInTheDocument();
      expect(window.localStorage.getItem("memory-box-locale")).toBe("en");
    });
  });
});
