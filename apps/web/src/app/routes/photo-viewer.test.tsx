import type { Memory } from "@memory-box/contract";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import { setLocale } from "@/lib/locale";
import { FakeAuthClient, fakeSession } from "@/testing/fake-auth-client";
import { fakeMemory, fakePhoto } from "@/testing/memory-fixtures";
import { currentPath, renderApp } from "@/testing/render-app";
import { apiError, stubMemoryApi } from "@/testing/stub-memory-api";

const photos = [
  fakePhoto({ width: 4000, height: 1000 }),
  fakePhoto({ width: 1200, height: 1600 }),
  fakePhoto({ width: 1600, height: 1200 }),
];
const memory = fakeMemory({ title: "Coast walk", photos });

function openViewer(path: string, shown: Memory = memory) {
  stubMemoryApi({
    "GET /api/v1/memories/:id": ({ params }) => (params.id === shown.id ? shown : apiError(404, "memory_not_found")),
    "GET /api/v1/memories": () => ({ items: [], next_cursor: null, matched: 0, total: 0 }),
    "GET /api/v1/tags": () => ({ tags: [] }),
  });
  return renderApp(path, { client: new FakeAuthClient({ session: fakeSession() }) });
}

afterEach(() => setLocale(undefined));

describe("photo viewer", () => {
  it("shows the photo whole from its preview, says which of how many, and steps with the arrow keys and buttons", async () => {
    const { user, router } = openViewer(`/memory/${memory.id}/photo/1`);

    const image = await screen.findByRole("img", { name: "Memory photo 1" });
    expect(image).toHaveAttribute("src", photos[0]?.preview_url);
    expect(image).toHaveClass("object-contain");
    expect(screen.getByText("1 / 3")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Previous photo" })).not.toBeInTheDocument();

    await user.keyboard("{ArrowRight}");
    expect(await screen.findByRole("img", { name: "Memory photo 2" })).toHaveAttribute("src", photos[1]?.preview_url);
    expect(screen.getByText("2 / 3")).toBeInTheDocument();
    expect(currentPath(router)).toBe(`/memory/${memory.id}/photo/2`);

    await user.click(screen.getByRole("button", { name: "Next photo" }));
    expect(await screen.findByText("3 / 3")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Next photo" })).not.toBeInTheDocument();
    await user.keyboard("{ArrowRight}");
    expect(screen.getByText("3 / 3")).toBeInTheDocument();

    await user.keyboard("{ArrowLeft}");
    expect(await screen.findByText("2 / 3")).toBeInTheDocument();
  });

  it("shows the full-size copy on request, and offers it for download", async () => {
    const { user } = openViewer(`/memory/${memory.id}/photo/2`);

    await user.click(await screen.findByRole("button", { name: "View full size" }));
    expect(screen.getByRole("img", { name: "Memory photo 2" })).toHaveAttribute("src", photos[1]?.url);
    const download = screen.getByRole("link", { name: "Download full size" });
    expect(download).toHaveAttribute("href", photos[1]?.url);
    expect(download).toHaveAttribute("download");
  });

  it("steps to the next photo on a swipe to the left", async () => {
    openViewer(`/memory/${memory.id}/photo/1`);
    const image = await screen.findByRole("img", { name: "Memory photo 1" });
    const stage = image.parentElement!;

    fireEvent.pointerDown(stage, { pointerId: 1, clientX: 300, clientY: 200 });
    fireEvent.pointerMove(stage, { pointerId: 1, clientX: 150, clientY: 210 });
    fireEvent.pointerUp(stage, { pointerId: 1, clientX: 100, clientY: 210 });

    expect(await screen.findByText("2 / 3")).toBeInTheDocument();
  });

  it("in Arabic, steps to the next photo with ← and a swipe to the right, the way the page reads", async () => {
    setLocale("ar");
    const { user } = openViewer(`/memory/${memory.id}/photo/1`);
    await screen.findByRole("img", { name: "صورة الذكرى 1" });
    await waitFor(() => expect(document.documentElement).toHaveAttribute("dir", "rtl"));

    await user.keyboard("{ArrowLeft}");
    expect(await screen.findByText("2 من 3")).toBeInTheDocument();
    await user.keyboard("{ArrowRight}");
    expect(await screen.findByText("1 من 3")).toBeInTheDocument();

    const stage = screen.getByRole("img", { name: "صورة الذكرى 1" }).parentElement!;
    fireEvent.pointerDown(stage, { pointerId: 1, clientX: 100, clientY: 200 });
    fireEvent.pointerMove(stage, { pointerId: 1, clientX: 250, clientY: 210 });
    fireEvent.pointerUp(stage, { pointerId: 1, clientX: 300, clientY: 210 });
    expect(await screen.findByText("2 من 3")).toBeInTheDocument();
  });

  it("zooms with the wheel, and a swipe then moves the photo instead of changing it", async () => {
    openViewer(`/memory/${memory.id}/photo/1`);
    const image = await screen.findByRole("img", { name: "Memory photo 1" });
    const stage = image.parentElement!;

    fireEvent.wheel(stage, { deltaY: -100 });
    await waitFor(() => expect(screen.getByRole("img", { name: "Memory photo 1" }).style.transform).toContain("scale(1.2)"));
    fireEvent.pointerDown(stage, { pointerId: 1, clientX: 300, clientY: 200 });
    fireEvent.pointerMove(stage, { pointerId: 1, clientX: 100, clientY: 200 });
    fireEvent.pointerUp(stage, { pointerId: 1, clientX: 100, clientY: 200 });

    expect(screen.getByText("1 / 3")).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "Memory photo 1" }).style.transform).toContain("translate(-200px, 0px)");
  });

  it("returns to the memory on Escape when it has a tab of its own", async () => {
    const { user, router } = openViewer(`/memory/${memory.id}/photo/3`);
    await screen.findByText("3 / 3");

    await user.keyboard("{Escape}");

    await waitFor(() => expect(currentPath(router)).toBe(`/memory/${memory.id}`));
    expect(await screen.findByRole("heading", { level: 1, name: "Coast walk" })).toBeInTheDocument();
  });

  it("says so for a photo number the memory does not have, and for a memory that does not exist", async () => {
    openViewer(`/memory/${memory.id}/photo/7`);
    expect(await screen.findByText("This memory has no photo 7.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to the memory" })).toHaveAttribute("href", `/memory/${memory.id}`);
  });

  it("shows Memory not found. for an unknown memory", async () => {
    openViewer("/memory/6f1b2c3d-0000-4000-8000-00000000abcd/photo/1");
    expect(await screen.findByText("Memory not found.")).toBeInTheDocument();
  });
});

