import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectAccessible, signIn } from "./support";

/** The red channel of the page's background as painted: about 255 when light, under 60 when dark. */
function backgroundRed(page: Page): Promise<number> {
  return page.evaluate(() => {
    const context = document.createElement("canvas").getContext("2d")!;
    context.fillStyle = getComputedStyle(document.body).backgroundColor;
    context.fillRect(0, 0, 1, 1);
    return context.getImageData(0, 0, 1, 1).data[0]!;
  });
}

test("Memory Box is dark when the system is, until the member chooses otherwise in Settings; the choice stays on this device", async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await signIn(page, "appearance");
  expect(await backgroundRed(page)).toBeLessThan(60);
  await expectAccessible(page, "home, dark from the system");

  await page.getByRole("link", { name: "Settings" }).click();
  await page.getByLabel("Light").check();
  expect(await backgroundRed(page)).toBeGreaterThan(200);
  await page.reload();
  await expect(page.getByLabel("Light")).toBeChecked();
  expect(await backgroundRed(page)).toBeGreaterThan(200);

  await page.emulateMedia({ colorScheme: "light" });
  await page.getByLabel("Dark").check();
  expect(await backgroundRed(page)).toBeLessThan(60);
  await expectAccessible(page, "settings, dark by choice", "serious");

  await page.getByLabel("As this device is set").check();
  expect(await backgroundRed(page)).toBeGreaterThan(200);
});
