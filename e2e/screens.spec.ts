import { expect, type Page, test } from "@playwright/test";
import { expectAccessible, memberApi, signUpMember, solidPng } from "./support";

const widths = [375, 768, 1280] as const;

/** The screen at each width, saved with the test's artifacts for a person to look at (not compared). */
async function screenshots(page: Page, screen: string): Promise<void> {
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`${screen}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("every screen passes axe, and is captured on phones, tablets and desktops; a partner's memory arrives live and can be edited", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);

  await page.goto("/auth");
  await expect(page.getByRole("heading", { name: "Welcome to Memory Box" })).toBeVisible();
  await expectAccessible(page, "auth", "serious");
  await screenshots(page, "auth");

  await page.goto("/this/does/not/exist");
  await expect(page.getByText("Oops! Page not found")).toBeVisible();
  await expectAccessible(page, "404", "serious");
  await screenshots(page, "not-found");

  // The collection is shared by every member of this run's server (and of earlier runs on a kept
  // data folder), so the memory's title is this run's own.
  await signUpMember(page, "ann");
  const picnic = `Picnic by the lake ${Date.now().toString(36)}`;

  // The partner, in a browser of their own, adds a memory with more than 5 tags and 4 photos.
  const partnerContext = await browser.newContext();
  const partnerPage = await partnerContext.newPage();
  await signUpMember(partnerPage, "ben");
  const partner = await memberApi(partnerPage, request);
  const colours: [number, number, number][] = [
    [200, 80, 80],
    [80, 200, 80],
    [80, 80, 200],
    [200, 200, 80],
    [80, 200, 200],
  ];
  const photos = [];
  for (const colour of colours) photos.push(await partner.uploadPhoto(await solidPng(120, 90, colour)));
  await partner.createMemory({
    title: picnic,
    content: "Sandwiches,\nswans and sun.",
    memory_date: "2024-06-01",
    tags: ["summer", "lake", "picnic", "family", "swans", "sun"],
    photo_ids: photos.map((photo) => photo.id),
  });

  // It appears on this member's home without a reload.
  await expect(page.getByRole("heading", { name: picnic })).toBeVisible();
  await expect(page.getByText("+1 more", { exact: true }).first()).toBeVisible();
  await expectAccessible(page, "home", "serious");
  await screenshots(page, "home");

  // Keyboard: the add dialog opens from the keyboard, closes with Escape and gives focus back.
  const addButton = page.getByRole("button", { name: "Add Memory" });
  await addButton.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await expectAccessible(page, "add dialog", "serious");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(addButton).toBeFocused();

  // Edit from the card.
  await page.getByRole("button", { name: `Edit ${picnic}` }).click();
  const editDialog = page.getByRole("dialog");
  await editDialog.getByLabel("Title").fill(`${picnic}, with Ben`);
  await editDialog.getByRole("button", { name: "Update Memory" }).click();
  await expect(page.getByText("Memory updated!")).toBeVisible();
  await expect(page.getByRole("heading", { name: `${picnic}, with Ben` })).toBeVisible();

  await page.getByRole("link", { name: picnic }).first().click();
  await expect(page.getByText("Sandwiches,")).toBeVisible();
  await expect(page.getByAltText("Memory photo 5")).toBeVisible();
  await expectAccessible(page, "detail", "serious");
  await screenshots(page, "detail");

  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page.getByRole("alertdialog")).toBeVisible();
  await expectAccessible(page, "delete dialog", "serious");
  await page.getByRole("button", { name: "Cancel" }).click();

  await partnerContext.close();
});