describe("videos and Live Photos in the viewer", () => {
  const video = fakePhoto({
    kind: "video",
    duration_seconds: 42,
    video_url: "/storage/v1/object/authenticated/memory-photos/clip.mp4",
    video_content_type: "video/mp4",
  });
  const live = fakePhoto({
    kind: "live",
    duration_seconds: 2.5,
    video_url: "/storage/v1/object/authenticated/memory-photos/motion.mp4",
  });
  const moving = fakeMemory({ title: "First dance", photos: [fakePhoto(), video, live] });

  it("plays a video in the browser's player, labelled, from its playable copy with its poster, and swipes on to the Live Photo", async () => {
    const { user } = openViewer(`/memory/${moving.id}/photo/1`, moving);
    await screen.findByRole("img", { name: "Memory photo 1" });
    await user.keyboard("{ArrowRight}");

    const player = await screen.findByLabelText("Video 2, 0:42");
    expect(player.tagName).toBe("VIDEO");
    expect(player).toHaveAttribute("src", video.video_url);
    expect(player).toHaveAttribute("poster", video.preview_url);
    expect(player).toHaveAttribute("controls");
    expect(player).toHaveAttribute("playsinline");
    expect(player).toHaveAttribute("preload", "metadata");
    expect(screen.getByText("2 / 3")).toBeInTheDocument();
    // Nothing to zoom; the download is the playable copy.
    expect(screen.queryByRole("button", { name: "View full size" })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Download full size" })).toHaveAttribute("href", video.video_url);

    // A swipe across the player steps on, as across a photo.
    fireEvent.pointerDown(player, { pointerId: 1, clientX: 300, clientY: 200 });
    fireEvent.pointerMove(player, { pointerId: 1, clientX: 150, clientY: 210 });
    fireEvent.pointerUp(player, { pointerId: 1, clientX: 100, clientY: 210 });
    expect(await screen.findByText("3 / 3")).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "Live Photo 3" })).toHaveAttribute("src", live.preview_url);
  });

  it("leaves a focused player's arrow keys to the player", async () => {
    openViewer(`/memory/${moving.id}/photo/2`, moving);
    const player = await screen.findByLabelText("Video 2, 0:42");
    fireEvent.keyDown(player, { key: "ArrowRight" });
    expect(screen.getByText("2 / 3")).toBeInTheDocument();
  });

  it("plays a Live Photo's motion, muted and inline, on hover, on press, and from its LIVE button with the keyboard", async () => {
    const { user } = openViewer(`/memory/${moving.id}/photo/3`, moving);
    const still = await screen.findByRole("img", { name: "Live Photo 3" });
    const motion = () => document.querySelector<HTMLVideoElement>("video[data-live-motion]");
    expect(motion()).toBeNull();

    // A mouse resting on it.
    fireEvent.pointerEnter(still.parentElement!, { pointerType: "mouse" });
    await waitFor(() => expect(motion()).toHaveAttribute("src", live.video_url));
    expect(motion()!.muted).toBe(true);
    expect(motion()).toHaveAttribute("playsinline");
    fireEvent.pointerLeave(still.parentElement!, { pointerType: "mouse" });
    await waitFor(() => expect(motion()).toBeNull());

    // A finger pressing it, for as long as it presses.
    fireEvent.pointerDown(still, { pointerId: 2, pointerType: "touch", clientX: 10, clientY: 10 });
    await waitFor(() => expect(motion()).not.toBeNull());
    fireEvent.pointerUp(still, { pointerId: 2, pointerType: "touch", clientX: 10, clientY: 10 });
    await waitFor(() => expect(motion()).toBeNull());

    // The LIVE mark is its control.
    const button = screen.getByRole("button", { name: "Play the motion of Live Photo 3" });
    expect(button).toHaveTextContent("LIVE");
    expect(button).toHaveAttribute("aria-pressed", "false");
    button.focus();
    await user.keyboard("{Enter}");
    expect(button).toHaveAttribute("aria-pressed", "true");
    expect(motion()).not.toBeNull();
    fireEvent.ended(motion()!);
    await waitFor(() => expect(button).toHaveAttribute("aria-pressed", "false"));
    await user.keyboard(" ");
    expect(motion()).not.toBeNull();
    fireEvent.ended(motion()!);

    // Pressed with a mouse resting on it: the press plays it, the resting mouse does not undo the press.
    fireEvent.pointerEnter(still.parentElement!, { pointerType: "mouse" });
    await user.click(button);
    expect(button).toHaveAttribute("aria-pressed", "true");
    fireEvent.pointerLeave(still.parentElement!, { pointerType: "mouse" });
    expect(motion()).not.toBeNull();
  });

  it("shows a video still being prepared as its poster, saying so", async () => {
    const preparing = fakeMemory({ photos: [fakePhoto({ kind: "video", status: "processing", duration_seconds: 9 })] });
    openViewer(`/memory/${preparing.id}/photo/1`, preparing);
    expect(await screen.findByRole("img", { name: "Video 1, 0:09" })).toBeInTheDocument();
    expect(screen.getByText("Preparing video…")).toBeInTheDocument();
    expect(document.querySelector("video")).toBeNull();
  });
});
