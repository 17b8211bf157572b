import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { expect, test } from "./fixtures";
import { signIn } from "./support";

/** The FFmpeg the server uses (ADR 0053), to film the journey's clips: a test pattern and a tone. */
const ffmpegPath = (createRequire(import.meta.url)("@ffmpeg-installer/ffmpeg") as { path: string }).path;

async function film(name: string, seconds: number): Promise<{ name: string; mimeType: string; buffer: Buffer }> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-clip-"));
  const file = path.join(folder, name);
  try {
    await promisify(execFile)(ffmpegPath, [
      ...["-nostdin", "-v", "error", "-y"],
      ...["-f", "lavfi", "-i", `testsrc=size=320x240:rate=25:duration=${seconds}`],
      ...["-f", "lavfi", "-i", `sine=frequency=440:duration=${seconds}`],
      ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-movflags", "+faststart"],
      file,
    ]);
    const mimeType = name.toLowerCase().endsWith(".mov") ? "video/quicktime" : "video/mp4";
    return { name, mimeType, buffer: await fs.readFile(file) };
  } finally {
    await fs.rm(folder, { recursive: true, force: true });
  }
}

/** The home card whose link is `title`. */
function cardOf(page: Page, title: string) {
  return page.locator('[data-slot="card"]').filter({ has: page.getByRole("link", { name: title }) });
}

test("a member adds a video and a Live Photo: the upload outlives a dropped connection, the card shows the poster and its length, the memory plays and seeks", async ({
  page,
}) => {
  test.setTimeout(150_000);
  await signIn(page, "videos");
  const title = `First steps ${Date.now()}`;
  const [video, motion] = await Promise.all([film("first-steps.mp4", 3), film("IMG_0042.MOV", 3)]);
  const still = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 90, g: 140, b: 200 } } })
    .jpeg()
    .toBuffer();

  // The connection drops during the video's first upload request: the upload goes on where it stopped.
  let dropped = 0;
  await page.route("**/api/v1/uploads/**", async (route) => {
    if (route.request().method() === "PATCH" && dropped === 0) {
      dropped += 1;
      await route.abort("connectionreset");
      return;
    }
    await route.continue();
  });

  await page.getByRole("button", { name: "Add Memory" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Add Memory" });
  await dialog.getByLabel("Title").fill(title);
  await dialog
    .getByLabel("Photos")
    .setInputFiles([video, { name: "IMG_0042.JPG", mimeType: "image/jpeg", buffer: still }, motion]);
  await expect(dialog.getByText("first-steps.mp4: uploaded")).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByText("IMG_0042.JPG: uploaded")).toBeVisible({ timeout: 30_000 });
  expect(dropped).toBe(1);
  await dialog.getByRole("button", { name: "Save Memory" }).click();
  await expect(dialog).toBeHidden();

  // The card: the video's poster with its play mark and length, and the Live Photo's mark. Found by
  // its title: undated, it can be past home's first page when other journeys have filled the list.
  // The search's answer first: a card found in the list before it moves when the list is redrawn,
  // and a click aimed at it meanwhile lands on nothing.
  await page.getByRole("searchbox", { name: "Search memories" }).fill(title);
  await expect(page.getByText(/^1 of \d+ memories$/)).toBeVisible();
  const card = cardOf(page, title);
  await expect(card.getByRole("img", { name: "Video 1, 0:03" })).toBeVisible();
  await expect(card.getByText("LIVE")).toBeVisible();

  // Its page plays the video once its web copy is made (the live stream says when), and seeks at once.
  // ffmpeg makes the copy below the server's priority (nice 10): on a machine busy with the other
  // journeys it waits its turn, a minute or more.
  await card.getByRole("link", { name: title }).click();
  const player = page.locator("video").first();
  await expect(player).toHaveAttribute("src", /\.web\.mp4$/, { timeout: 90_000 });
  const played = await player.evaluate(async (element: HTMLVideoElement) => {
    element.muted = true;
    await element.play();
    element.pause();
    element.currentTime = 2;
    await new Promise((resolve) => element.addEventListener("seeked", resolve, { once: true }));
    return { at: element.currentTime, duration: element.duration, ready: element.readyState };
  });
  expect(played.duration).toBeCloseTo(3, 0);
  expect(played.at).toBeGreaterThanOrEqual(1.9);
  expect(played.ready).toBeGreaterThanOrEqual(2);

  // The Live Photo plays its motion when its mark is pressed, once its motion's copy is made: the
  // page learns it by itself, even when the copy was ready before the save's answer came.
  const live = page.getByRole("button", { name: "Play the motion of Live Photo 2" });
  await expect(live).toBeEnabled({ timeout: 30_000 });
  await live.click();
  await expect(live).toHaveAttribute("aria-pressed", "true");
  const motionPlays = page.locator("video[data-live-motion]");
  await expect.poll(() => motionPlays.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThan(0);
});
