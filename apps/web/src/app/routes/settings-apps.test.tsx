import type { AppRegistration, MemberDirectory, RegisteredApp } from "@memory-box/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { FakeAuthClient, fakeSession, fakeUser } from "@/testing/fake-auth-client";
import { renderApp } from "@/testing/render-app";
import { apiError, stubMemoryApi, type ApiHandler } from "@/testing/stub-memory-api";

/** Settings → Apps (issue #36): the apps a member allowed, and owners' registered apps. */
const you = fakeUser();
const printer: RegisteredApp = {
  client_id: "0c6f3a1e-5b7d-4e2f-9a8b-1c2d3e4f5a6b",
  name: "Photo printer",
  client_type: "confidential",
  redirect_uris: ["https://print.example/callback"],
  created_at: "2026-11-20T10:00:00.000Z",
};

function directory(role: "owner" | "member"): MemberDirectory {
  return { your_role: role, members: [{ id: you.id, email: you.email!, display_name: "Alex", role }], invitations: [] };
}

function appsAs(role: "owner" | "member", routes: Record<string, ApiHandler> = {}) {
  const api = stubMemoryApi({
    "GET /api/v1/members": () => directory(role),
    "GET /api/v1/apps": () => ({ apps: [] }),
    ...routes,
  });
  const client = new FakeAuthClient({ session: fakeSession(you) });
  const view = renderApp("/settings/apps", { client });
  return { ...view, ...api, client };
}

async function section(name: string): Promise<HTMLElement> {
  const heading = await screen.findByRole("heading", { level: 2, name });
  return heading.closest<HTMLElement>("[data-slot=card]")!;
}

describe("Settings: apps", () => {
  it("lists the apps the member allowed, with what each may know, and removes one's access after asking", async () => {
    const { user, client } = appsAs("member");
    client.oauthMocks.listGrants.mockResolvedValue({
      data: [
        {
          client: { id: printer.client_id, name: "Photo printer", uri: "https://print.example", logo_uri: "" },
          scopes: ["openid", "email"],
          granted_at: "2026-11-21T10:00:00.000Z",
        },
      ],
      error: null,
    });
    const grants = await section("Apps you allowed");
    const row = await within(grants).findByRole("listitem", { name: "Photo printer" });
    expect(row).toHaveTextContent("Know that it is you and See your email address");
    await user.click(within(row).getByRole("button", { name: "Remove access" }));
    const confirm = await screen.findByRole("alertdialog", { name: "Remove Photo printer's access?" });
    client.oauthMocks.listGrants.mockResolvedValue({ data: [], error: null });
    await user.click(within(confirm).getByRole("button", { name: "Remove access" }));
    await waitFor(() => expect(client.oauthMocks.revokeGrant).toHaveBeenCalledWith({ clientId: printer.client_id }));
    expect(await within(grants).findByText("You have not allowed any app.")).toBeVisible();
  });

  it("says so when the grants cannot be read", async () => {
    const { client } = appsAs("member");
    client.oauthMocks.listGrants.mockRejectedValue(new TypeError("Failed to fetch"));
    const grants = await section("Apps you allowed");
    expect(await within(grants).findByRole("alert")).toHaveTextContent("The apps could not be loaded.");
  });

  it("shows a member who is not an owner no registry, and never asks the server for it", async () => {
    const { calls } = appsAs("member");
    await section("Apps you allowed");
    await waitFor(() => expect(calls("GET /api/v1/members")).not.toHaveLength(0));
    expect(screen.queryByRole("heading", { level: 2, name: "Apps registered here" })).toBeNull();
    expect(calls("GET /api/v1/apps")).toHaveLength(0);
  });

  it("lets an owner register an app and shows its secret once, until Done", async () => {
    const sent: AppRegistration[] = [];
    const { user } = appsAs("owner", {
      "POST /api/v1/apps": ({ body }) => {
        sent.push(body as AppRegistration);
        return Response.json({ ...printer, client_secret: "s3cr3t-shown-once" }, { status: 201 });
      },
    });
    const registry = await section("Apps registered here");
    expect(await within(registry).findByText("No app is registered.")).toBeVisible();
    await user.click(within(registry).getByRole("button", { name: "Register" }));
    expect(within(registry).getByRole("alert")).toHaveTextContent("Give the app a name and at least one address.");
    expect(sent).toEqual([]);

    await user.type(within(registry).getByLabelText("Name"), " Photo printer ");
    await user.type(
      within(registry).getByLabelText("Addresses it returns to"),
      "https://print.example/callback{enter}https://print.example/again",
    );
    await user.click(within(registry).getByRole("button", { name: "Register" }));
    await waitFor(() =>
      expect(sent).toEqual([
        {
          name: "Photo printer",
          redirect_uris: ["https://print.example/callback", "https://print.example/again"],
          client_type: "confidential",
        },
      ]),
    );
    expect(await within(registry).findByText("s3cr3t-shown-once")).toBeVisible();
    expect(within(registry).getByText(printer.client_id)).toBeVisible();
    expect(within(registry).getByText(/it is not shown again/)).toBeVisible();
    await user.click(within(registry).getByRole("button", { name: "Done" }));
    expect(within(registry).queryByText("s3cr3t-shown-once")).toBeNull();
  });

  it("says what the addresses must be when the server refuses them, and keeps what was typed", async () => {
    const { user } = appsAs("owner", {
      "POST /api/v1/apps": () => apiError(400, "validation_failed", "redirect_uris: only https or localhost"),
    });
    const registry = await section("Apps registered here");
    await user.type(within(registry).getByLabelText("Name"), "Printer");
    await user.type(within(registry).getByLabelText("Addresses it returns to"), "http://print.example/callback");
    await user.click(within(registry).getByRole("radio", { name: "It runs on the member's device only (no secret)" }));
    await user.click(within(registry).getByRole("button", { name: "Register" }));
    expect(await within(registry).findByRole("alert")).toHaveTextContent("https (or http on localhost)");
    expect(within(registry).getByLabelText("Addresses it returns to")).toHaveValue("http://print.example/callback");
  });

  it("gives a registered app a new secret, and removes one, each after asking", async () => {
    let apps = [printer];
    const { user, calls } = appsAs("owner", {
      "GET /api/v1/apps": () => ({ apps }),
      [`POST /api/v1/apps/${printer.client_id}/secret`]: () => ({ ...printer, client_secret: "brand-new-secret" }),
      [`DELETE /api/v1/apps/${printer.client_id}`]: () => {
        apps = [];
        return new Response(null, { status: 204 });
      },
    });
    const registry = await section("Apps registered here");
    const row = await within(registry).findByRole("listitem", { name: "Photo printer" });
    expect(row).toHaveTextContent("with a secret");
    await user.click(within(row).getByRole("button", { name: "New secret" }));
    await user.click(
      within(await screen.findByRole("alertdialog", { name: "Give Photo printer a new secret?" })).getByRole("button", {
        name: "New secret",
      }),
    );
    expect(await within(registry).findByText("brand-new-secret")).toBeVisible();

    await user.click(within(row).getByRole("button", { name: "Remove" }));
    await user.click(
      within(await screen.findByRole("alertdialog", { name: "Remove Photo printer?" })).getByRole("button", { name: "Remove" }),
    );
    expect(await within(registry).findByText("No app is registered.")).toBeVisible();
    // The secret of an app that is gone is not left on the screen.
    expect(within(registry).queryByText("brand-new-secret")).toBeNull();
    expect(calls(`DELETE /api/v1/apps/${printer.client_id}`)).toHaveLength(1);
  });
});
