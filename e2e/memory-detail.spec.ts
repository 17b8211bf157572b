import { expect, request, test } from "@playwright/test";
import { signUpMember, solidPng } from "./support";

test("a member adds a memory with photos, opens it, edits it and deletes it from its page", async ({ page }) => {
  test.setTimeout(60_000);
  await signUpMember(page, "journal");
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
  await expect(page.getByRole("link", { name: "Memory photo 2" })).toHaveAttribute("target", "_blank");
  // The images load with the photo access cookie (the ThumbHash placeholder is dropped on load).
  await expect(photos.first()).toHaveAttribute("data-loaded", "true");
  await expect(photos.nth(1)).toHaveAttribute("data-loaded", "true");
  // Clicking a photo opens it in a new tab, where the same cookie shows the full-size display copy.
  const photoLink = page.getByRole("link", { name: "Memory photo 2" });
  const photoUrl = new URL((await photoLink.getAttribute("href"))!, page.url()).href;
  const [photoTab] = await Promise.all([page.context().waitForEvent("page"), photoLink.click()]);
  await photoTab.waitForLoadState();
  await expect.poll(() => photoTab.evaluate(() => document.querySelector("img")?.naturalWidth ?? 0)).toBeGreaterThan(0);
  await photoTab.close();
  // The same address copied into another browser shows nothing.
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
