import type { Memory } from "@memory-box/contract";
import { loadWebMessages } from "@memory-box/messages/web";
import { QueryClient } from "@tanstack/react-query";
import { act, render, screen, within } from "@testing-library/react";
import axe from "axe-core";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";

import { memoryKeys } from "@/features/memories/api/memory-keys";
import { MemoryCardView } from "@/features/memories/components/memory-card-view";
import { OnThisDaySection } from "@/features/memories/components/on-this-day";
import { applyLiveEvent } from "@/features/memories/hooks/use-live-updates";
import { formatDuration } from "@/features/memories/utils/media";
import { clearMediaProgress } from "@/features/memories/utils/media-progress";
import { createIntl, englishIntl, setActiveIntl } from "@/lib/intl";
import { fakeMemory, fakePhoto } from "@/testing/memory-fixtures";

afterEach(() => {
  setActiveIntl(englishIntl());
  clearMediaProgress();
});

function renderCard(memory: Memory) {
  const router = createMemoryRouter([{ path: "*", element: <MemoryCardView memory={memory} /> }]);
  return render(<RouterProvider router={router} />);
}

/** axe's findings on what is rendered (colour contrast aside: jsdom lays nothing out). */
async function axeViolations(container: HTMLElement): Promise<string[]> {
  const results = await axe.run(container, { preload: false, rules: { "color-contrast": { enabled: false } } });
  return results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.html).join(", ")}`);
}

const poster = (id: string) => `/storage/v1/object/authenticated/memory-photos/${id}.thumb.webp`;

describe("a video on a card", () => {
  it("shows its poster with a play mark and its duration, and is named as a video", async () => {
    const video = fakePhoto({ kind: "video", duration_seconds: 42, video_url: "/v/clip.mp4", video_content_type: "video/mp4" });
    const { container } = renderCard(fakeMemory({ photos: [video] }));

    const image = screen.getByRole("img", { name: "Video 1, 0:42" });
    expect(image).toHaveAttribute("src", poster(video.id));
    expect(container.querySelector('[data-media-mark="play"]')).toBeInTheDocument();
    expect(container.querySelector('[data-media-mark="duration"]')).toHaveTextContent("0:42");
    expect(await axeViolations(container)).toEqual([]);
  });

  it("writes the duration as a player does, in the language's digits", async () => {
    expect(formatDuration(42, { intlLocale: "en" })).toBe("0:42");
    expect(formatDuration(3723, { intlLocale: "en" })).toBe("1:02:03");
    expect(formatDuration(605.4, { intlLocale: "de" })).toBe("10:05");

    setActiveIntl(createIntl("ar", await loadWebMessages("ar")));
    const long = fakePhoto({ kind: "video", duration_seconds: 3723, video_url: "/v/long.mp4" });
    const { container } = renderCard(fakeMemory({ photos: [long, fakePhoto()] }));
    const arabic = new Intl.NumberFormat("ar", { minimumIntegerDigits: 2 }).format(3);
    expect(container.querySelector('[data-media-mark="duration"]')?.textContent).toContain(arabic);
    expect(screen.getByRole("img", { name: /^فيديو 1، / })).toBeInTheDocument();
  });

  it("marks a Live Photo LIVE, and names it so", () => {
    const live = fakePhoto({ kind: "live", duration_seconds: 2.5, video_url: "/v/motion.mp4" });
    const { container } = renderCard(fakeMemory({ photos: [live] }));

    expect(screen.getByRole("img", { name: "Live Photo 1" })).toBeInTheDocument();
    expect(container.querySelector('[data-media-mark="live"]')).toHaveTextContent("LIVE");
    expect(container.querySelector('[data-media-mark="play"]')).not.toBeInTheDocument();
  });

  it("says how far a video's preparation is, from the live stream, and fetches the memory again once it is ready", async () => {
    const video = fakePhoto({ kind: "video", duration_seconds: 12, status: "processing" });
    const memory = fakeMemory({ photos: [video] });
    const { container } = renderCard(memory);
    const mark = () => container.querySelector('[data-media-mark="processing"]');
    expect(mark()).toHaveTextContent("Preparing video…");

    const client = new QueryClient();
    client.setQueryData(memoryKeys.detail(memory.id), memory);
    const refetched = vi.spyOn(client, "invalidateQueries");
    const event = (status: string, progress: number) => ({
      type: "media.progress",
      data: JSON.stringify({ id: video.id, memory_id: memory.id, status, progress, error_code: null }),
      lastEventId: "",
    });
    act(() => applyLiveEvent(client, event("processing", 0.4)));
    expect(mark()).toHaveTextContent("Preparing video… 40%");
    expect(refetched).not.toHaveBeenCalled();

    act(() => applyLiveEvent(client, event("ready", 1)));
    expect(refetched).toHaveBeenCalledWith({ queryKey: memoryKeys.detail(memory.id), exact: true });
    expect(refetched).toHaveBeenCalledWith({ queryKey: memoryKeys.lists() });
    // Until the fresh answer is there the card does not step back to "Preparing".
    expect(mark()).not.toBeInTheDocument();
  });

  it("names why a video could not be prepared", async () => {
    const failed = fakePhoto({ kind: "video", status: "failed", error_code: "undecodable_video" });
    const unknown = fakePhoto({ kind: "video", status: "failed", error_code: "something_new" });
    const { container } = renderCard(fakeMemory({ photos: [failed, unknown] }));

    const marks = container.querySelectorAll('[data-media-mark="failed"]');
    expect(marks[0]).toHaveTextContent("The video's picture could not be decoded; its format is not supported.");
    expect(marks[1]).toHaveTextContent("This video could not be prepared for playing.");
    expect(await axeViolations(container)).toEqual([]);
  });

  it("shows in On this day with its marks", () => {
    const video = fakePhoto({ kind: "video", duration_seconds: 75, video_url: "/v/clip.mp4" });
    const memory = fakeMemory({ photos: [video], memory_date: "2023-11-27" });
    const router = createMemoryRouter([
      {
        path: "*",
        element: (
          <OnThisDaySection answer={{ date: "2026-11-27", window_days: 3, groups: [{ years_ago: 3, memories: [memory] }] }} />
        ),
      },
    ]);
    const { container } = render(<RouterProvider router={router} />);
    const section = screen.getByRole("region", { name: "On this day" });
    expect(within(section).getByRole("link")).toBeInTheDocument();
    expect(container.querySelector('[data-media-mark="duration"]')).toHaveTextContent("1:15");
  });
});
