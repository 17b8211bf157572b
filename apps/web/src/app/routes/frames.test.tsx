import type { Frame, FramePairing } from "@memory-box/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

import { FakeAuthClient, fakeSession, fakeUser } from "@/testing/fake-auth-client";
import { currentPath, renderApp } from "@/testing/render-app";
import { apiError, stubMemoryApi, type ApiHandler } from "@/testing/stub-memory-api";

// Paired frames, the member's side (issue #36, ADR 0076): /device and Settings → Frames.

const you = fakeUser();
const member = () => new FakeAuthClient({ session: fakeSession(you) });
const waiting: FramePairing = { user_code: "BCDFGHJK", expires_at: "2026-11-28T14:00:00.000Z" };

function frame(overrides: Partial<Frame> = {}): Frame {
  return {
    id: "00000000-0000-4000-8000-00000000f001",
    name: "Living room",
    selection: { kind: "everything" },
    display: { clock: false, night: null },
    paired_by: { id: you.id, name: "Alex" },
    paired_at: "2026-11-20T10:00:00.000Z",
    last_seen_at: null,
    ...overrides,
  };
}

function openDevice(path: string, routes: Record<string, ApiHandler> = {}) {
  const api = stubMemoryApi({
    "GET /api/v1/frames/pairing": () => waiting,
    "GET /api/v1/tags": () => ({
      tags: [
        { tag: "beach", count: 3 },
        { tag: "kids", count: 2 },
      ],
    }),
    "POST /api/v1/frames": ({ body }) => frame({ name: (body as { name: string }).name }),
    "POST /api/v1/frames/pairing/deny": () => undefined,
    "GET /api/v1/frames": () => ({ frames: [] }),
    ...routes,
  });
  return { ...renderApp(path, { client: member() }), ...api };
}

