import fs from "node:fs/promises";
import { dayOnePhoto, momentLine, tinyJpeg, writeDayOneExport } from "../apps/server/test/dayone-export";
import { expect, test } from "./fixtures";
import { signIn } from "./support";

test("an owner imports a Day One journal from Settings, with progress; again, nothing changes; a broken file is refused in words", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page, "import-owner");
  const title = `Lisbon at last ${Date.now().toString(36)}`;
  const photo = dayOnePhoto(await tinyJpeg());
  const journal = test.info().outputPath("Export.zip");
  await writeDayOneExport(journal, {
    "Journal.json": [
      { creationDate: "2021-06-01T18:30:00Z", text: `${title}\n${momentLine(photo)}\nTrams.`, tags: ["travel"], photos: [photo] },
    ],
  });

  await page.getByRole("link", { name: "Settings" }).click();
  const section = page.locator("form").filter({ hasText: "What to import" });
  await expect(page.getByRole("heading", { name: "Import" })).toBeVisible();
  // An owner's Settings, Import included, is checked with axe by the screens journey (e2e/screens.spec.ts).
  await section.getByLabel("A Day One export (JSON, as a ZIP)").check();
  await section.getByLabel("ZIP file").setInputFiles(journal);
  await section.getByRole("button", { name: "Import" }).click();
  await expect(page.getByText("1 memories and 1 photos were brought in.")).toBeVisible({ timeout: 30_000 });

  await page.goto("/");
  await expect(page.getByRole("link", { name: new RegExp(title) })).toBeVisible();

  await page.getByRole("link", { name: "Settings" }).click();
  await section.getByLabel("A Day One export (JSON, as a ZIP)").check();
  await section.getByLabel("ZIP file").setInputFiles(journal);
  await section.getByRole("button", { name: "Import" }).click();
  await expect(page.getByText("1 were already here and were left as they are.")).toBeVisible({ timeout: 30_000 });

  const broken = test.info().outputPath("broken.zip");
  await fs.writeFile(broken, "not a zip at all");
  await section.getByLabel("A Memory Box archive (from “Download everything”)").check();
  await section.getByLabel("ZIP file").setInputFiles(broken);
  await section.getByRole("button", { name: "Import" }).click();
  await expect(section.getByRole("alert")).toContainText("it is not a ZIP file, or it is incomplete");
});

test("a member who is not an owner is not offered Import", async ({ page }) => {
  await signIn(page, "import-member");
  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { name: "Your data" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Import" })).toHaveCount(0);
});
