import fs from "node:fs";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { readPdf } from "./read-pdf";
import { expectAccessible, memberApiAs, memberPage, solidPng, storedSessionOf } from "./support";

/*
 * Issue #35, "Print a year": `/book/:year` is a print-ready book, which Chromium prints here to a
 * PDF read back with PDF.js. The collection is shared by the journeys of a server: this journey's
 * memories are dated in 1990, where no other journey dates any, and carry a tag of this run's own,
 * which the book is narrowed to.
 */

/** A file kept for a look, in the run's test results (test-results/). */
function keep(name: string, data: Buffer): void {
  fs.writeFileSync(test.info().outputPath(name), data);
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

test("a year printed as a book: cover, contents by month, a page per memory with its photos, page numbers, A4 and Letter", async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const api = memberApiAs(request, "book");
  const tag = `book-${Date.now()}`;
  const photo = async (width: number, height: number, colour: [number, number, number]) =>
    (await api.uploadPhoto(await solidPng(width, height, colour))).id;

  // In the order the book shows them (oldest first), created in another.
  const december = { title: "Last night of the year", memory_date: "1990-12-31", content: "Fireworks over the river." };
  const july = {
    title: "Summer by the sea",
    memory_date: "1990-07-20",
    content: "Salt in our hair.",
    place: { name: "Sintra", latitude: 38.8, longitude: -9.39 },
  };
  const january = { title: "New Year at the lake", memory_date: "1990-01-15", content: "The ice held." };
  const march = { title: "Spring in the garden", memory_date: "1990-03-02", content: "The first tulips." };
  await api.createMemory({ ...december, tags: [tag] });
  const summer = await api.createMemory({
    ...july,
    tags: [tag],
    photo_ids: [await photo(600, 400, [30, 120, 200]), await photo(400, 600, [200, 160, 40])],
  });
  await api.createMemory({ ...january, tags: [tag], photo_ids: [await photo(800, 500, [90, 140, 190])] });
  await api.createMemory({
    ...march,
    tags: [tag],
    photo_ids: [
      await photo(500, 500, [40, 160, 70]),
      await photo(640, 480, [180, 60, 120]),
      await photo(480, 640, [220, 120, 60]),
    ],
  });
  // Outside the year, and without a date: not in the book (the undated one is counted on the contents page).
  await api.createMemory({ title: "Before the year", memory_date: "1989-12-31", tags: [tag] });
  await api.createMemory({ title: "After the year", memory_date: "1991-01-01", tags: [tag] });
  await api.createMemory({ title: "Some day, somewhere", tags: [tag] });
  const titles = [january, march, july, december].map((memory) => memory.title);

  const page = await memberPage(browser, "book", `/book/1990?tag=${tag}&paper=a4`);
  await page.setViewportSize({ width: 1280, height: 900 });
  const print = page.getByRole("button", { name: "Print or save as PDF" });
  // Enabled once every photo has loaded.
  await expect(print).toBeEnabled();
  await expect(page.getByRole("heading", { level: 1, name: "Our memories" })).toBeVisible();
  // What "Save as PDF" names the file.
  await expect(page).toHaveTitle("Our memories 1990");
  await expect(page.getByText("Bea", { exact: true })).toBeVisible();
  const contents = page.getByRole("region", { name: "Contents" });
  await expect(contents.getByRole("heading", { level: 3 })).toHaveText(["January", "March", "July", "December"]);
  await expect(contents.getByText("1 memory without a date is not in this book.")).toBeVisible();
  await expect(page.getByRole("heading", { level: 2 })).toHaveText(["Contents", ...titles]);
  await expect(page.getByText("Before the year")).toHaveCount(0);
  await expect(page.getByText("After the year")).toHaveCount(0);
  await expect(page.getByText("Sintra · By Bea")).toBeVisible();
  await expect(page.getByRole("img", { name: "Spring in the garden, photo 3" })).toBeVisible();
  await expectAccessible(page, "book preview");

  // A4: cover, contents, then one page per memory; every page but the cover numbered.
  const a4Pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
  keep("book-a4.pdf", a4Pdf);
  const a4 = await readPdf(a4Pdf);
  expect(a4.pages).toBe(2 + titles.length);
  expect(a4.sizes[0]).toEqual({ width: 595, height: 842 });
  expect(a4.texts[0]).toContain("Our memories");
  expect(a4.texts[0]).toContain("1990");
  expect(a4.texts[1]).toContain("Contents");
  titles.forEach((title, index) => {
    expect(a4.texts[1]).toContain(title);
    expect(a4.texts[2 + index]).toContain(title);
  });
  for (let number = 2; number <= a4.pages; number += 1) expect(a4.texts[number - 1]).toMatch(new RegExp(`(^| )${number}( |$)`));
  expect(a4.texts[0]).not.toMatch(/(^| )1( |$)/);
  // Photos embedded: January's one, March's three, July's two; none on the cover, contents or December's page.
  expect(a4.images).toEqual([0, 0, 1, 3, 2, 0]);
  expect(a4.texts.join(" ")).not.toContain("Print or save as PDF");

  // Letter: the same pages on the other paper.
  await page.getByRole("radio", { name: "Letter" }).check();
  await expect(page).toHaveURL(/paper=letter/);
  await expect(print).toBeEnabled();
  const letterPdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
  keep("book-letter.pdf", letterPdf);
  const letter = await readPdf(letterPdf);
  expect(letter.pages).toBe(2 + titles.length);
  expect(letter.sizes[0]).toEqual({ width: 612, height: 792 });
  expect(letter.images).toEqual(a4.images);
  titles.forEach((title, index) => expect(letter.texts[2 + index]).toContain(title));

  // Printed in light colours whatever the screen's theme; the preview follows the theme.
  const sheetColours = () =>
    page
      .locator("[data-slot=book-sheet]")
      .first()
      .evaluate((sheet) => [getComputedStyle(sheet).backgroundColor, getComputedStyle(sheet).color]);
  await page.emulateMedia({ media: "print", colorScheme: "light" });
  const light = await sheetColours();
  await shot(page, "print-media");
  await page.emulateMedia({ media: "print", colorScheme: "dark" });
  expect(await sheetColours()).toEqual(light);
  await page.emulateMedia({ media: "screen", colorScheme: "dark" });
  expect(await sheetColours()).not.toEqual(light);
  await page.emulateMedia({ media: "screen" });
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await shot(page, `preview-${width}-${colorScheme}`);
    }
  }
  await page.setViewportSize({ width: 375, height: 800 });
  await expectAccessible(page, "book preview on a phone");
  await page.close();

  // The only place of the journeys before first-screen.spec goes again: with a place in the
  // collection, home's country filter appears once the app takes over from the painted first
  // screen, which does not paint it, and moves the list (a shift first-screen.spec rightly finds;
  // to be fixed in the app, #34's notes). Until then this journey leaves no place behind.
  const { access_token: token } = JSON.parse(storedSessionOf("book")) as { access_token: string };
  const removed = await request.delete(`/api/v1/memories/${summer.id}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(removed.ok(), await removed.text()).toBe(true);
});

test("a range of days as a book: its dates on the cover, a long text running on over the next pages, numbered", async ({
  browser,
  request,
}) => {
  test.setTimeout(60_000);
  const api = memberApiAs(request, "book");
  const tag = `book-range-${Date.now()}`;
  const paragraph = "We walked along the river until the light went, talking of everything and nothing. ";
  const content = `${Array.from({ length: 40 }, (_, index) => `${index + 1}. ${paragraph.repeat(3)}`).join("\n\n")}The end of the walk.`;
  await api.createMemory({ title: "The long walk", memory_date: "1991-06-15", content, tags: [tag] });
  await api.createMemory({ title: "Not in June", memory_date: "1991-07-01", tags: [tag] });

  const page = await memberPage(browser, "book", `/book?from=1991-06-01&to=1991-06-30&tag=${tag}&paper=a4`);
  await expect(page.getByRole("button", { name: "Print or save as PDF" })).toBeEnabled();
  await expect(page.getByText("June 1, 1991 – June 30, 1991")).toBeVisible();
  await expect(page.getByRole("region", { name: "Contents" }).getByRole("heading", { level: 3 })).toHaveText(["June 1991"]);
  await expect(page.getByText("Not in June")).toHaveCount(0);

  const pdf = await readPdf(await page.pdf({ preferCSSPageSize: true, printBackground: true }));
  // The cover, the contents, the memory's first page and at least one more for its text.
  expect(pdf.pages).toBeGreaterThanOrEqual(4);
  expect(pdf.texts[2]).toContain("The long walk");
  expect(pdf.texts.at(-1)).toContain("The end of the walk.");
  for (let number = 2; number <= pdf.pages; number += 1) expect(pdf.texts[number - 1]).toMatch(new RegExp(`(^| )${number}( |$)`));
  await page.close();
});

test("a year without memories says so, an address that names no book says so, and a signed-out visit goes to sign-in", async ({
  browser,
}) => {
  const page = await memberPage(browser, "book", `/book/1990?tag=nothing-${Date.now()}`);
  await expect(page.getByRole("heading", { level: 1, name: "No memories in 1990" })).toBeVisible();
  await expectAccessible(page, "empty book");
  await page.goto("/book/abc");
  await expect(page.getByRole("heading", { level: 1, name: "There is no book at this address" })).toBeVisible();
  await page.close();

  const context = await browser.newContext();
  const visitor = await context.newPage();
  await visitor.goto("/book/1990");
  await expect(visitor).toHaveURL(/\/auth/);
  await context.close();
});