describe("/device: a member allows a frame", () => {
  it("refuses what cannot be a code before asking the server", async () => {
    const { user, calls } = openDevice("/device");
    await user.type(await screen.findByLabelText("Code"), "abc");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(await screen.findByText("Enter the eight letters the frame shows, like BCDF-GHJK.")).toBeInTheDocument();
    expect(calls("GET /api/v1/frames/pairing")).toHaveLength(0);
  });

  it("says no frame waits with a code the server does not know", async () => {
    const { user, calls } = openDevice("/device", {
      "GET /api/v1/frames/pairing": () => apiError(404, "frame_pairing_not_found"),
    });
    await user.type(await screen.findByLabelText("Code"), "bcdf ghjk");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(
      await screen.findByText(
        "No frame is waiting with this code. Check the code on the frame; it shows a new one after ten minutes.",
      ),
    ).toBeInTheDocument();
    expect(calls("GET /api/v1/frames/pairing")).toHaveLength(1);
    expect(screen.queryByRole("button", { name: "Allow" })).not.toBeInTheDocument();
  });

  it("says so when too many codes were tried", async () => {
    const { user } = openDevice("/device", {
      "GET /api/v1/frames/pairing": () => apiError(429, "rate_limited"),
    });
    await user.type(await screen.findByLabelText("Code"), "BCDFGHJK");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(await screen.findByText("Too many codes were tried. Wait a few minutes, then try again.")).toBeInTheDocument();
  });

  it("takes the code from the address, checks the form, and allows the frame with its name, tags and display", async () => {
    const { user, calls } = openDevice("/device?code=bcdf-ghjk");
    expect(await screen.findByRole("heading", { level: 1, name: "Set up this frame" })).toBeInTheDocument();
    expect(screen.getByText("The frame showing BCDF-GHJK is waiting. Name it and choose what it shows.")).toBeInTheDocument();

    const name = screen.getByLabelText("Name");
    expect(name).toHaveValue("Living room");
    await user.clear(name);
    await user.click(screen.getByRole("radio", { name: "Some tags" }));
    await user.click(screen.getByRole("button", { name: "Allow" }));
    expect(await screen.findByText("Give the frame a name.")).toBeInTheDocument();
    expect(screen.getByText("Choose at least one tag.")).toBeInTheDocument();
    expect(calls("POST /api/v1/frames")).toHaveLength(0);

    await user.type(name, "  Hall  ");
    await user.click(await screen.findByRole("checkbox", { name: "beach" }));
    await user.click(screen.getByRole("checkbox", { name: "Show a clock" }));
    await user.click(screen.getByRole("button", { name: "Allow" }));

    expect(await screen.findByRole("heading", { level: 1, name: "The frame is ready" })).toBeInTheDocument();
    expect(calls("POST /api/v1/frames")[0]!.body).toEqual({
      user_code: "BCDFGHJK",
      name: "Hall",
      selection: { kind: "tags", tags: ["beach"] },
      display: { clock: true, night: { from: "22:00", to: "07:00" } },
    });
    expect(screen.getByRole("link", { name: "Open Frames in Settings" })).toHaveAttribute("href", "/settings/frames");
  });

  it("checks a range of dates: one end at least, in order", async () => {
    // The frame's QR code: RFC 8628's verification_uri_complete, as the server makes it.
    const { user, calls } = openDevice("/device?user_code=BCDF-GHJK");
    await user.click(await screen.findByRole("radio", { name: "A range of dates" }));
    await user.click(screen.getByRole("button", { name: "Allow" }));
    expect(await screen.findByText("Give a first or a last day.")).toBeInTheDocument();
    await user.type(screen.getByLabelText("First day"), "2024-06-10");
    await user.type(screen.getByLabelText("Last day"), "2024-06-01");
    await user.click(screen.getByRole("button", { name: "Allow" }));
    expect(await screen.findByText("The first day must not be after the last.")).toBeInTheDocument();
    await user.clear(screen.getByLabelText("Last day"));
    await user.click(screen.getByRole("checkbox", { name: "Dim at night" }));
    await user.click(screen.getByRole("button", { name: "Allow" }));
    await screen.findByRole("heading", { level: 1, name: "The frame is ready" });
    expect(calls("POST /api/v1/frames")[0]!.body).toMatchObject({
      selection: { kind: "dates", from: "2024-06-10", to: null },
      display: { clock: false, night: null },
    });
  });

  it("denies the frame", async () => {
    const { user, calls } = openDevice("/device?code=BCDFGHJK");
    await user.click(await screen.findByRole("button", { name: "Deny" }));
    expect(await screen.findByRole("heading", { level: 1, name: "The frame was not connected" })).toBeInTheDocument();
    expect(calls("POST /api/v1/frames/pairing/deny")[0]!.body).toEqual({ user_code: "BCDFGHJK" });
    expect(calls("POST /api/v1/frames")).toHaveLength(0);
  });

  it("goes back to the code when the pairing was answered or expired meanwhile", async () => {
    const { user } = openDevice("/device?code=BCDFGHJK", {
      "POST /api/v1/frames": () => apiError(404, "frame_pairing_not_found"),
    });
    await user.click(await screen.findByRole("button", { name: "Allow" }));
    expect(await screen.findByLabelText("Code")).toBeInTheDocument();
    expect(screen.getByText(/^No frame is waiting with this code/)).toBeInTheDocument();
  });

  it("asks a signed-out visitor to sign in first, and comes back to the code after", async () => {
    stubMemoryApi({});
    const { router } = renderApp("/device?code=BCDF-GHJK", { client: new FakeAuthClient() });
    await vi.waitFor(() => expect(currentPath(router)).toMatch(/^\/auth\?/));
    expect(new URLSearchParams(router.state.location.search).get("next")).toBe("/device?code=BCDF-GHJK");
  });
});

function openFrames(routes: Record<string, ApiHandler> = {}) {
  const api = stubMemoryApi({
    "GET /api/v1/tags": () => ({ tags: [{ tag: "beach", count: 3 }] }),
    ...routes,
  });
  return { ...renderApp("/settings/frames", { client: member() }), ...api };
}

