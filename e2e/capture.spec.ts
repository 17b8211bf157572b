import sharp from "sharp";
import { expect, test } from "./fixtures";
import { expectAccessible, memberApiAs, memberPage } from "./support";

/** A JPEG as a phone writes it: with the capture time in its EXIF block. */
function cameraJpeg(dateTimeOriginal: string): Promise<Buffer> {
  return sharp({ create: { width: 80, height: 60, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .withExif({ IFD2: { DateTimeOriginal: dateTimeOriginal } })
    .jpeg()
    .toBuffer();
}

// Issue #34, "Capture in seconds": filters in the address, tags as chips, a photo's date.
test("two tags filter the list in the address, Back from a memory returns to it and its scroll; tags as chips; a photo's date fills the date", async ({
  browser,
  request,
}) => {
  test.setTimeout(60_000);
  const run = Date.now().toString(36);
  const [both, other] = [`dunes${run}`, `wind${run}`];
  const api = memberApiAs(request, "capture-cara");
  // Enough memories carrying both tags to scroll, one carrying only one of them.
  for (let day = 1; day <= 14; day++) {
    await api.createMemory({
      title: `Dune walk ${run} ${day}`,
      memory_date: `2021-03-${String(day).padStart(2, "0")}`,
      tags: [both, other, "beach"],
    });
  }
  await api.createMemory({ title: `Only dunes ${run}`, memory_date: "2021-04-01", tags: [both] });

  const page = await memberPage(browser, "capture-cara");
  await page.setViewportSize({ width: 1280, height: 720 });
  const tagGroup = page.getByRole("group", { name: "Filter by tag" });
  // The tags are past the five most used: chosen from "+N more", narrowed by typing.
  for (const tag of [both, other]) {
    const pressed = tagGroup.getByRole("button", { name: tag, exact: true });
    if ((await pressed.count()) === 0) {
      await tagGroup.getByRole("button", { name: /more: all tags/ }).click();
      await page.getByRole("searchbox", { name: /filter tags/i }).fill(tag);
      await page
        .getByRole("list", { name: /all tags/i })
        .getByRole("button", { name: tag, exact: true })
        .click();
    } else {
      await pressed.click();
    }
  }
  await expect(page).toHaveURL(new RegExp(`\\?tag=${both}&tag=${other}$`));
  await expect(page.getByText("14 of ")).toBeVisible();
  await expect(tagGroup.getByRole("button", { name: both, exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("link", { name: `Only dunes ${run}` })).toHaveCount(0);
  await expectAccessible(page, "home filtered by two tags");

  // Down the list, a memory is opened; Back returns to the same filtered list, where it was.
  const far = page.getByRole("link", { name: `Dune walk ${run} 3`, exact: true });
  await far.scrollIntoViewIfNeeded();
  const scrolled = await page.evaluate(() => window.scrollY);
  expect(scrolled).toBeGreaterThan(300);
  await far.click();
  await expect(page).toHaveURL(/\/memory\//);
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`\\?tag=${both}&tag=${other}$`));
  await expect(page.getByText("14 of ")).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(scrolled - 40);
  expect(await page.evaluate(() => window.scrollY)).toBeLessThan(scrolled + 40);

  // A bookmarked address opens the list filtered.
  await page.reload();
  await expect(page.getByText("14 of ")).toBeVisible();

  // Add: tags typed as chips, one from the suggestions; the photo's capture date fills the date.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole("button", { name: "Add Memory" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Add Memory" });
  await dialog.getByLabel("Title").fill(`Kites ${run}`);
  const tags = dialog.getByRole("combobox", { name: "Tags" });
  await tags.fill(`dunes${run.slice(0, 3)}`);
  await expect(dialog.getByRole("option", { name: both })).toBeVisible();
  await expectAccessible(page, "tag suggestions");
  await tags.press("ArrowDown");
  await tags.press("Enter");
  await tags.pressSequentially("kites,");
  await tags.pressSequentially("sand");
  await tags.press("Enter");
  await expect(dialog.getByRole("list", { name: "Chosen" }).getByRole("listitem")).toHaveText([both, "kites", "sand"]);
  await tags.press("Backspace");
  await expect(dialog.getByRole("list", { name: "Chosen" }).getByRole("listitem")).toHaveText([both, "kites"]);

  await expect(dialog.getByLabel("Date")).toHaveValue("");
  await dialog.getByLabel("Photos").setInputFiles({
    name: "kite.jpg",
    mimeType: "image/jpeg",
    buffer: await cameraJpeg("2022:09:18 16:20:00"),
  });
  await expect(dialog.getByLabel("Date")).toHaveValue("2022-09-18");
  await expect(dialog.getByText("Taken from the photo's capture date. You can change it.")).toBeVisible();
  await expectAccessible(page, "form with tag chips and the photo's date");
  await dialog.getByRole("button", { name: "Save Memory" }).click();
  await expect(page.getByText("Memory added!")).toBeVisible();

  // Saved with its chips and the photo's date: the two tags' address lists it.
  await page.goto(`/?tag=${both}&tag=kites`);
  await expect(page.getByRole("link", { name: `Kites ${run}` })).toBeVisible();
  await expect(page.getByText("1 of ")).toBeVisible();
  await page.context().close();
});
