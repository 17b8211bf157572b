import type { BoxSettings, BoxSettingsChange, MemberDirectory } from "@memory-box/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { FakeAuthClient, fakeSession, fakeUser } from "@/testing/fake-auth-client";
import { fakeMemory, fakePhoto } from "@/testing/memory-fixtures";
import { renderApp } from "@/testing/render-app";
import { stubMemoryApi, unsetBox, type ApiHandler } from "@/testing/stub-memory-api";

/** Settings → "Our box" (issue #34 "Their box", ADR 0065). */
const you = fakeUser();

function directory(role: "owner" | "member"): MemberDirectory {
  return { your_role: role, members: [{ id: you.id, email: you.email!, display_name: "Alex", role }], invitations: [] };
}

const picnicPhoto = fakePhoto({ width: 400, height: 300 });
const picnic = fakeMemory({ title: "Picnic by the lake", photos: [picnicPhoto] });
const saved: BoxSettings = {
  name: "Ann & Ben",
  cover: {
    id: picnicPhoto.id,
    url: picnicPhoto.url,
    thumbnail_url: picnicPhoto.thumbnail_url,
    width: 400,
    height: 300,
    placeholder: picnicPhoto.placeholder,
  },
  together_since: "2019-06-01",
  updated_at: "2026-11-28T10:00:00.000Z",
  updated_by: you.id,
};

function settingsAs(role: "owner" | "member", box: BoxSettings, routes: Record<string, ApiHandler> = {}) {
  const api = stubMemoryApi({
    "GET /api/v1/members": () => directory(role),
    "GET /api/v1/account/devices": () => ({ devices: [] }),
    "GET /api/v1/box": () => box,
    "GET /api/v1/memories": () => ({ items: [picnic], next_cursor: null, matched: 1, total: 1 }),
    ...routes,
  });
  const view = renderApp("/settings", { client: new FakeAuthClient({ session: fakeSession(you) }) });
  return { ...view, ...api };
}

async function section(): Promise<HTMLElement> {
  const heading = await screen.findByRole("heading", { level: 2, name: "Our box" });
  return heading.closest<HTMLElement>("[data-slot=card]")!;
}

