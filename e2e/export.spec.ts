import fs from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import yauzl from "yauzl";
import { expect, test } from "./fixtures";
import { readPdf } from "./read-pdf";
import { expectAccessible, memberApi, signIn, solidPng } from "./support";

/** The entries of a downloaded ZIP by name, with their text (photos as byte counts). */
async function entriesOf(file: string): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true }, (error, opened) => (error ? reject(error) : resolve(opened))),
  );
  const entries = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on("entry", (entry: yauzl.Entry) =>
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          entries.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      }),
    );
    zip.on("end", resolve);
    zip.on("error", reject);
    zip.readEntry();
  });
  return entries;
}

test("'Download everything' in Settings downloads every memory with its photo's original and pages to browse", async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  await signIn(page, "export");
  const api = await memberApi(page, page.request);
  const image = await solidPng(64, 48, [200, 80, 40]);
  const photo = await api.uploadPhoto(image);
  const title = `Harbour walk ${Date.now().toString(36)}`;
  const memory = await api.createMemory({ title, tags: ["Sea"], photo_ids: [photo.id] });
  // A dated one for its year's printed book (a year of its own in the shared collection).
  const bookYear = "1962";
  const datedTitle = `Lighthouse picnic ${Date.now().toString(36)}`;
  const datedPhoto = await api.uploadPhoto(await solidPng(80, 60, [40, 120, 200]));
  const datedMemory = await api.createMemory({ title: datedTitle, memory_date: `${bookYear}-05-04`, photo_ids: [datedPhoto.id] });

  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { name: "Your data" })).toBeVisible();
  // Settings is checked with axe by the screens journey (an owner's) and the account journey (a member's).
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download everything" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^memory-box-\d{4}-\d{2}-\d{2}\.zip$/);
  const file = test.info().outputPath("archive.zip");
  await download.saveAs(file);
  expect((await fs.stat(file)).size).toBeGreaterThan(image.length);

  const entries = await entriesOf(file);
  const manifest = JSON.parse(entries.get("memory-box.json")!.toString()) as {
    memories: { id: string; title: string; tags: string[]; photos: { id: string; file: string }[] }[];
  };
  const exported = manifest.memories.find((candidate) => candidate.id === memory.id)!;
  expect(exported).toMatchObject({ title, tags: ["Sea"] });
  expect(entries.get(exported.photos[0]!.file)?.equals(image)).toBe(true);
  expect(entries.has(`memories/${memory.id}.html`)).toBe(true);

  // Issue #35: unpacked, the pages open from the file system with no server, no network and no
  // JavaScript: the years newest first (the undated last), each year's memories newest first,
  // every memory of the archive on its year's page, and every picture loading.
  const folder = test.info().outputPath("unpacked");
  for (const [name, bytes] of entries) {
    await fs.mkdir(path.dirname(path.join(folder, name)), { recursive: true });
    await fs.writeFile(path.join(folder, name), bytes);
  }
  const reader = await browser.newContext({ javaScriptEnabled: false });
  const pages = await reader.newPage();
  const requested: string[] = [];
  pages.on("request", (request) => requested.push(request.url()));
  const picturesLoad = async () => {
    const pictures = pages.locator("img");
    for (const picture of await pictures.all()) {
      await picture.scrollIntoViewIfNeeded();
      await expect(picture).toHaveJSProperty("complete", true);
      expect(await picture.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
    }
  };

  await pages.goto(pathToFileURL(path.join(folder, "index.html")).href);
  await expect(pages.getByRole("heading", { level: 1, name: "Memory Box" })).toBeVisible();
  const yearLinks = pages.getByRole("list").last().getByRole("link");
  const years = await yearLinks.allTextContents();
  const dated = years.slice(0, -1).map(Number);
  expect(years.at(-1)).toBe("Without a date");
  expect(dated).toEqual([...dated].sort((a, b) => b - a));
  const listed = new Set<string>();
  const titlesOfYear = new Map<string, string[]>();
  for (const year of years) {
    await pages.goto(pathToFileURL(path.join(folder, "index.html")).href);
    await pages.getByRole("link", { name: year, exact: true }).click();
    await expect(pages.getByRole("heading", { level: 1, name: year })).toBeVisible();
    const links = await pages.locator("a.title").evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute("href")!));
    for (const link of links) listed.add(/([0-9a-f-]{36})\.html$/.exec(link)![1]!);
    await picturesLoad();
    if (year === "Without a date") continue;
    // A dated year prints as a book (the archive's print view): each of its memories, oldest first.
    const titles = await pages.locator("a.title").allTextContents();
    titlesOfYear.set(year, titles);
    await pages.getByRole("link", { name: "Print this year as a book" }).click();
    await expect(pages.locator(".cover .year")).toHaveText(year);
    expect(await pages.locator("section > header h2").allTextContents()).toEqual([...titles].reverse());
    await picturesLoad();
  }
  expect([...listed].sort()).toEqual(manifest.memories.map((candidate) => candidate.id).sort());

  await pages.getByRole("link", { name: title }).click();
  await expect(pages.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(pages.getByText("No date")).toBeVisible();
  await picturesLoad();
  expect(requested.filter((url) => !url.startsWith("file://"))).toEqual([]);
  await reader.close();

  // axe needs scripts: the same pages in a context that runs them, light and dark.
  const checker = await browser.newContext({ colorScheme: "dark" });
  const checked = await checker.newPage();
  await checked.goto(pathToFileURL(path.join(folder, "index.html")).href);
  await expectAccessible(checked, "the archive's years, dark");
  await checked.goto(pathToFileURL(path.join(folder, "years", "undated.html")).href);
  await expectAccessible(checked, "the archive's undated memories, dark");
  await checked.emulateMedia({ colorScheme: "light" });
  await checked.goto(pathToFileURL(path.join(folder, "memories", `${memory.id}.html`)).href);
  await expectAccessible(checked, "the archive's memory page");

  // The dated memory's year in print, as Chromium's "Save as PDF" makes it: the cover, the contents,
  // then every memory of the year on pages of its own (a long one runs on), with page numbers; axe
  // finds nothing on it (dark on screen, light on paper).
  const newestYear = bookYear;
  const newestTitles = titlesOfYear.get(bookYear)!;
  expect(newestTitles).toContain(datedTitle);
  await checked.emulateMedia({ colorScheme: "dark" });
  await checked.goto(pathToFileURL(path.join(folder, "years", `${newestYear}.print.html`)).href);
  await expectAccessible(checked, "the archive's print view of a year, dark");
  await checked.screenshot({ path: test.info().outputPath("archive-print-view.png"), fullPage: true });
  const pdf = await checked.pdf({ format: "A4" });
  await fs.writeFile(test.info().outputPath(`archive-${newestYear}.pdf`), pdf);
  const printed = await readPdf(pdf);
  expect(printed.pages).toBeGreaterThanOrEqual(2 + newestTitles.length);
  expect(printed.texts[0]).toContain(newestYear);
  expect(printed.texts[1]).toContain("Contents");
  for (const title of newestTitles) expect(printed.texts.slice(2).join(" ")).toContain(title);
  // Every page numbered but the cover.
  expect(printed.images.slice(2).reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(1);
  for (let number = 2; number <= printed.pages; number += 1)
    expect(printed.texts[number - 1]).toMatch(new RegExp(`(^| )${number}( |$)`));
  await checker.close();
  await api.deleteMemory(datedMemory.id);
});
