import type { MemberDirectory, TagList } from "@memory-box/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { FakeAuthClient, fakeSession, fakeUser } from "@/testing/fake-auth-client";
import { renderApp } from "@/testing/render-app";
import { apiError, stubMemoryApi, type ApiHandler } from "@/testing/stub-memory-api";

/** Issue #34: Settings → Tags, where owners rename and merge the tags in use. */
const you = fakeUser();

function directory(role: "owner" | "member"): MemberDirectory {
  return { your_role: role, members: [{ id: you.id, email: you.email!, display_name: "Alex", role }], invitations: [] };
}

function settingsAs(role: "owner" | "member", routes: Record<string, ApiHandler> = {}) {
  let tags: TagList["tags"] = [
    { tag: "travel", count: 4 },
    { tag: "Kids", count: 2 },
    { tag: "children", count: 1 },
  ];
  const api = stubMemoryApi({
    "GET /api/v1/members": () => directory(role),
    "GET /api/v1/account/devices": () => ({ devices: [] }),
    "GET /api/v1/tags": () => ({ tags }),
    "PUT /api/v1/tags/:name": ({ params, body }) => {
      const to = (body as { name: string }).name;
      const from = tags.find(({ tag }) => tag === params.name)!;
      const into = tags.find(({ tag }) => tag !== from.tag && tag.toLowerCase() === to.toLowerCase());
      tags = into
        ? tags.filter((tag) => tag !== from).map((tag) => (tag === into ? { tag: to, count: tag.count + from.count } : tag))
        : tags.map((tag) => (tag === from ? { tag: to, count: tag.count } : tag));
      return { name: to, memories: from.count };
    },
    ...routes,
  });
  const view = renderApp("/settings", { client: new FakeAuthClient({ session: fakeSession(you) }) });
  return { ...view, ...api };
}

const rows = () =>
  within(screen.getByRole("list", { name: "Tags in use" }))
    .getAllByRole("listitem")
    .map((item) => item.textContent);

describe("Settings → Tags", () => {
  it("lists the tags in use with their counts for an owner", async () => {
    settingsAs("owner");
    expect(await screen.findByRole("heading", { name: "Tags" })).toBeInTheDocument();
    await waitFor(() => expect(rows()).toEqual(["travel4 memories", "Kids2 memories", "children1 memory"]));
  });

  it("shows a member nothing of it", async () => {
    const { calls } = settingsAs("member");
    await screen.findByRole("heading", { name: "Profile" });
    await waitFor(() => expect(calls("GET /api/v1/members")).not.toHaveLength(0));
    expect(screen.queryByRole("heading", { name: "Tags" })).not.toBeInTheDocument();
    expect(calls("GET /api/v1/tags")).toHaveLength(0);
  });

  it("renames a tag, and merges one into another by its name", async () => {
    const { user, calls } = settingsAs("owner");
    await user.click(await screen.findByRole("button", { name: "Rename travel" }));
    const field = screen.getByRole("textbox", { name: "New name for travel" });
    expect(field).toHaveFocus();
    await user.clear(field);
    await user.type(field, "Trips{Enter}");
    expect(await screen.findByText("“travel” is now “Trips”.")).toBeInTheDocument();
    expect(calls("PUT /api/v1/tags/:name")[0]?.body).toEqual({ name: "Trips" });
    await waitFor(() => expect(rows()).toEqual(["Trips4 memories", "Kids2 memories", "children1 memory"]));

    await user.click(screen.getByRole("button", { name: "Rename Kids" }));
    const kids = screen.getByRole("textbox", { name: "New name for Kids" });
    await user.clear(kids);
    await user.type(kids, "Children");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Tags merged")).toBeInTheDocument();
    expect(screen.getByText("“Kids” is now part of “Children”.")).toBeInTheDocument();
    await waitFor(() => expect(rows()).toEqual(["Trips4 memories", "Children3 memories"]));
  });

  it("says the rule at the field for an empty name or a comma, and sends nothing", async () => {
    const { user, calls } = settingsAs("owner");
    await user.click(await screen.findByRole("button", { name: "Rename travel" }));
    const field = screen.getByRole("textbox", { name: "New name for travel" });
    await user.clear(field);
    await user.type(field, "a, b{Enter}");
    expect(field).toHaveAttribute("aria-invalid", "true");
    expect(field).toHaveAccessibleDescription("A tag has 1 to 50 characters and no comma.");
    expect(calls("PUT /api/v1/tags/:name")).toHaveLength(0);
    await user.keyboard("{Escape}");
    expect(screen.getByRole("button", { name: "Rename travel" })).toBeInTheDocument();
  });

  it("reports a refused rename and keeps the tags as they were", async () => {
    const { user } = settingsAs("owner", {
      "PUT /api/v1/tags/:name": () => apiError(403, "owner_only", "Only an owner can do this."),
    });
    await user.click(await screen.findByRole("button", { name: "Rename travel" }));
    await user.type(screen.getByRole("textbox", { name: "New name for travel" }), "s{Enter}");
    expect(await screen.findByText("Only an owner can do this.")).toBeInTheDocument();
    expect(rows()[0]).toContain("travel");
  });
});
