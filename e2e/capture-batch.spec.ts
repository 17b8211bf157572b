import type { Page } from "@playwright/test";
import type { Memory, MemoryBatch } from "@memory-box/contract";
import IntlMessageFormat from "intl-messageformat";
import sharp from "sharp";
import { catalogue } from "./catalogue-text";
import { expect, test } from "./fixtures";
import { preparedMember } from "./members";
import { currentServer, expectAccessible, memberApiAs, memberPage } from "./support";

/** A JPEG as a phone writes it: with the capture time in its EXIF block. */
function cameraJpeg(dateTimeOriginal: string, [r, g, b]: [number, number, number]): Promise<Buffer> {
  return sharp({ create: { width: 80, height: 60, channels: 3, background: { r, g, b } } })
    .withExif({ IFD2: { DateTimeOriginal: dateTimeOriginal } })
    .jpeg()
    .toBuffer();
}

/** The home card whose link is `title`, found by its memory's id (titles are dates, which may repeat). */
function cardOf(page: Page, id: string) {
  return page.locator('[data-slot="card"]').filter({ has: page.locator(`a[href="/memory/${id}"]`) });
}

// Issue #34, "Capture in seconds": many photos from the gallery become one memory per capture day (ADR 0063).
test("photos of 3 days become 3 memories, each titled and dated with its day; declined, one memory as before", async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  // A year no other journey dates its memories in, so the search for it finds this run's alone.
  const year = 1901 + (Date.now() % 97);
  const made: string[] = [];
  const page = await memberPage(browser, "capture-cara");
  try {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.getByRole("button", { name: "Add Memory" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Add Memory" });
    await dialog.getByLabel("Photos").setInputFiles([
      { name: "pier.jpg", mimeType: "image/jpeg", buffer: await cameraJpeg(`${year}:07:14 18:30:05`, [40, 120, 200]) },
      { name: "market.jpg", mimeType: "image/jpeg", buffer: await cameraJpeg(`${year}:07:12 09:10:00`, [200, 120, 40]) },
      { name: "sunset.jpg", mimeType: "image/jpeg", buffer: await cameraJpeg(`${year}:07:14 21:45:00`, [220, 90, 60]) },
      { name: "train.jpg", mimeType: "image/jpeg", buffer: await cameraJpeg(`${year}:07:13 23:59:00`, [60, 160, 90]) },
      { name: "lunch.jpg", mimeType: "image/jpeg", buffer: await cameraJpeg(`${year}:07:12 13:00:00`, [180, 180, 60]) },
    ]);

    // Once the server has read every photo's capture day, the step asks; focus is on its question.
    const heading = dialog.getByRole("heading", { name: "5 photos from 3 days → 3 memories?" });
    await expect(heading).toBeVisible();
    await expect(heading).toBeFocused();
    const days = dialog.getByRole("heading", { level: 4 });
    await expect(days).toHaveText([`July 12, ${year}`, `July 13, ${year}`, `July 14, ${year}`]);
    await expect(dialog.getByRole("list", { name: `Photos of July 12, ${year}` }).getByRole("img")).toHaveCount(2);
    await expect(dialog.getByRole("list", { name: `Photos of July 13, ${year}` }).getByRole("img")).toHaveCount(1);
    await expectAccessible(page, "one memory per capture day, phone");
    await page.screenshot({ path: test.info().outputPath("capture-days-375.png") });
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(heading).toBeVisible();
    await page.screenshot({ path: test.info().outputPath("capture-days-1280.png") });

    const answer = page.waitForResponse(
      (response) => new URL(response.url()).pathname === "/api/v1/memories/batch" && response.request().method() === "POST",
    );
    await dialog.getByRole("button", { name: "Make 3 memories" }).click();
    const batch = await answer;
    expect(batch.status()).toBe(201);
    expect(batch.request().headers()["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    const { memories } = (await batch.json()) as MemoryBatch;
    made.push(...memories.map((memory) => memory.id));
    expect(memories.map((memory) => [memory.title, memory.memory_date, memory.photos.length])).toEqual([
      [`July 12, ${year}`, `${year}-07-12`, 2],
      [`July 13, ${year}`, `${year}-07-13`, 1],
      [`July 14, ${year}`, `${year}-07-14`, 2],
    ]);
    await expect(page.getByText("3 memories added!")).toBeVisible();
    await expect(dialog).toBeHidden();

    // The list shows the three, each with its date and photos.
    await page.goto(`/?q=${year}`);
    for (const [memory, shown] of memories.map((memory, index) => [memory, `Jul ${12 + index}, ${year}`] as const)) {
      const card = cardOf(page, memory.id);
      await expect(card.getByRole("link", { name: memory.title })).toBeVisible();
      await expect(card.getByText(shown)).toBeVisible();
      await expect(card.getByRole("img")).toHaveCount(memory.photos.length);
    }

    // Declined: the form goes on with both photos in one memory.
    await page.goto("/");
    await page.getByRole("button", { name: "Add Memory" }).first().click();
    await dialog.getByLabel("Photos").setInputFiles([
      { name: "kite.jpg", mimeType: "image/jpeg", buffer: await cameraJpeg(`${year}:09:01 10:00:00`, [90, 60, 200]) },
      { name: "shell.jpg", mimeType: "image/jpeg", buffer: await cameraJpeg(`${year}:09:02 11:00:00`, [200, 200, 200]) },
    ]);
    await dialog.getByRole("button", { name: "Keep as one memory" }).click();
    await expect(dialog.getByRole("heading", { name: /→/ })).toHaveCount(0);
    await expect(dialog.getByLabel("Title")).toBeFocused();
    await expect(dialog.getByLabel("Date")).toHaveValue(`${year}-09-01`);
    await dialog.getByLabel("Title").fill(`Two days by the sea ${year}`);
    const created = page.waitForResponse(
      (response) => new URL(response.url()).pathname === "/api/v1/memories" && response.request().method() === "POST",
    );
    await dialog.getByRole("button", { name: "Save Memory" }).click();
    const one = (await (await created).json()) as Memory;
    made.push(one.id);
    expect(one.photos).toHaveLength(2);
    await expect(page.getByText("Memory added!")).toBeVisible();
    await expect(dialog).toBeHidden();
  } finally {
    // The collection is shared with the journeys running beside this one.
    const api = memberApiAs(request, "capture-cara");
    for (const id of made) await api.deleteMemory(id);
    await page.context().close();
  }
});

test("in Arabic the step reads right to left, counted as Arabic counts; declined, the form goes on and nothing is made", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const messages = catalogue("ar");
  const say = (id: string, values: Record<string, number> = {}) =>
    String(new IntlMessageFormat(messages[id]!, "ar").format(values));
  const context = await browser.newContext({
    baseURL,
    locale: "ar-EG",
    storageState: preparedMember(currentServer(), "capture-cara").storageState,
    viewport: { width: 375, height: 812 },
  });
  const page = await context.newPage();
  try {
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await page.getByRole("button", { name: messages["home.header.addMemory"] }).first().click();
    const dialog = page.getByRole("dialog", { name: messages["memory.form.addTitle"] });
    await dialog.getByLabel(messages["memory.form.photos"]!).setInputFiles([
      { name: "a.jpg", mimeType: "image/jpeg", buffer: await cameraJpeg("2019:04:02 10:00:00", [40, 120, 200]) },
      { name: "b.jpg", mimeType: "image/jpeg", buffer: await cameraJpeg("2019:04:03 10:00:00", [200, 120, 40]) },
      { name: "c.jpg", mimeType: "image/jpeg", buffer: await cameraJpeg("2019:04:03 12:00:00", [60, 160, 90]) },
    ]);
    const heading = dialog.getByRole("heading", { name: say("captureDays.heading", { photos: 3, days: 2 }) });
    await expect(heading).toBeFocused();
    await expect(dialog.getByRole("button", { name: say("captureDays.accept", { count: 2 }) })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath("capture-days-ar-375.png") });

    await dialog.getByRole("button", { name: messages["captureDays.decline"] }).click();
    await expect(dialog.getByLabel(messages["memory.form.title"]!)).toBeFocused();
    await dialog.getByRole("button", { name: messages["common.cancel"] }).click();
    await expect(dialog).toBeHidden();
  } finally {
    await context.close();
  }
});