describe("Settings → Frames", () => {
  it("lists the frames with what each shows in words, who paired it and when it was last seen", async () => {
    openFrames({
      "GET /api/v1/frames": () => ({
        frames: [
          frame({ name: "Hall", selection: { kind: "tags", tags: ["beach", "kids"] }, last_seen_at: new Date().toISOString() }),
          frame({ id: "00000000-0000-4000-8000-00000000f002", selection: { kind: "dates", from: "2024-06-01", to: null } }),
        ],
      }),
    });
    const list = await screen.findByRole("list", { name: "Paired frames" });
    const [hall, living] = within(list).getAllByRole("listitem");
    expect(hall).toHaveAccessibleName("Hall");
    expect(within(hall!).getByText("Shows memories tagged beach, kids")).toBeInTheDocument();
    expect(within(hall!).getByText("Paired by Alex on November 20, 2026")).toBeInTheDocument();
    expect(within(hall!).getByText("Last seen just now")).toBeInTheDocument();
    expect(within(living!).getByText("Shows memories from June 1, 2024 on")).toBeInTheDocument();
    expect(within(living!).getByText("Not seen yet")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Frames" })).toHaveAttribute("aria-current", "page");
  });

  it("says how to add one when there is none", async () => {
    openFrames({ "GET /api/v1/frames": () => ({ frames: [] }) });
    expect(await screen.findByText("No frames yet")).toBeInTheDocument();
    expect(screen.getByText(`On the frame, open ${window.location.host}/frame. It shows a code.`)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Enter a code" })).toHaveAttribute("href", "/device");
  });

  it("says when the list could not be loaded, and tries again", async () => {
    let fail = true;
    const { user } = openFrames({
      "GET /api/v1/frames": () => (fail ? apiError(500, "unexpected_failure") : { frames: [frame()] }),
    });
    expect(await screen.findByText("The frames could not be loaded.")).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("Shows everything")).toBeInTheDocument();
  });

  it("edits a frame's name, what it shows and its clock", async () => {
    let frames = [frame()];
    const { user, calls } = openFrames({
      "GET /api/v1/frames": () => ({ frames }),
      "PATCH /api/v1/frames/:id": ({ body }) => {
        const change = body as Partial<Frame>;
        frames = [{ ...frames[0]!, ...change }];
        return frames[0];
      },
    });
    await user.click(await screen.findByRole("button", { name: "Edit" }));
    const name = screen.getByLabelText("Name");
    await user.clear(name);
    await user.type(name, "Kitchen");
    await user.click(screen.getByRole("radio", { name: "On this day (this day in earlier years)" }));
    await user.click(screen.getByRole("checkbox", { name: "Show a clock" }));
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Shows On this day")).toBeInTheDocument();
    expect(calls("PATCH /api/v1/frames/:id")[0]!.body).toEqual({
      name: "Kitchen",
      selection: { kind: "on-this-day" },
      display: { clock: true, night: null },
    });
    expect(screen.getByRole("listitem", { name: "Kitchen" })).toBeInTheDocument();
  });

  it("removes a frame after asking, saying it goes dark within a minute", async () => {
    let frames = [frame()];
    const { user, calls } = openFrames({
      "GET /api/v1/frames": () => ({ frames }),
      "DELETE /api/v1/frames/:id": () => {
        frames = [];
        return undefined;
      },
    });
    await user.click(await screen.findByRole("button", { name: "Remove" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Remove Living room?" });
    expect(
      within(dialog).getByText("The frame goes dark within a minute. To show memories on it again, pair it again."),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Remove" }));
    await waitFor(() => expect(calls("DELETE /api/v1/frames/:id")).toHaveLength(1));
    expect(calls("DELETE /api/v1/frames/:id")[0]!.path).toBe(`/api/v1/frames/${frame().id}`);
    expect(await screen.findByText("No frames yet")).toBeInTheDocument();
  });
});
