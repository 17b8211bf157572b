import { expect, test } from "./fixtures";
import { expectAccessible, memberApiAs, memberPage, solidPng } from "./support";

/**
 * Issue #34, "Photos lead": a memory's page opens with its photos in a justified gallery, cover
 * first and large; the lightbox opens over the page, steps with the arrows, counts, and the
 * browser's Back closes it; a member chooses the cover and writes a caption; the download is named
 * after the memory.
 */
test("a memory's photos lead its page: gallery, lightbox, cover, caption and a named download", async ({ browser, request }) => {
  test.setTimeout(45_000);
  const api = memberApiAs(request, "photos-lead");
  const shapes: [number, number, [number, number, number]][] = [
    [300, 200, [40, 90, 200]],
    [120, 200, [30, 160, 70]],
    [400, 100, [200, 80, 40]],
    [200, 200, [150, 60, 160]],
  ];
  const photos = [];
  for (const [width, height, colour] of shapes) photos.push(await api.uploadPhoto(await solidPng(width, height, colour)));
  const title = `Picnic by the lake ${Date.now()}`;
  const memory = await api.createMemory({ title, photo_ids: photos.map((photo) => photo.id) });

  const page = await memberPage(browser, "photos-lead", `/memory/${memory.id}`);
  await page.setViewportSize({ width: 1280, height: 900 });
  const gallery = page.getByTestId("memory-gallery");
  const cover = gallery.locator("[data-cover]");
  await expect(cover.getByRole("img")).toHaveAttribute("alt", "Memory photo 1");
  // The cover is larger than any other tile, and every full row is as wide as the gallery.
  const coverBox = (await cover.boundingBox())!;
  const other = (await gallery.getByRole("link", { name: "Memory photo 2" }).boundingBox())!;
  expect(coverBox.height).toBeGreaterThan(other.height);
  await expectAccessible(page, "memory page with its gallery");

  // The lightbox over the page, its photo in the address; arrows step, the counter follows.
  await gallery.getByRole("link", { name: "Memory photo 2" }).click();
  const dialog = page.getByRole("dialog", { name: `${title}: photos` });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/memory/${memory.id}\\?photo=${photos[1]!.id}$`));
  await expect(dialog.getByText("2 / 4")).toBeVisible();
  await page.keyboard.press("ArrowRight");
  await expect(dialog.getByText("3 / 4")).toBeVisible();
  await expectAccessible(page, "lightbox");

  // The download is named after the memory and the photo's number, and is the photo.
  const downloading = page.waitForEvent("download");
  await dialog.getByRole("link", { name: "Download full size" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${title} - 3.png`);

  // Back closes it and stays on the memory.
  await page.goBack();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/memory/${memory.id}$`));

  // Choose the third photo as the cover and caption it.
  await gallery.getByRole("link", { name: "Memory photo 3" }).click();
  await dialog.getByRole("button", { name: "Make this the cover" }).click();
  await expect(dialog.getByRole("button", { name: "Cover photo" })).toHaveAttribute("aria-pressed", "true");
  await dialog.getByRole("button", { name: "Add a caption" }).click();
  await dialog.getByRole("textbox", { name: "Caption" }).fill("The long view over the water");
  await dialog.getByRole("button", { name: "Save caption" }).click();
  await expect(dialog.getByText("The long view over the water")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(cover.getByRole("img")).toHaveAttribute("alt", "Memory photo 3");

  // Kept by the server: the page reloaded shows them, as does the API.
  await page.reload();
  await expect(cover.getByRole("img")).toHaveAttribute("alt", "Memory photo 3");
  const saved = await api.memory(memory.id);
  expect(saved.cover_photo_id).toBe(photos[2]!.id);
  expect(saved.photos[2]!.caption).toBe("The long view over the water");

  // A phone's width: the gallery still fills its rows.
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(cover.getByRole("img")).toBeVisible();
  await expectAccessible(page, "memory page on a phone");
  await page.close();
});
