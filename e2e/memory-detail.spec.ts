import { request } from "@playwright/test";
import { expect, test } from "./fixtures";
import { memberApi, signIn, solidPng } from "./support";

test("a member adds a memory with photos, opens it, edits it and deletes it from its page", async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, "journal");
  const title = `Lake weekend ${Date.now()}`;

  // Add: two generated PNGs and a text file, which is skipped without a word.
  await page.getByRole("button", { name: "Add Memory" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Add Memory" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Save Memory" })).toBeDisabled();
  await dialog.getByLabel("Title").fill(title);
  await dialog.getByLabel("Description").fill("Swam at dawn.\nPancakes after.");
  await dialog.getByLabel("Date").fill("2024-07-13");
  await dialog.getByLabel("Tags").fill("summer, lake, Summer");
  await dialog.getByLabel("Photos").setInputFiles([
    { name: "blue.png", mimeType: "image/png", buffer: await solidPng(64, 64, [40, 90, 200]) },
    { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a photo") },
    { name: "green.png", mimeType: "image/png", buffer: await solidPng(48, 48, [30, 160, 70]) },
  ]);
  await expect(dialog.getByRole("img", { name: /^New photo/ })).toHaveCount(2);
  await dialog.getByRole("button", { name: "Save Memory" }).click();

  await expect(page.getByText("2 photo(s) added successfully.")).toBeVisible();
  await expect(page.getByText("Memory added!")).toBeVisible();
  await expect(dialog).toBeHidden();

  // Open it from the list.
  await page.getByRole("link", { name: title }).click();
  await expect(page).toHaveURL(/\/memory\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page.getByText("Jul 13, 2024")).toBeVisible();
  await expect(page.getByText("Swam at dawn.")).toBeVisible();
  const tags = page.getByRole("region", { name: "Tags" }).getByRole("listitem");
  await expect(tags).toHaveText(["summer", "lake"]);
  const photos = page.getByRole("region", { name: "Photos" }).getByRole("img");
  await expect(photos).toHaveCount(2);
  await expect(photos.first()).toHaveAttribute("alt", "Memory photo 1");
  await expect(photos.first()).toHaveAttribute("width", "64");
  // The images load with the photo access cookie (the ThumbHash placeholder is dropped on load).
  await expect(photos.first()).toHaveAttribute("data-loaded", "true");
  await expect(photos.nth(1)).toHaveAttribute("data-loaded", "true");
  // A click opens the lightbox over the page (e2e/photos-lead.spec.ts); a Ctrl/Cmd click opens the
  // photo's own viewer in a new tab, where the same cookie shows it whole.
  const photoLink = page.getByRole("link", { name: "Memory photo 2" });
  const [photoTab] = await Promise.all([page.context().waitForEvent("page"), photoLink.click({ modifiers: ["ControlOrMeta"] })]);
  await photoTab.waitForLoadState();
  await expect(photoTab).toHaveURL(/\/memory\/[0-9a-f-]{36}\/photo\/2$/);
  await expect(photoTab.getByText("2 / 2")).toBeVisible();
  const viewed = photoTab.getByRole("img", { name: "Memory photo 2" });
  await expect.poll(() => viewed.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  await photoTab.keyboard.press("ArrowLeft");
  await expect(photoTab.getByText("1 / 2")).toBeVisible();
  await photoTab.getByRole("button", { name: "View full size" }).click();
  const fullSize = photoTab.getByRole("img", { name: "Memory photo 1" });
  await expect.poll(() => fullSize.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(64);
  const photoUrl = new URL((await photoTab.getByRole("link", { name: "Download full size" }).getAttribute("href"))!, page.url())
    .href;
  // Escape in a tab of its own leads to the memory.
  await photoTab.keyboard.press("Escape");
  await expect(photoTab.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await photoTab.close();
  // The photo's address copied into another browser shows nothing.
  const stranger = await request.newContext();
  expect((await stranger.get(photoUrl)).status()).toBe(401);
  await stranger.dispose();
  await expect(page.getByText("Created", { exact: true })).toBeVisible();
  await expect(page.getByText("Updated", { exact: true })).toHaveCount(0);

  // Edit, then cancel: back to the details, unchanged.
  await page.getByRole("button", { name: "Edit" }).click();
  await expect(page.getByRole("button", { name: "Back to Details" })).toBeVisible();
  await page.getByLabel("Title").fill("Not saved");
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();

  // Edit and save: a new title, the first photo removed.
  await page.getByRole("button", { name: "Edit" }).click();
  await page.getByLabel("Title").fill(`${title} (edited)`);
  await page.getByRole("button", { name: "Remove photo 1" }).click();
  await expect(page.getByRole("button", { name: /^Remove photo \d$/ })).toHaveCount(1);
  await page.getByRole("button", { name: "Update Memory" }).click();
  await expect(page.getByText("Memory updated!")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: `${title} (edited)` })).toBeVisible();
  await expect(page.getByRole("region", { name: "Photos" }).getByRole("img")).toHaveCount(1);
  await expect(page.getByText("Updated", { exact: true })).toBeVisible();

  // Delete from the page: a click outside does not dismiss the question.
  await page.getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete Memory" });
  await expect(confirm).toContainText("Are you sure you want to delete this memory? This action cannot be undone.");
  await page.mouse.click(5, 5);
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Your memory has been deleted successfully.")).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: `${title} (edited)` })).toHaveCount(0);
});

test("photos keep their shape: a panorama and a portrait uncropped on the detail page, a lone photo across its card", async ({
  page,
}) => {
  test.setTimeout(60_000);
  await signIn(page, "shapes");
  const api = await memberApi(page, page.request);
  const panorama = await api.uploadPhoto(await solidPng(800, 200, [200, 120, 40]));
  const portrait = await api.uploadPhoto(await solidPng(200, 400, [40, 120, 200]));
  const title = `Shapes ${Date.now()}`;
  const both = await api.createMemory({ title, photo_ids: [panorama.id, portrait.id] });
  const lonePanorama = await api.uploadPhoto(await solidPng(800, 200, [10, 200, 60]));
  const lone = await api.createMemory({ title: `${title} alone`, photo_ids: [lonePanorama.id] });

  await page.goto(`/memory/${both.id}`);
  const ratioOf = async (name: string) => {
    const box = (await page.getByRole("img", { name }).boundingBox())!;
    return box.width / box.height;
  };
  await expect(page.getByRole("img", { name: "Memory photo 2" })).toHaveAttribute("data-loaded", "true");
  expect(await ratioOf("Memory photo 1")).toBeCloseTo(4, 1);
  expect(await ratioOf("Memory photo 2")).toBeCloseTo(0.5, 1);

  await page.goto("/");
  // The app's card, not the painted first screen's, which the app replaces (ADR 0026).
  const card = page
    .locator('#root [data-slot="card"]')
    .filter({ has: page.getByRole("link", { name: lone.title, exact: true }) });
  await expect(card).toBeVisible();
  const cardBox = (await card.boundingBox())!;
  const photoBox = (await card.getByRole("img", { name: "Memory photo 1" }).boundingBox())!;
  // Across the card's content width (the card's padding either side), in a 21:9 frame at most.
  expect(photoBox.width).toBeGreaterThan(cardBox.width * 0.8);
  expect(photoBox.width / photoBox.height).toBeCloseTo(21 / 9, 1);
});
