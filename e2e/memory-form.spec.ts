import type { Page } from "@playwright/test";
import sharp from "sharp";
import { expect, test } from "./fixtures";
import { memberApiAs, memberPage, signIn, underServiceWorker } from "./support";

/** A JPEG as a phone writes it: with the capture time in its EXIF block. */
function cameraJpeg(dateTimeOriginal: string): Promise<Buffer> {
  return sharp({ create: { width: 80, height: 60, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .withExif({ IFD2: { DateTimeOriginal: dateTimeOriginal } })
    .jpeg()
    .toBuffer();
}

/** The home card whose link is `title`. */
function cardOf(page: Page, title: string) {
  return page.locator('[data-slot="card"]').filter({ has: page.getByRole("link", { name: title }) });
}

test("a refused photo is named with its reason and nothing is saved until the member decides", async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, "uploads");
  const title = `Picnic ${Date.now()}`;

  await page.getByRole("button", { name: "Add Memory" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Add Memory" });
  await dialog.getByLabel("Title").fill(title);
  await dialog.getByLabel("Photos").setInputFiles([
    { name: "basket.jpg", mimeType: "image/jpeg", buffer: await cameraJpeg("2023:07:14 18:30:05") },
    // Text with an image's name: the server decodes it and refuses it.
    { name: "fake.jpg", mimeType: "image/jpeg", buffer: Buffer.from("not a photo at all") },
  ]);

  // Each file says how it went, the refused one with the server's reason.
  await expect(dialog.getByText("basket.jpg: uploaded")).toBeVisible();
  await expect(dialog.getByText("fake.jpg: not uploaded")).toBeVisible();
  await expect(dialog.getByText(/not a supported image/)).toBeVisible();
  // The photo's capture date fills the empty date (issue #34).
  await expect(dialog.getByLabel("Date")).toHaveValue("2023-07-14");

  await dialog.getByRole("button", { name: "Save Memory" }).click();
  await expect(page.getByText("Some photos couldn't be uploaded. Please try again.")).toBeVisible();
  const alert = dialog.getByRole("alert");
  await expect(alert).toContainText("1 photo wasn't uploaded, so nothing was saved");
  await expect(page.getByText("Memory added!")).toHaveCount(0);

  await alert.getByRole("button", { name: "Save without them" }).click();
  await expect(page.getByText("Memory added!")).toBeVisible();
  await expect(page.getByText("1 photo(s) added successfully.")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(cardOf(page, title).getByRole("img")).toHaveCount(1);
});

test("two members edit one memory at once: the second to save sees who changed what, and keeps both changes", async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const title = `Harbour walk ${Date.now()}`;
  const created = await memberApiAs(request, "form-alice").createMemory({ title, tags: ["sea"] });

  // Alice opens the memory for editing.
  const alice = await memberPage(browser, "form-alice", `/memory/${created.id}`);
  await alice.getByRole("button", { name: "Edit" }).click();
  const aliceTitle = alice.getByLabel("Title");
  await expect(aliceTitle).toHaveValue(title);

  // Bob, meanwhile, changes its tags and saves.
  const bob = await memberPage(browser, "form-bob", `/memory/${created.id}`);
  await bob.getByRole("button", { name: "Edit" }).click();
  await bob.getByLabel("Tags").fill("sea, boats");
  await bob.getByRole("button", { name: "Update Memory" }).click();
  await expect(bob.getByText("Memory updated!")).toBeVisible();

  // Alice changes the title and saves: refused, told by whom and what, Bob's tags taken in.
  await aliceTitle.fill(`${title} at dusk`);
  await alice.getByRole("button", { name: "Update Memory" }).click();
  await expect(alice.getByText("Failed to update memory. Please try again.")).toBeVisible();
  const conflict = alice.getByRole("alert");
  await expect(conflict).toContainText("changed this memory while you were editing");
  await expect(conflict).toContainText(/^bob-/);
  await expect(conflict).toContainText("Their change is in the form: sea, boats");
  await expect(alice.getByRole("list", { name: "Chosen" }).getByRole("listitem")).toHaveText(["sea", "boats"]);
  await expect(aliceTitle).toHaveValue(`${title} at dusk`);

  await alice.getByRole("button", { name: "Update Memory" }).click();
  await expect(alice.getByText("Memory updated!")).toBeVisible();
  await expect(alice.getByRole("heading", { level: 1, name: `${title} at dusk` })).toBeVisible();
  await expect(alice.getByRole("region", { name: "Tags" }).getByRole("listitem")).toHaveText(["sea", "boats"]);

  await alice.context().close();
  await bob.context().close();
});

test("a display-name change shows on the member's greeting and the partner's cards without a reload", async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const title = `Renamed author ${Date.now()}`;
  await memberApiAs(request, "form-ben").createMemory({ title, photo_ids: [] });
  const alice = await memberPage(browser, "form-ava");
  const bob = await memberPage(browser, "form-ben");
  const card = cardOf(alice, title);
  await expect(card).toContainText(/ben-/);

  const token = await bob.evaluate(
    () => (JSON.parse(localStorage.getItem("memory-box-auth") ?? "{}") as { access_token?: string }).access_token,
  );
  const renamed = await bob.request.put("/auth/v1/user", {
    headers: { Authorization: `Bearer ${token}` },
    data: { data: { full_name: "Benjamin" } },
  });
  expect(renamed.status()).toBe(200);

  await expect(bob.getByText("Welcome back, Benjamin!").filter({ visible: true })).toBeVisible();
  await expect(card).toContainText("Benjamin");

  await alice.context().close();
  await bob.context().close();
});

test.describe("offline", () => {
  // Offline, the app's parts come from the service worker: this journey allows it.
  test.use({ serviceWorkers: "allow" });

  test("on a slow connection each photo shows its progress and can be cancelled; offline, the rules still hold and a save waits on the device", async ({
    page,
  }) => {
    test.setTimeout(60_000);
    await signIn(page, "slow");
    // Offline later on, the app's parts come from the service worker, as on a phone that opened it before.
    await underServiceWorker(page);
    // The upload is held, as on a slow uplink, until the test lets it through (or it is cancelled).
    let releaseUpload: () => void = () => {};
    await page.route("**/api/v1/photos", async (route) => {
      await new Promise<void>((resolve) => (releaseUpload = resolve));
      await route.continue().catch(() => {});
    });

    await page.getByRole("button", { name: "Add Memory" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Add Memory" });
    await dialog.getByLabel("Title").fill(`Slow upload ${Date.now()}`);
    await dialog
      .getByLabel("Photos")
      .setInputFiles([{ name: "slow.jpg", mimeType: "image/jpeg", buffer: await cameraJpeg("2022:01:02 10:00:00") }]);
    await expect(dialog.getByRole("progressbar", { name: "Uploading new photo 1" })).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel upload of new photo 1" }).click();
    await expect(dialog.getByRole("img", { name: "New photo 1" })).toHaveCount(0);
    releaseUpload();

    // Offline: the form's rules still apply; a valid save waits on this device (ADR 0031) and is
    // added when the connection returns (the toaster was fetched while online).
    await page.context().setOffline(true);
    await dialog.getByLabel("Tags").fill(Array.from({ length: 31 }, (_, index) => `tag${index}`).join(", "));
    await expect(dialog.getByText("31 / 30 tags")).toBeVisible();
    await dialog.getByRole("button", { name: "Save Memory" }).click();
    await expect(dialog.getByText("A memory can have up to 30 tags; this one has 31.")).toBeVisible();
    await expect(dialog.getByLabel("Tags")).toBeFocused();
    // The last two tags off (the one being typed, then a chip with Backspace), one more typed: 30.
    await dialog.getByLabel("Tags").fill("");
    await dialog.getByLabel("Tags").press("Backspace");
    await dialog.getByLabel("Tags").fill("train");
    await dialog.getByRole("button", { name: "Save Memory" }).click();
    await expect(page.getByText("It will be added when you're back online.")).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("region", { name: "Waiting to be added" })).toContainText("Waiting for connection");

    await page.context().setOffline(false);
    await expect(page.getByText("Memory added!")).toBeVisible();
    await expect(page.getByRole("region", { name: "Waiting to be added" })).toBeHidden();
  });
});