describe("Settings: our box", () => {
  it("lets an owner name the box, choose a collection's photo as cover and the day together since, in one save", async () => {
    const puts: BoxSettingsChange[] = [];
    const { user } = settingsAs("owner", unsetBox, {
      "PUT /api/v1/box": ({ body }) => {
        puts.push(body as BoxSettingsChange);
        return { ...saved, ...(body as object), cover: saved.cover, updated_at: "2026-11-28T11:00:00.000Z" };
      },
    });
    const box = await section();
    const name = await within(box).findByLabelText("Name");
    expect(name).toHaveValue("");
    expect(within(box).getByRole("radio", { name: "No cover" })).toBeChecked();

    await user.type(name, "  Ann & Ben ");
    await user.click(await within(box).findByRole("radio", { name: "Photo from Picnic by the lake" }));
    await user.type(within(box).getByLabelText("Together since"), "2019-06-01");
    await user.click(within(box).getByRole("button", { name: "Save box" }));

    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({ name: "Ann & Ben", cover_photo_id: picnicPhoto.id, together_since: "2019-06-01" });
    expect(await screen.findByText("The box is saved")).toBeInTheDocument();
  });

  it("starts from what is saved, and unsets everything with an empty name, no cover and no date", async () => {
    const puts: BoxSettingsChange[] = [];
    const { user } = settingsAs("owner", saved, {
      "PUT /api/v1/box": ({ body }) => {
        puts.push(body as BoxSettingsChange);
        return { ...unsetBox, updated_at: "2026-11-28T11:00:00.000Z", updated_by: you.id };
      },
    });
    const box = await section();
    expect(await within(box).findByLabelText("Name")).toHaveValue("Ann & Ben");
    expect(within(box).getByLabelText("Together since")).toHaveValue("2019-06-01");
    expect(await within(box).findByRole("radio", { name: "The box's cover" })).toBeChecked();

    await user.clear(within(box).getByLabelText("Name"));
    await user.click(within(box).getByRole("radio", { name: "No cover" }));
    await user.clear(within(box).getByLabelText("Together since"));
    await user.click(within(box).getByRole("button", { name: "Save box" }));

    await waitFor(() => expect(puts).toEqual([{ name: null, cover_photo_id: null, together_since: null }]));
  });

  it("offers the collection's photos 30 at a time, videos left out, and brings the next page of memories when needed", async () => {
    const many = fakeMemory({ title: "Summer", photos: Array.from({ length: 40 }, () => fakePhoto()) });
    const film = fakeMemory({ title: "Film", photos: [fakePhoto({ kind: "video" })] });
    const later = fakeMemory({ title: "Later", photos: [fakePhoto()] });
    const { user, calls } = settingsAs("owner", unsetBox, {
      "GET /api/v1/memories": () =>
        calls("GET /api/v1/memories").length <= 1
          ? { items: [many, film], next_cursor: "next", matched: 3, total: 3 }
          : { items: [later], next_cursor: null, matched: 3, total: 3 },
    });
    const box = await section();
    const group = await within(box).findByRole("group", { name: "Cover" });
    // "No cover" and 30 photos.
    await waitFor(() => expect(within(group).getAllByRole("radio")).toHaveLength(31));
    expect(within(group).queryByRole("radio", { name: "Photo from Film" })).not.toBeInTheDocument();

    await user.click(within(group).getByRole("button", { name: "Show more photos" }));
    await waitFor(() => expect(within(group).getAllByRole("radio")).toHaveLength(42));
    expect(within(group).getByRole("radio", { name: "Photo from Later" })).toBeInTheDocument();
    expect(within(group).queryByRole("button", { name: "Show more photos" })).not.toBeInTheDocument();
  });

  it("shows each rule at its field and sends nothing that breaks one", async () => {
    const puts: unknown[] = [];
    const { user } = settingsAs("owner", unsetBox, { "PUT /api/v1/box": ({ body }) => void puts.push(body) });
    const box = await section();
    const name = await within(box).findByLabelText("Name");

    await user.type(name, "n".repeat(81));
    expect(name).toHaveAttribute("aria-invalid", "true");
    expect(
      within(box).getByText(
        "Shown on home and as the installed app's name, which can be read without signing in. Leave it empty for no name. 81/80 characters.",
      ),
    ).toHaveClass("text-destructive");
    expect(within(box).getByRole("button", { name: "Save box" })).toBeDisabled();

    await user.clear(name);
    await user.type(within(box).getByLabelText("Together since"), "2999-01-01");
    expect(within(box).getByRole("alert")).toHaveTextContent("Choose a date that is not in the future.");
    expect(within(box).getByRole("button", { name: "Save box" })).toBeDisabled();
    expect(puts).toEqual([]);
  });

  it("says the server's refusal at the field it names", async () => {
    const { user } = settingsAs("owner", unsetBox, {
      "PUT /api/v1/box": () =>
        Response.json(
          {
            code: "validation_failed",
            message: "body.cover_photo_id: must be a photo in one of the collection's memories",
            details: [{ path: "body.cover_photo_id", message: "must be a photo in one of the collection's memories" }],
          },
          { status: 400 },
        ),
    });
    const box = await section();
    await user.click(await within(box).findByRole("radio", { name: "Photo from Picnic by the lake" }));
    await user.click(within(box).getByRole("button", { name: "Save box" }));
    const group = within(box).getByRole("group", { name: "Cover" });
    expect(await within(group).findByRole("alert")).toHaveTextContent("must be a photo in one of the collection's memories");
  });

  it("shows a member the box read-only, with no form and no request to change it", async () => {
    const { calls } = settingsAs("member", saved);
    const box = await section();
    expect(await within(box).findByText("Ann & Ben")).toBeInTheDocument();
    expect(within(box).getByRole("img", { name: "The box's cover" })).toHaveAttribute("src", saved.cover!.thumbnail_url);
    expect(within(box).getByText("June 1, 2019")).toBeInTheDocument();
    expect(within(box).getByText("Only an owner can change these.")).toBeInTheDocument();
    expect(within(box).queryByRole("textbox")).not.toBeInTheDocument();
    expect(within(box).queryByRole("button")).not.toBeInTheDocument();
    expect(calls("PUT /api/v1/box")).toEqual([]);
  });

  it("says what a member sees when nothing is set", async () => {
    settingsAs("member", unsetBox);
    const box = await section();
    await waitFor(() => expect(within(box).getAllByText("Not set")).toHaveLength(3));
  });
});
